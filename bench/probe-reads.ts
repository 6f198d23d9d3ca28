/**
 * `npx tsx bench/probe-reads.ts [--players N] [--seconds S] [--engine pglite|postgres] [--set K=V,...] [--bare]
 * [--route ladder|me|both|fixed|ingest|batch|wallets|bets|mixed] [--accept-encoding E] [--rate R] [--connections N] [--profile DIR] [--heap-profile DIR] [--node-args="…"]`: a direct
 * experiment on the read paths. Builds (once, kept under /tmp/probe-reads-<engine>-<N>) the bench's data set,
 * starts the service as bench/service.ts does (production settings, 20,000 client addresses), applies the
 * environment overrides of `--set` (e.g.
 * `RATE_LIMIT_READ_PER_MIN=1000000000`, `LOG_LEVEL=warn`, `REDIS_URL=redis://…`), and loads one route for S seconds
 * after a warm-up. Prints throughput and the service's **CPU milliseconds per request** (from /proc, user+system):
 * on a machine shared with other work the wall-clock figures move with the neighbours, the CPU cost per request
 * much less. The bare server (bench/bare-server.ts) is measured the same way for comparison. On PostgreSQL the CPU
 * of the backends serving the service's database is given per request too (they share the cores).
 * `--rate R` sends R requests a second in all (10 connections) instead of as many as the service answers: the cost
 * of a request below saturation, where the feed reads a saturating load shares among many requests are paid by
 * fewer. On 2 shared cores the CPU per request moved by up to ±15 % between identical runs at either load, so a
 * change smaller than that is shown by its share of a CPU profile (`--profile`) within one run.
 * `--heap-profile DIR` samples what each route's requests allocate (bench/heap-sampler.ts, garbage included) during
 * its measured load, writes DIR/<route>.heapprofile and prints the functions that allocated the most (the sampling
 * costs the service CPU: compare CPU figures only between runs without it).
 * `--node-args` passes options to the service's node (e.g. `--trace-gc`), and shows its standard output (the
 * request log, with LOG_LEVEL=warn through `--set` to keep only the GC lines).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { type Database, openDatabase } from "../src/db/client.js";
import { freePort } from "../test/free-port.js";
import { backendCpuMsSince, backendTicks, processCpuTicks, processMemoryMb } from "./cpu.js";
import { BENCH_SEASON, BENCH_SQL_TIMEOUT_MS, BET_EVENT, buildBetEvent, buildDataset } from "./dataset.js";
import { formatSites, type HeapProfileNode } from "./heap-sites.js";
import { load } from "./load.js";
import {
  ADMIN_TOKEN,
  BENCH_WRITE_PER_MIN,
  displayStoreLoaded,
  FINALIZE_SECRET,
  fetchJson,
  JWT_SECRET,
  MIXED_INGEST_CONNECTIONS,
  MIXED_INGEST_RPS,
  serviceEnv,
  sessionCookies,
  startBare,
  stopServer,
  waitReady,
} from "./service.js";

const { values: args } = parseArgs({
  options: {
    players: { type: "string", default: "20000" },
    seconds: { type: "string", default: "5" },
    engine: { type: "string", default: "pglite" },
    set: { type: "string", default: "" },
    route: { type: "string", default: "both" },
    bare: { type: "boolean", default: false },
    rate: { type: "string" },
    profile: { type: "string" },
    "node-args": { type: "string", default: "" },
    "heap-profile": { type: "string" },
    "accept-encoding": { type: "string" },
    connections: { type: "string" },
  },
});
const heapProfileDir = args["heap-profile"] ? resolve(args["heap-profile"]) : null;
if (heapProfileDir) mkdirSync(heapProfileDir, { recursive: true });
/** `--accept-encoding br`: the read routes' requests ask for a compressed answer, as a browser's do. */
const readHeaders: Record<string, string> = args["accept-encoding"]
  ? { "accept-encoding": args["accept-encoding"] }
  : {};
const rate = args.rate ? { overallRate: Number(args.rate), connections: 10 } : {};
/** `--connections N`: the ingest route's writers (default 32; 1 is one client sending one row at a time). */
const writers = args.connections ? Number(args.connections) : undefined;
const players = Number(args.players);
const seconds = Number(args.seconds);
const W = BENCH_SEASON.liveWeek;
const log = (s: string) => process.stderr.write(`${s}\n`);
const overrides = Object.fromEntries(
  args
    .set!.split(",")
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)] as [string, string]),
);

/** CPU time (user + system) of a process so far, in ms. */
function cpuMs(pid: number): number {
  const ticks = processCpuTicks(pid);
  if (ticks === null) throw new Error(`the service (pid ${pid}) is gone`);
  return (ticks * 1000) / 100;
}

