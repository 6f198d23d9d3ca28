/**
 * `npm run bench [-- --quick] [-- --players N]`: builds the data set on the embedded database and, when
 * DATABASE_URL is set, on PostgreSQL; starts the real service on each; measures with autocannon (a) the same
 * server's static-JSON ceiling, (b) ladder pages at offset 0 and deep, (c) /api/competition/me for random players,
 * (d) SP ingest through the admin API, (e) finalize of the big week, (f) the server's peak RSS; and checks that
 * the ranks served for 1,000 random players equal ranks computed from the ledger. Prints a table, then one
 * `BENCH {json}` line per engine.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { insertSession } from "../src/auth/auth.repository.js";
import { signSessionToken } from "../src/auth/session-token.js";
import { weekBounds } from "../src/competition/calendar.js";
import { openDatabase } from "../src/db/client.js";
import { mulberry32 } from "../src/shared/prng.js";
import { createScratchPostgres } from "../test/db.js";
import { BENCH_SEASON, buildDataset, ledgerWeekSp } from "./dataset.js";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    players: { type: "string" },
    engine: { type: "string" },
  },
});
const quick = args.quick ?? false;
const players = args.players ? Number(args.players) : quick ? 10_000 : 1_000_000;
const seconds = quick ? 3 : 10;
const CONNECTIONS = 50;
const SAMPLE = 1000;
const ADMIN_TOKEN = "bench-admin-token";
const FINALIZE_SECRET = "bench-finalize-secret";
const JWT_SECRET = "bench-jwt-secret-0123456789abcdef0123456789";
const season = {
  seasonStart: new Date(BENCH_SEASON.seasonStart),
  weekOneStart: new Date(BENCH_SEASON.weekOneStart),
};
const W = BENCH_SEASON.liveWeek;

const log = (s: string) => process.stderr.write(`${s}\n`);

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

interface EngineResult {
  engine: "pglite" | "postgres";
  players: number;
  ceilingRps: number;
  ladderRps0: number;
  ladderRpsDeep: number;
  ladderP99Ms: number;
  meRps: number;
  meP99Ms: number;
  ingestRowsPerSec: number;
  finalizeSec: number;
  peakRssMb: number;
  ranksExact: boolean;
  buildSec: number;
  cacheLoadSec: number;
}

async function runEngine(engine: "pglite" | "postgres"): Promise<EngineResult> {
  log(`\n== ${engine}: ${players.toLocaleString("en")} players ==`);
  const buildStart = Date.now();
  let dataDir: string | null = null;
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
  if (engine === "pglite") dataDir = mkdtempSync(join(tmpdir(), "bench-pglite-"));
  else scratch = await createScratchPostgres();
  const database = await openDatabase({ databaseUrl: scratch?.url ?? null, dataDir });
  await buildDataset(database, players, log);

  // Sessions for SAMPLE random players, signed like the server's own (same secret, clock at BENCH now).
  const rnd = mulberry32(2026);
  const sampleIds = new Set<number>();
  while (sampleIds.size < Math.min(SAMPLE, players)) sampleIds.add(1 + Math.floor(rnd() * players));
  const key = new TextEncoder().encode(JWT_SECRET);
  const cookies = new Map<number, string>();
  for (const id of sampleIds) {
    const { token, claims } = await signSessionToken(key, String(id), new Date(BENCH_SEASON.now));
    await insertSession(database.db, claims.sessionId, BigInt(id), claims.expiresAt);
    cookies.set(id, `session=${token}`);
  }
  await database.close();
  const buildSec = (Date.now() - buildStart) / 1000;

  let { base, server } = await startServer(engine, scratch?.url ?? null, dataDir);
  try {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    await fetchJson(`${base}/api/admin/clock`, {
      method: "PUT",
      headers: admin,
      body: JSON.stringify({ now: BENCH_SEASON.now }),
    });

    // As in production, only the live week is unfinalized: finalize the ten earlier weeks (10,000 players each).
    const fin = { "x-competition-finalize-secret": FINALIZE_SECRET };
    for (let w = 0; w < W; w++)
      await fetchJson(`${base}/api/competition/finalize?week=${w}`, { method: "POST", headers: fin });

    let t = Date.now();
    await fetchJson(`${base}/api/competition/leaderboard?week=${W}&limit=50`);
    const cacheLoadSec = (Date.now() - t) / 1000;
    log(`  first ladder read (loads the rank cache): ${cacheLoadSec.toFixed(2)} s`);

    const ceiling = await load({ url: `${base}/bench/ceiling` });
    const ladder0 = await load({ url: `${base}/api/competition/leaderboard?week=${W}&offset=0&limit=50` });
    const deep = Math.floor(players / 2);
    const ladderDeep = await load({
      url: `${base}/api/competition/leaderboard?week=${W}&offset=${deep}&limit=50`,
    });
    const cookieList = [...cookies.values()];
    let next = 0;
    const me = await load({
      url: base,
      requests: [
        {
          method: "GET",
          path: `/api/competition/me?week=${W}`,
          setupRequest: (req) => ({
            ...req,
            headers: { ...req.headers, cookie: cookieList[next++ % cookieList.length]! },
          }),
        },
      ],
    });

    // (d) Ingest: one SP row per request through the admin API, random players, unique external ids.
    let seq = 0;
    const ingest = await load({
      url: base,
      connections: 32,
      requests: [
        {
          method: "POST",
          path: "/api/admin/sp-transactions",
          headers: admin,
          setupRequest: (req) => {
            seq++;
            const userId = 1 + Math.floor(rnd() * players);
            return {
              ...req,
              body: JSON.stringify({
                userId: String(userId),
                type: "PREDICTION",
                amount: 10 * (1 + (seq % 7)),
                eventId: `bench-${W}-${1 + (seq % 21)}`,
                externalId: `ingest:${engine}:${process.pid}:${seq}`,
              }),
            };
          },
        },
      ],
    });
    const ingestRowsPerSec = ingest["2xx"] / ingest.duration;

    // Restart (ranks must survive it), and compute the reference from the ledger while the server is down.
    let peakRssMb = peakRss(server);
    await stopServer(server);
    const { start, end } = weekBounds(season, W);
    const verifyDb = await openDatabase({ databaseUrl: scratch?.url ?? null, dataDir, poolSize: 1 });
    const reference = await ledgerWeekSp(verifyDb, start, end);
    await verifyDb.close();
    ({ base, server } = await startServer(engine, scratch?.url ?? null, dataDir));
    await fetchJson(`${base}/api/admin/clock`, {
      method: "PUT",
      headers: admin,
      body: JSON.stringify({ now: BENCH_SEASON.now }),
    });
    const sorted = [...reference.values()].filter((sp) => sp > 0).sort((a, b) => b - a);
    const countAbove = (sp: number) => {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid]! > sp) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    let mismatches = 0;
    const ids = [...cookies.keys()];
    for (let i = 0; i < ids.length; i += 25) {
      await Promise.all(
        ids.slice(i, i + 25).map(async (id) => {
          const body = await fetchJson(`${base}/api/competition/me?week=${W}`, {
            headers: { cookie: cookies.get(id)! },
          });
          const sp = reference.get(String(id)) ?? 0;
          const expected = sp > 0 ? 1 + countAbove(sp) : null;
          const served = body.data.qualification;
          if (served.rank !== expected || served.competitiveSp !== sp) mismatches++;
        }),
      );
    }
    const ranksExact = mismatches === 0;
    log(`  ranks checked for ${ids.length} players: ${mismatches} mismatches`);

    // (e) Finalize the big week once it has ended.
    await fetchJson(`${base}/api/admin/clock`, {
      method: "PUT",
      headers: admin,
      body: JSON.stringify({ now: BENCH_SEASON.afterLiveWeek }),
    });
    t = Date.now();
    const finalized = await fetchJson(`${base}/api/competition/finalize?week=${W}`, {
      method: "POST",
      headers: fin,
    });
    const finalizeSec = (Date.now() - t) / 1000;
    log(
      `  finalize week ${W}: ${finalized.data.qualification.participants} participants, ${finalizeSec.toFixed(2)} s`,
    );

    peakRssMb = Math.max(peakRssMb, peakRss(server));

    const result: EngineResult = {
      engine,
      players,
      ceilingRps: Math.round(ceiling.requests.average),
      ladderRps0: Math.round(ladder0.requests.average),
      ladderRpsDeep: Math.round(ladderDeep.requests.average),
      ladderP99Ms: Math.max(ladder0.latency.p99, ladderDeep.latency.p99),
      meRps: Math.round(me.requests.average),
      meP99Ms: me.latency.p99,
      ingestRowsPerSec: Math.round(ingestRowsPerSec),
      finalizeSec: Number(finalizeSec.toFixed(2)),
      peakRssMb,
      ranksExact,
      buildSec: Number(buildSec.toFixed(1)),
      cacheLoadSec: Number(cacheLoadSec.toFixed(2)),
    };
    for (const [name, r] of [
      ["ceiling", ceiling],
      ["ladder@0", ladder0],
      [`ladder@${deep}`, ladderDeep],
      ["me", me],
      ["ingest", ingest],
    ] as const) {
      if (r.non2xx > 0 || r.errors > 0)
        log(`  warning: ${name} had ${r.non2xx} non-2xx and ${r.errors} errors`);
    }
    return result;
  } finally {
    await stopServer(server);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (scratch) await scratch.drop();
  }
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRss(p: ChildProcess): number {
  const status = readFileSync(`/proc/${p.pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function startServer(engine: "pglite" | "postgres", url: string | null, dataDir: string | null) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_CPU_PROF
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const server = spawn(process.execPath, [...profile, "--import", "tsx", "src/server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      ...(engine === "postgres" ? { DATABASE_URL: url! } : { DATABASE_URL: "", DATA_DIR: dataDir! }),
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
  await waitReady(base, server);
  return { base, server };
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await exited;
}

async function load(opts: Parameters<typeof autocannon>[0]) {
  const r = await autocannon({ connections: CONNECTIONS, duration: seconds, ...opts });
  const path = opts.requests?.[0]?.path ?? new URL(opts.url).pathname + new URL(opts.url).search;
  log(
    `  ${path}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ${r.non2xx} non-2xx, ${r.errors} errors`,
  );
  return r;
}

async function fetchJson(url: string, init?: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${url} → ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function waitReady(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server did not become ready");
}

function table(results: EngineResult[]): string {
  const rows: Array<[string, (r: EngineResult) => string]> = [
    ["players", (r) => r.players.toLocaleString("en")],
    ["data set build (s)", (r) => String(r.buildSec)],
    ["rank cache load (s)", (r) => String(r.cacheLoadSec)],
    ["(a) ceiling req/s", (r) => String(r.ceilingRps)],
    ["(b) ladder @0 req/s", (r) => `${r.ladderRps0} (${pct(r.ladderRps0, r.ceilingRps)})`],
    ["(b) ladder deep req/s", (r) => `${r.ladderRpsDeep} (${pct(r.ladderRpsDeep, r.ceilingRps)})`],
    ["(b) ladder p99 ms", (r) => String(r.ladderP99Ms)],
    ["(c) me req/s", (r) => `${r.meRps} (${pct(r.meRps, r.ceilingRps)})`],
    ["(c) me p99 ms", (r) => String(r.meP99Ms)],
    ["(d) ingest rows/s", (r) => String(r.ingestRowsPerSec)],
    ["(e) finalize s", (r) => String(r.finalizeSec)],
    ["(f) peak RSS MB", (r) => String(r.peakRssMb)],
    ["ranks exact", (r) => String(r.ranksExact)],
  ];
  const head = `| metric | ${results.map((r) => r.engine).join(" | ")} |\n|---|${results.map(() => "---").join("|")}|`;
  return [head, ...rows.map(([name, f]) => `| ${name} | ${results.map(f).join(" | ")} |`)].join("\n");
}

const pct = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;

async function main() {
  const engines: Array<"pglite" | "postgres"> = args.engine
    ? [args.engine as "pglite" | "postgres"]
    : process.env.DATABASE_URL
      ? ["pglite", "postgres"]
      : ["pglite"];
  const results: EngineResult[] = [];
  for (const e of engines) results.push(await runEngine(e));
  console.log(`\n${table(results)}\n`);
  for (const r of results) {
    const { buildSec: _b, cacheLoadSec: _c, ...line } = r;
    console.log(`BENCH ${JSON.stringify(line)}`);
  }
  if (results.some((r) => !r.ranksExact)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
