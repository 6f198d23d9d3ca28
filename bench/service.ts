/**
 * The service under measurement, as the bench (run.ts) starts it: the real
 * `src/server.ts` in a child process on a free port, over the engine the data set was built on, as an operator
 * runs it behind a load balancer: secrets drawn at random for the run, the default log level (one line per
 * request, written to a file), the production rate limits on reads, sign-in and finalize, each client's address
 * taken from `x-forwarded-for` set by the trusted proxy on loopback (TRUST_PROXY), and the write limit raised for
 * the bet phase (200 players placing 2,000 bets/s is 600 a minute each, ten times the default). NODE_ENV stays
 * `development` only because the bench moves the clock (TEST_CLOCK, refused in production); what production adds
 * besides is the `Secure` cookie flag and the HSTS header. Optionally writes V8 CPU profiles. `startBare` starts
 * the ceiling (bench/bare-server.ts) as a separate process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { signSessionToken } from "../src/auth/session-token.js";
import type { Database } from "../src/db/client.js";
import { freePort } from "../test/free-port.js";
import { BENCH_SEASON } from "./dataset.js";
import { clientAddress } from "./load.js";

const randomSecret = () => randomBytes(24).toString("hex");
export const ADMIN_TOKEN = randomSecret();
export const FINALIZE_SECRET = randomSecret();
export const JWT_SECRET = randomSecret();
/** The write limit per signed-in player during the bench (the default is 60 a minute). */
export const BENCH_WRITE_PER_MIN = 1_000_000;
/** The mixed phase's (g) write load: single-row ingest at this rate, on this many connections. */
export const MIXED_INGEST_RPS = 500;
export const MIXED_INGEST_CONNECTIONS = 64;
export const ADMIN_HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
export const FINALIZE_HEADERS = { "x-competition-finalize-secret": FINALIZE_SECRET };

/** A PostgreSQL array literal of plain values (no quotes or commas in them), one parameter. */
const pgArray = (values: string[]) => `{${values.join(",")}}`;

/** Session cookies of `userIds`, stored in the data set before the service starts. */
export async function sessionCookies(
  database: Database,
  userIds: Iterable<number>,
): Promise<Map<number, string>> {
  const key = new TextEncoder().encode(JWT_SECRET);
  const cookies = new Map<number, string>();
  const rows: Array<{ id: string; userId: string; expiresAt: string }> = [];
  for (const id of userIds) {
    const { token, claims } = await signSessionToken(key, String(id), new Date(BENCH_SEASON.now));
    rows.push({ id: claims.sessionId, userId: String(id), expiresAt: claims.expiresAt.toISOString() });
    cookies.set(id, `session=${token}`);
  }
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await database.db.execute(
      sql`insert into sessions (id, user_id, expires_at)
          select * from unnest(${pgArray(chunk.map((r) => r.id))}::text[],
                               ${pgArray(chunk.map((r) => r.userId))}::bigint[],
                               ${pgArray(chunk.map((r) => r.expiresAt))}::timestamptz[])`,
    );
  }
  return cookies;
}

/**
 * The service's environment as the bench runs it (the file's header): PostgreSQL at `url`, else the embedded
 * database in `dataDir`; the bench's season and clock; the default log level; no Redis.
 */
export function serviceEnv(
  url: string | null,
  dataDir: string | null,
  port: number,
  secrets: { ADMIN_TOKEN: string; FINALIZE_SECRET: string; JWT_SECRET: string } = {
    ADMIN_TOKEN,
    FINALIZE_SECRET,
    JWT_SECRET,
  },
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "development",
    TRUST_PROXY: "127.0.0.1",
    PORT: String(port),
    HOST: "127.0.0.1",
    ...(url ? { DATABASE_URL: url } : { DATABASE_URL: "", DATA_DIR: dataDir! }),
    REDIS_URL: "",
    CHAMPIONS_SEASON_START_ISO: BENCH_SEASON.seasonStart,
    CHAMPIONS_WEEK_ONE_START_ISO: BENCH_SEASON.weekOneStart,
    ...secrets,
    TEST_CLOCK: "1",
    // The heap bound docs/operations.md prescribes for a 1 GiB memory budget ("Memory"): without it V8 lets
    // garbage pile up to a limit sized from the machine (≈ 4 GB here) — 990 MB resident at 1,000,000 players
    // under ladder load, against 587 MB with it, at no cost in CPU per request (docs/performance.md).
    NODE_OPTIONS: "--max-old-space-size=768",
    // The bench finalizes (and times) the weeks itself.
    AUTO_FINALIZE: "false",
    PROTOCOL_INCENTIVE_USDC: "500",
    LOG_LEVEL: "",
  };
}