async function dataset(): Promise<{ url: string | null; dir: string | null; cookies: string[] }> {
  const dir = `/tmp/probe-reads-${args.engine}-${players}`;
  const cookiesFile = `${dir}.cookies.json`;
  const url = args.engine === "postgres" ? `postgres://postgres@127.0.0.1:5432/probe_reads_${players}` : null;
  if (!existsSync(cookiesFile)) {
    if (url) {
      const admin = await openDatabase({
        databaseUrl: "postgres://postgres@127.0.0.1:5432/test",
        dataDir: null,
      });
      await admin.db.execute(sql.raw(`drop database if exists probe_reads_${players}`));
      await admin.db.execute(sql.raw(`create database probe_reads_${players}`));
      await admin.close();
    } else mkdirSync(dir, { recursive: true });
    const db = await openDatabase({
      databaseUrl: url,
      dataDir: url ? null : dir,
      statementTimeoutMs: BENCH_SQL_TIMEOUT_MS,
    });
    await buildDataset(db, players, log);
    const ids = Array.from({ length: Math.min(5000, players) }, (_, i) => 1 + ((i * 7919) % players));
    const cookies = [...(await sessionCookies(db, ids)).values()];
    await db.close();
    writeFileSync(
      cookiesFile,
      JSON.stringify({ cookies, jwt: JWT_SECRET, admin: ADMIN_TOKEN, fin: FINALIZE_SECRET }),
    );
  }
  const saved = JSON.parse(readFileSync(cookiesFile, "utf8"));
  return { url, dir: url ? null : dir, cookies: saved.cookies, ...{ secrets: saved } };
}

async function start(url: string | null, dir: string | null, secrets: Record<string, string>) {
  if (!secrets.fin) throw new Error("no secrets");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const prof = args.profile ? ["--cpu-prof", `--cpu-prof-dir=${args.profile}`] : [];
  const nodeArgs = args["node-args"]!.split(" ").filter(Boolean);
  // After tsx's own --import, which is what loads a .ts file.
  const sampler = heapProfileDir ? ["--import", new URL("./heap-sampler.ts", import.meta.url).href] : [];
  const server: ChildProcess = spawn(
    process.execPath,
    [...prof, ...nodeArgs, "--import", "tsx", ...sampler, "src/server.ts"],
    {
      env: {
        ...serviceEnv(url, dir, port, {
          ADMIN_TOKEN: secrets.admin ?? "",
          FINALIZE_SECRET: secrets.fin,
          JWT_SECRET: secrets.jwt ?? "",
        }),
        // As the bench runs its bet phase (bench/service.ts): at the default 60 writes a minute a player, the
        // 200 bettors' 12,000 a minute ran out within a 5-s run, and the rest were 429s.
        RATE_LIMIT_WRITE_PER_MIN: String(BENCH_WRITE_PER_MIN),
        ...(heapProfileDir ? { HEAP_PROFILE_DIR: heapProfileDir } : {}),
        ...overrides,
      },
      // The service's own output is its request log; shown only with --node-args (e.g. --trace-gc prints there).
      stdio: ["ignore", nodeArgs.length > 0 ? "inherit" : "ignore", "inherit"],
    },
  );
  await waitReady(server, base);
  const admin = { authorization: `Bearer ${secrets.admin}`, "content-type": "application/json" };
  await fetchJson(`${base}/api/admin/clock`, {
    method: "PUT",
    headers: admin,
    body: JSON.stringify({ now: BENCH_SEASON.now }),
  });
  for (let w = 0; w < W; w++)
    await fetchJson(`${base}/api/competition/finalize?week=${w}`, {
      method: "POST",
      headers: { "x-competition-finalize-secret": secrets.fin! },
    });
  await fetchJson(`${base}/api/competition/leaderboard?week=${W}&limit=50`);
  // As the bench: the loads measure the service once the display store (loaded in the background) is ready.
  await displayStoreLoaded(base);
  return { base, server };
}

let seed = 1;
const rnd = () => {
  seed = (seed * 48271) % 2147483647;
  return seed / 2147483647;
};

/**
 * One route's load: the service's CPU per request and, on PostgreSQL, the CPU of the backends serving its
 * database (`database`: a connection of this process to it), which share the machine's cores with the service.
 */
/** The service's process, once started: the one `--heap-profile` samples. */
let servicePid: number | undefined;

