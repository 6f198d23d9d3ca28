/**
 * The service under measurement, as the bench scripts (run.ts, profile-route.ts) start it: the real
 * `src/server.ts` in a child process on a free port, over the engine the data set was built on, with the bench's
 * season and secrets, no rate limits, and the static ceiling route on; optionally writing V8 CPU profiles.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { insertSession } from "../src/auth/auth.repository.js";
import { signSessionToken } from "../src/auth/session-token.js";
import type { Database } from "../src/db/client.js";
import { BENCH_SEASON } from "./dataset.js";

export const ADMIN_TOKEN = "bench-admin-token";
export const FINALIZE_SECRET = "bench-finalize-secret";
export const JWT_SECRET = "bench-jwt-secret-0123456789abcdef0123456789";
export const ADMIN_HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
export const FINALIZE_HEADERS = { "x-competition-finalize-secret": FINALIZE_SECRET };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Session cookies of `userIds`, stored in the data set before the service starts. */
export async function sessionCookies(
  database: Database,
  userIds: Iterable<number>,
): Promise<Map<number, string>> {
  const key = new TextEncoder().encode(JWT_SECRET);
  const cookies = new Map<number, string>();
  for (const id of userIds) {
    const { token, claims } = await signSessionToken(key, String(id), new Date(BENCH_SEASON.now));
    await insertSession(database.db, claims.sessionId, BigInt(id), claims.expiresAt);
    cookies.set(id, `session=${token}`);
  }
  return cookies;
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
  const server = spawn(process.execPath, [...profile, "--import", "tsx", "src/server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      ...(url ? { DATABASE_URL: url } : { DATABASE_URL: "", DATA_DIR: dataDir! }),
      REDIS_URL: "",
      CHAMPIONS_SEASON_START_ISO: BENCH_SEASON.seasonStart,
      CHAMPIONS_WEEK_ONE_START_ISO: BENCH_SEASON.weekOneStart,
      ADMIN_TOKEN,
      FINALIZE_SECRET,
      JWT_SECRET,
      TEST_CLOCK: "1",
      // The bench finalizes (and times) the weeks itself.
      AUTO_FINALIZE: "false",
      BENCH_CEILING: "on",
      PROTOCOL_INCENTIVE_USDC: "500",
      RATE_LIMIT_READ_PER_MIN: "1000000000",
      RATE_LIMIT_WRITE_PER_MIN: "1000000000",
      RATE_LIMIT_AUTH_PER_MIN: "1000000000",
      RATE_LIMIT_FINALIZE_PER_MIN: "1000000000",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
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

/** The JSON body of a request that must succeed. */
export async function fetchJson(url: string, init?: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${url} → ${res.status} ${JSON.stringify(body)}`);
  return body;
}