/** Starts the service on PostgreSQL at `url`, or on the embedded database in `dataDir`; resolves once ready. */
export async function startServer(
  url: string | null,
  dataDir: string | null,
  cpuProfDir?: string,
): Promise<{ base: string; server: ChildProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [];
  const logFile = openServiceLog();
  const server = spawn(process.execPath, [...profile, "--import", "tsx", "src/server.ts"], {
    env: {
      ...serviceEnv(url, dataDir, port),
      RATE_LIMIT_READ_PER_MIN: "",
      RATE_LIMIT_WRITE_PER_MIN: String(BENCH_WRITE_PER_MIN),
      RATE_LIMIT_AUTH_PER_MIN: "",
      RATE_LIMIT_FINALIZE_PER_MIN: "",
    },
    stdio: ["ignore", logFile, "inherit"],
  });
  return waitReady(server, base);
}

/**
 * The ceiling: bench/bare-server.ts in its own process, answering the ladder and `/me` paths with `ladder` and
 * `me`, byte for byte.
 */
export async function startBare(
  bodies: { ladder: Buffer; me: Buffer },
  cpuProfDir?: string,
): Promise<{ base: string; server: ChildProcess }> {
  const port = await freePort();
  const file = join(tmpdir(), `bench-bare-${process.pid}.json`);
  writeFileSync(
    file,
    JSON.stringify({ ladder: bodies.ladder.toString("base64"), me: bodies.me.toString("base64") }),
  );
  const profile = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`] : [];
  const server = spawn(process.execPath, [...profile, "--import", "tsx", "bench/bare-server.ts"], {
    env: { ...process.env, PORT: String(port), BARE_BODIES: file, NODE_ENV: "production" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  // The server reads the bodies as it starts: once it is ready (or gone), the file has served.
  return waitReady(server, `http://127.0.0.1:${port}`).finally(() => rmSync(file, { force: true }));
}

/**
 * The servers this process started and has not seen exit. When the bench stops, on an exception included, they are
 * killed: a server left running would hold the output of whoever ran the bench (it writes to the same stderr), and
 * CI would wait for that output's end until its own time limit.
 */
const started = new Set<ChildProcess>();
/** The services' log of this process (every request at info level: tens of MB a bench), once opened. */
let serviceLog: string | null = null;
process.on("exit", (code) => {
  for (const server of started) server.kill("SIGKILL");
  // Kept for a failed run, to read what the service saw; a run that passed leaves nothing in /tmp.
  if (serviceLog === null) return;
  if (code === 0) rmSync(serviceLog, { force: true });
  else process.stderr.write(`the services' log is kept: ${serviceLog}\n`);
});

/** Opens (appending) the file the services this process starts write their output to; returns its descriptor. */
export function openServiceLog(): number {
  serviceLog = join(tmpdir(), `bench-service-${process.pid}.log`);
  return openSync(serviceLog, "a");
}

/** Kills `server` when this process exits, unless it exited before (every server a bench tool starts). */
function ownServer(server: ChildProcess): void {
  started.add(server);
  server.once("exit", () => started.delete(server));
}

/**
 * Resolves once `server` answers `/readyz` at `base` (120 s at most); its exit or the deadline rejects. The server
 * is owned (`ownServer`) from here on.
 */
export async function waitReady(
  server: ChildProcess,
  base: string,
): Promise<{ base: string; server: ChildProcess }> {
  ownServer(server);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { base, server };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  server.kill("SIGTERM");
  throw new Error("server did not become ready");
}

export async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await exited;
}

/** The JSON body of a request that must succeed, sent from the next client address. */
export async function fetchJson(url: string, init?: RequestInit): Promise<any> {
  // From one of the load's client addresses: the service limits each address as in production.
  const headers = { "x-forwarded-for": clientAddress(), ...(init?.headers as Record<string, string>) };
  const res = await fetch(url, { ...init, headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${url} → ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Polls GET /metrics until the display store holds users (120 s at most). A scrape that times out is asked again:
 * on the embedded database the store's load holds the one connection for seconds at a time at 1,000,000 users, and
 * the scrape's gauges wait for it.
 */
export async function displayStoreLoaded(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const loaded = await readMetrics(base).then(
      (metric) => metric("app_display_store_users") > 0,
      (err: unknown) => {
        if (err instanceof DOMException && err.name === "TimeoutError") return false;
        throw err;
      },
    );
    if (loaded) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the display store did not load within 120 s");
}

/** GET /metrics (5 s at most), and a reader of an unlabelled sample's value by its name (0 when absent). */
export async function readMetrics(base: string): Promise<(name: string) => number> {
  const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
  return (name) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
}