async function measure(
  name: string,
  base: string,
  pid: number,
  request: object,
  database?: Database,
  connections = rate.connections,
) {
  const opts = { url: base, requests: [request as never], ...rate };
  await load(`${name} (warm-up)`, opts, { seconds: 1, warmupSec: 0, connections });
  const before = cpuMs(pid);
  const own = process.cpuUsage();
  const backends = database ? await backendTicks(database) : null;
  const commitsBefore = database ? await commits(database) : 0;
  // Only the service loads the sampler (the bare server would die of SIGUSR2).
  const sample = heapProfileDir !== null && pid === servicePid;
  if (sample) process.kill(pid, "SIGUSR1");
  const r = await load(name, opts, { seconds, warmupSec: 0, connections });
  const used = cpuMs(pid) - before;
  const { user, system } = process.cpuUsage(own);
  if (sample) await writeHeapProfile(heapProfileDir, pid, name);
  const pg = database && backends ? await backendCpuMsSince(database, backends) : null;
  const n = r.requests.total;
  const mb = (field: "VmRSS" | "VmHWM") => processMemoryMb(pid, field);
  // Backends report their counts within a second of a transaction's end.
  if (database) await new Promise((r) => setTimeout(r, 1100));
  const txns = database ? (await commits(database)) - commitsBefore : 0;
  const pgPart =
    pg === null ? "" : `, PostgreSQL ${(pg / n).toFixed(3)} ms (${(txns / n).toFixed(2)} commits a request)`;
  const loader = `, load generator ${((user + system) / 1000 / n).toFixed(3)} ms`;
  log(
    `  ${name}: ${(used / n).toFixed(3)} CPU ms per request${pgPart}${loader} (${Math.round(used)} ms / ≈${Math.round(n)} requests); RSS ${mb("VmRSS")} MB, peak ${mb("VmHWM")} MB`,
  );
}

/** Transactions committed in `database` so far (pg_stat_database). */
async function commits(database: Database): Promise<number> {
  const r = await database.db.execute(
    sql`select xact_commit::text as n from pg_stat_database where datname = current_database()`,
  );
  return Number((r as unknown as { rows: Array<{ n: string }> }).rows[0]!.n);
}

/**
 * The bench's bet event, created once in a kept data set, and its players' credits as the data set made them: each
 * run's bets (1 credit of a player's 1,000 each) are taken back, with their stakes, so runs do not drain them.
 */
async function ensureBetEvent(database: Database): Promise<void> {
  const found = await database.db.execute(sql`select 1 from events where id = ${BET_EVENT}`);
  if ((found as unknown as { rows: unknown[] }).rows.length === 0) await buildBetEvent(database);
  await database.db.execute(sql`with bets as (delete from predictions where event_id = ${BET_EVENT} returning id),
      stakes as (delete from credits_ledger where external_id in (select 'stake:' || id from bets)
                 returning user_id, amount)
    update users u set credits_balance = u.credits_balance - s.amount
    from (select user_id, sum(amount) as amount from stakes group by user_id) s where u.id = s.user_id`);
}

/** Stops the service's heap sampling and prints where the measured requests allocated (`--heap-profile`). */
async function writeHeapProfile(dir: string, pid: number, name: string): Promise<void> {
  const written = join(dir, `heap-${pid}.heapprofile`);
  rmSync(written, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 100 && !existsSync(written); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(written)) throw new Error(`the service wrote no heap profile (${written})`);
  const file = join(dir, `${name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}.heapprofile`);
  renameSync(written, file);
  const { head } = JSON.parse(readFileSync(file, "utf8")) as { head: HeapProfileNode };
  log(`  ${name}: allocated by (${file})`);
  for (const line of formatSites(head, 12)) log(`  ${line}`);
}

