/**
 * Real service processes for drills: `node --import tsx src/server.ts` (or the CLI; in a test run, the run's
 * bundle of the same entry, test/service-bundle.ts) with a given environment, its output kept for failure
 * messages, readiness polled over HTTP, and every process started here killed at the end (`killAll`). HTTP helpers
 * never wait without a bound.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { freePort } from "../free-port.js";
import { nodeArgs } from "../service-bundle.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const DRILL_ADMIN_TOKEN = "drill-admin-token";
export const ADMIN_HEADERS = { authorization: `Bearer ${DRILL_ADMIN_TOKEN}` };

const started = new Set<ChildProcess>();

export interface Proc {
  child: ChildProcess;
  /** stdout + stderr so far. */
  output(): string;
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment every drill server starts from: development mode, quiet logs, limits out of the way. */
export function baseEnv(over: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: "development",
    HOST: "127.0.0.1",
    ADMIN_TOKEN: DRILL_ADMIN_TOKEN,
    LOG_LEVEL: "warn",
    RATE_LIMIT_READ_PER_MIN: "100000000",
    RATE_LIMIT_WRITE_PER_MIN: "100000000",
    RATE_LIMIT_AUTH_PER_MIN: "100000000",
    RATE_LIMIT_FINALIZE_PER_MIN: "100000000",
    ...over,
  };
}

export function spawnTs(script: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, nodeArgs(script, args), {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.add(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (c) => {
    out += c;
  });
  child.stderr!.on("data", (c) => {
    err += c;
  });
  const exited = once(child, "exit").then(() => {
    started.delete(child);
    return { code: child.exitCode, signal: child.signalCode };
  });
  return { child, exited, output: () => out + err, stderr: () => err, stdout: () => out };
}

/**
 * Polls GET <base>/readyz until 200; throws with the process output when it exits or `timeoutMs` passes (generous:
 * a start compiles the sources with tsx and migrates, slow on a busy 2-core machine).
 */
export async function waitReady(proc: Proc, base: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(`server exited (${proc.child.exitCode ?? proc.child.signalCode}):\n${proc.output()}`);
    }
    const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
    if (res?.status === 200) return;
    await sleep(100);
  }
  throw new Error(`server not ready after ${timeoutMs} ms:\n${proc.output()}`);
}

export interface Server extends Proc {
  base: string;
  port: number;
}

/** Starts `src/server.ts` on a free port with `env` (over baseEnv) and waits until it is ready. */
export async function startServer(
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<Server> {
  const port = await freePort();
  const proc = spawnTs("src/server.ts", [], baseEnv({ PORT: String(port), ...env }));
  const base = `http://127.0.0.1:${port}`;
  await waitReady(proc, base, timeoutMs);
  return { ...proc, base, port };
}

/** Sends SIGTERM and waits for the exit (SIGKILL after `graceMs`); returns how long the exit took. */
export async function stopServer(proc: Proc, graceMs = 30_000): Promise<number> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return 0;
  const startedAt = performance.now();
  proc.child.kill("SIGTERM");
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), graceMs);
  await proc.exited;
  clearTimeout(timer);
  return performance.now() - startedAt;
}

/** Kills every process started here that is still running (afterAll). */
export function killAll(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** One JSON request, bounded by `timeoutMs`; a network failure resolves to status 0 (and `error`). */
export async function request(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Reply & { error?: string }> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...opts.headers,
        ...(opts.body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body, headers: res.headers };
  } catch (err) {
    return { status: 0, body: null, headers: new Headers(), error: (err as Error).message };
  }
}
