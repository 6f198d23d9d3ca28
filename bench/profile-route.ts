/**
 * `npx tsx bench/profile-route.ts --phase me|ladder|ingest|batch|mixed [--engine pglite|postgres] [--players N]
 * [--seconds S] [--prof DIR]`: builds the bench's data set, starts the service (with `--cpu-prof` into DIR when
 * given), finalizes the earlier weeks, then loads ONE phase for S seconds so that the CPU profile holds nothing
 * else: `me` (GET /api/competition/me for 1,000 sessions), `ladder` (pages at offset 0), `ingest` (single-row
 * POST /api/admin/sp-transactions, 32 connections), `batch` (POST /api/admin/sp-transactions/batch, 1,000 rows,
 * 4 connections), `mixed` (ladder and /me while 500 rows/s of ingest run). Prints each load's req/s and p99. A
 * profiling aid beside `bench/run.ts`, not part of the BENCH figures.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { insertSession } from "../src/auth/auth.repository.js";
import { signSessionToken } from "../src/auth/session-token.js";
import { openDatabase } from "../src/db/client.js";
import { createScratchPostgres } from "../test/db.js";
import { BENCH_SEASON, BENCH_SQL_TIMEOUT_MS, buildDataset } from "./dataset.js";

const { values: args } = parseArgs({
  options: {
    phase: { type: "string", default: "me" },
    engine: { type: "string", default: "pglite" },
    players: { type: "string", default: "10000" },
    seconds: { type: "string", default: "5" },
    prof: { type: "string" },
  },
});
const players = Number(args.players);
const seconds = Number(args.seconds);
const engine = args.engine === "postgres" ? "postgres" : "pglite";
const W = BENCH_SEASON.liveWeek;
const ADMIN_TOKEN = "bench-admin-token";
const FINALIZE_SECRET = "bench-finalize-secret";
const JWT_SECRET = "bench-jwt-secret-0123456789abcdef0123456789";
const ADMIN_HEADERS = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
const log = (s: string) => process.stderr.write(`${s}\n`);

async function main() {
  let dataDir: string | null = null;
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
  if (engine === "pglite") dataDir = mkdtempSync(join(tmpdir(), "profile-pglite-"));
  else scratch = await createScratchPostgres();
  const databaseUrl = scratch?.url ?? null;
  const database = await openDatabase({ databaseUrl, dataDir, statementTimeoutMs: BENCH_SQL_TIMEOUT_MS });
  await buildDataset(database, players, log);
  const key = new TextEncoder().encode(JWT_SECRET);
  const cookies: string[] = [];
  for (let id = 1; id <= Math.min(1000, players); id++) {
    const { token, claims } = await signSessionToken(key, String(id), new Date(BENCH_SEASON.now));
    await insertSession(database.db, claims.sessionId, BigInt(id), claims.expiresAt);
    cookies.push(`session=${token}`);
  }
  await database.close();
  const { base, server } = await startServer(databaseUrl, dataDir);
  try {
    await fetchJson(`${base}/api/admin/clock`, {
      method: "PUT",
      headers: ADMIN_HEADERS,
      body: JSON.stringify({ now: BENCH_SEASON.now }),
    });
    for (let w = 0; w < W; w++)
      await fetchJson(`${base}/api/competition/finalize?week=${w}`, {
        method: "POST",
        headers: { "x-competition-finalize-secret": FINALIZE_SECRET },
      });
    await fetchJson(`${base}/api/competition/leaderboard?week=${W}&limit=50`);
    let next = 0;
    const me = {
      method: "GET",
      path: `/api/competition/me?week=${W}`,
      setupRequest: (req: any) => ({
        ...req,
        headers: { ...req.headers, cookie: cookies[next++ % cookies.length] },
      }),
    };
    let seq = 0;
    const ingestRequest = {
      method: "POST",
      path: "/api/admin/sp-transactions",
      headers: ADMIN_HEADERS,
      setupRequest: (req: any) => {
        seq++;
        return {
          ...req,
          body: JSON.stringify({
            userId: String(1 + ((seq * 7919) % players)),
            type: "PREDICTION",
            amount: 10 * (1 + (seq % 7)),
            eventId: `bench-${W}-${1 + (seq % 21)}`,
            externalId: `profile:${process.pid}:${seq}`,
          }),
        };
      },
    };
    const ladder = { method: "GET", path: `/api/competition/leaderboard?week=${W}&offset=0&limit=50` };
    const run = async (label: string, opts: Parameters<typeof autocannon>[0]) => {
      const r = await autocannon({ connections: 50, duration: seconds, ...opts });
      log(`${label}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
      return r;
    };
    await run("ceiling", { url: `${base}/bench/ceiling` });
    if (args.phase === "me") await run("me", { url: base, requests: [me] });
    if (args.phase === "ladder") await run("ladder", { url: base, requests: [ladder] });
    if (args.phase === "ingest")
      await run("ingest", { url: base, connections: 32, requests: [ingestRequest] });
    if (args.phase === "batch") {
      await run("batch (requests of 1,000 rows)", {
        url: base,
        connections: 4,
        requests: [
          {
            method: "POST",
            path: "/api/admin/sp-transactions/batch",
            headers: ADMIN_HEADERS,
            setupRequest: (req: any) => {
              const rows = Array.from({ length: 1000 }, () =>
                JSON.parse(ingestRequest.setupRequest(req).body),
              );
              return { ...req, body: JSON.stringify({ rows }) };
            },
          },
        ],
      });
    }
    if (args.phase === "mixed") {
      const writes = run("mixed ingest", {
        url: base,
        connections: 8,
        overallRate: 500,
        duration: 2 * seconds + 1,
        requests: [ingestRequest],
      });
      await run("mixed ladder", { url: base, requests: [ladder] });
      await run("mixed me", { url: base, requests: [me] });
      await writes;
    }
  } finally {
    await stopServer(server);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (scratch) await scratch.drop();
  }
}

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

async function startServer(url: string | null, dataDir: string | null) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = args.prof ? ["--cpu-prof", `--cpu-prof-dir=${args.prof}`] : [];
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
  throw new Error("server did not become ready");
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await exited;
}

async function fetchJson(url: string, init?: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${url} → ${res.status} ${JSON.stringify(body)}`);
  return body;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