async function main() {
  const data = (await dataset()) as Awaited<ReturnType<typeof dataset>> & { secrets: Record<string, string> };
  log(`overrides: ${JSON.stringify(overrides)}`);
  const ladder = {
    method: "GET",
    path: "/",
    headers: readHeaders,
    setupRequest: (req: object) => ({
      ...req,
      path: `/api/competition/leaderboard?week=${W}&offset=${Math.floor(rnd() * (players - 49))}&limit=50`,
    }),
  };
  let next = 0;
  const me = {
    method: "GET",
    path: `/api/competition/me?week=${W}`,
    setupRequest: (req: { headers?: object }) => ({
      ...req,
      headers: { ...req.headers, ...readHeaders, cookie: data.cookies[next++ % data.cookies.length] },
    }),
  };
  const { base, server } = await start(data.url, data.dir, data.secrets);
  servicePid = server.pid;
  // On PostgreSQL, a connection to the service's database: backendTicks finds the backends serving it.
  const watch = data.url ? await openDatabase({ databaseUrl: data.url, dataDir: null }) : undefined;
  try {
    // Single rows of SP through the admin API, as the bench's phase (d): random existing players.
    const headers = { authorization: `Bearer ${data.secrets.admin}`, "content-type": "application/json" };
    let seq = 0;
    const row = {
      method: "POST",
      path: "/api/admin/sp-transactions",
      headers,
      setupRequest: (req: object) => {
        seq++;
        const body = {
          userId: String(1 + Math.floor(rnd() * players)),
          type: "PREDICTION",
          amount: 10 * (1 + (seq % 7)),
          eventId: `bench-${W}-${1 + (seq % 21)}`,
          externalId: `probe:${process.pid}:${Date.now()}:${seq}`,
        };
        return { ...req, body: JSON.stringify(body) };
      },
    };
    if (args.route === "ingest") {
      await measure("ingest, one row per request", base, server.pid!, row, watch, writers ?? 32);
    } else if (args.route === "batch" || args.route === "wallets") {
      // Batches of 1,000 rows on 4 connections, as the bench's phase (d): random existing players, or a new wallet
      // a row. CPU figures are per batch.
      const batch = {
        method: "POST",
        path: "/api/admin/sp-transactions/batch",
        headers,
        setupRequest: (req: object) => {
          const rows = Array.from({ length: 1000 }, () => {
            seq++;
            const who =
              args.route === "batch"
                ? { userId: String(1 + Math.floor(rnd() * players)) }
                : {
                    wallet: `0x${(0xbe0d0000000 + process.pid * 1_000_000 + seq).toString(16).padStart(40, "0")}`,
                  };
            return {
              ...who,
              type: "PREDICTION",
              amount: 10 * (1 + (seq % 7)),
              eventId: `bench-${W}-${1 + (seq % 21)}`,
              externalId: `probe:${process.pid}:${Date.now()}:${seq}`,
            };
          });
          return { ...req, body: JSON.stringify({ rows }) };
        },
      };
      await measure(`batches of 1,000 (${args.route})`, base, server.pid!, batch, watch, 4);
    } else if (args.route === "mixed") {
      // The bench's phase (g): ladder pages, then `/me`, under MIXED_INGEST_RPS rows/s of single-row ingest on
      // MIXED_INGEST_CONNECTIONS connections (the CPU per request then includes the writes' share).
      const writes = load(
        "mixed: ingest",
        { url: base, overallRate: MIXED_INGEST_RPS, requests: [row as never] },
        { seconds: 2 * (seconds + 1) + 1, warmupSec: 0, connections: MIXED_INGEST_CONNECTIONS },
      );
      await measure("mixed: ladder", base, server.pid!, ladder, watch);
      await measure("mixed: /me", base, server.pid!, me, watch);
      await writes;
    } else if (args.route === "bets") {
      // Bets of 1 credit on one event by 200 players (their sessions), 50 connections, as the bench's phase (i).
      if (watch) await ensureBetEvent(watch);
      else
        throw new Error("--route bets needs --engine postgres (the embedded database is the service's own)");
      let seq = 0;
      const bet = {
        method: "POST",
        path: "/api/pred2earn/bet-placed",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ eventId: BET_EVENT, market: "1x2", outcome: "home", stake: 1 }),
        setupRequest: (req: { headers?: object }) => ({
          ...req,
          headers: { ...req.headers, cookie: data.cookies[seq++ % 200] },
        }),
      };
      await measure("bets on one event", base, server.pid!, bet, watch, 50);
    } else if (args.route === "fixed") {
      // One page over and over: the page is built once per cache sync (the read model's memo), so what is
      // measured is the HTTP stack's own cost per request (hooks, serialization, ETag, the socket write).
      const path = `/api/competition/leaderboard?week=${W}&offset=777&limit=50`;
      const fixed = { method: "GET", path, headers: readHeaders };
      await measure("one fixed ladder page", base, server.pid!, fixed, watch);
      const meta = { method: "GET", path: "/api/competition/meta", headers: readHeaders };
      await measure("/api/competition/meta", base, server.pid!, meta, watch);
    } else {
      if (args.route !== "me") await measure("ladder", base, server.pid!, ladder, watch);
      if (args.route !== "ladder") await measure("/me", base, server.pid!, me, watch);
    }
    if (args.bare) {
      const l = Buffer.from(
        await (
          await fetch(`${base}/api/competition/leaderboard?week=${W}&offset=777&limit=50`, {
            headers: { "x-forwarded-for": "10.9.9.9" },
          })
        ).arrayBuffer(),
      );
      const m = Buffer.from(
        await (
          await fetch(`${base}/api/competition/me?week=${W}`, {
            headers: { cookie: data.cookies[0]!, "x-forwarded-for": "10.9.9.9" },
          })
        ).arrayBuffer(),
      );
      const bare = await startBare({ ladder: l, me: m });
      try {
        await measure("bare ladder", bare.base, bare.server.pid!, ladder);
        await measure("bare /me", bare.base, bare.server.pid!, me);
      } finally {
        await stopServer(bare.server);
      }
    }
  } finally {
    await watch?.close();
    await stopServer(server);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
