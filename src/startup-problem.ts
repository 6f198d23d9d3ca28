/**
 * What a failed start says: `startupProblem(err, config)` turns the error of an unreachable or missing dependency
 * (PostgreSQL, Redis, the port, DATA_DIR) into one line that names the problem and the fix, for the server (and
 * the CLI) to print instead of a stack trace before exiting 1. Never prints a password: a URL is shown as
 * host:port and database name only. An error it does not recognise keeps its message, on one line.
 */
import type { Config } from "./config.js";
import { DataDirLockedError } from "./db/data-dir-lock.js";

/** Where a dependency failed while starting: which one, so the message can name its variable. */
export type StartupStep = "database" | "redis" | "listen";

interface ErrorFacts {
  code?: string;
  message: string;
}

/** The code and message of `err`, looking into an AggregateError (several addresses tried) and a cause. */
function factsOf(err: unknown): ErrorFacts {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  const inner = Array.isArray(e?.errors) ? (e.errors[0] as { code?: unknown; message?: unknown }) : undefined;
  const code =
    typeof e?.code === "string"
      ? e.code
      : typeof inner?.code === "string"
        ? inner.code
        : typeof (e?.cause as { code?: unknown })?.code === "string"
          ? ((e.cause as { code: string }).code as string)
          : undefined;
  const message =
    typeof e?.message === "string" && e.message !== ""
      ? e.message
      : typeof inner?.message === "string"
        ? inner.message
        : String(err);
  return { ...(code ? { code } : {}), message: message.replace(/\s+/g, " ").trim() };
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ECONNRESET",
]);

function hostPort(
  url: string,
  defaultPort: number,
): { host: string; port: string; path: string; user: string } {
  try {
    const u = new URL(url);
    return {
      host: u.hostname || "localhost",
      port: u.port || String(defaultPort),
      path: decodeURIComponent(u.pathname.replace(/^\//, "")),
      user: decodeURIComponent(u.username),
    };
  } catch {
    return { host: "?", port: "?", path: "", user: "" };
  }
}

function databaseProblem(err: unknown, config: Config): string {
  if (err instanceof DataDirLockedError) return err.message;
  const { code, message } = factsOf(err);
  if (!config.databaseUrl) {
    if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
      return `DATA_DIR ${config.dataDir} is not writable (${code}): give this user write access to it or set DATA_DIR to a writable folder`;
    }
    return `the embedded database in DATA_DIR ${config.dataDir} could not be opened: ${message}`;
  }
  const { host, port, path, user } = hostPort(config.databaseUrl, 5432);
  const name = path || user || "postgres";
  if (code === "3D000") {
    return `database "${name}" does not exist on PostgreSQL ${host}:${port} (DATABASE_URL): create it (createdb -h ${host} -p ${port}${user ? ` -U ${user}` : ""} ${name}) or point DATABASE_URL at an existing database`;
  }
  if (code === "28P01" || code === "28000") {
    return `PostgreSQL ${host}:${port} refused the login${user ? ` of user "${user}"` : ""} (${code}: ${message}): fix the user or password in DATABASE_URL`;
  }
  if ((code && UNREACHABLE.has(code)) || /timeout|terminated/i.test(message)) {
    return `PostgreSQL at ${host}:${port} is not reachable (${code ?? message}): start it, or fix the host and port in DATABASE_URL`;
  }
  return `PostgreSQL at ${host}:${port} (DATABASE_URL) failed at start: ${code ? `${code} ` : ""}${message}`;
}

function redisProblem(err: unknown, config: Config): string {
  const { code, message } = factsOf(err);
  const { host, port } = hostPort(config.redisUrl ?? "", 6379);
  if ((code && UNREACHABLE.has(code)) || /timeout|timed out/i.test(message)) {
    return `Redis at ${host}:${port} is not reachable (${code ?? message}): start it, fix REDIS_URL, or unset REDIS_URL to keep rate limits in this process's memory`;
  }
  if (/NOAUTH|WRONGPASS|AUTH/i.test(message)) {
    return `Redis at ${host}:${port} refused the login (${message}): fix the user or password in REDIS_URL`;
  }
  return `Redis at ${host}:${port} (REDIS_URL) failed at start: ${message}`;
}

function listenProblem(err: unknown, config: Config): string {
  const { code, message } = factsOf(err);
  if (code === "EADDRINUSE") {
    return `port ${config.port} on ${config.host} is already in use: stop the process holding it or set PORT to a free port`;
  }
  if (code === "EACCES") {
    return `port ${config.port} on ${config.host} needs privileges this user lacks: set PORT to 1024 or above`;
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") {
    return `HOST ${config.host} is not an address of this machine (${code}): set HOST to one (127.0.0.1, 0.0.0.0)`;
  }
  return `could not listen on ${config.host}:${config.port}: ${message}`;
}

/** One line (no line break) naming what failed at `step` and how to fix it. */
export function startupProblem(step: StartupStep, err: unknown, config: Config): string {
  const line =
    step === "database"
      ? databaseProblem(err, config)
      : step === "redis"
        ? redisProblem(err, config)
        : listenProblem(err, config);
  return line.replace(/[\r\n]+/g, " ");
}
