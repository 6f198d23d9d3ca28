/**
 * `npm run bench [-- --quick] [-- --players N] [-- --settle N] [-- --engine pglite|postgres] [-- --profile]`:
 * builds the data set on the embedded database and, when DATABASE_URL is set, on PostgreSQL; starts the real
 * service on each as an operator runs it (bench/service.ts: production rate limits, clients spread over 20,000
 * addresses through the trusted proxy's x-forwarded-for) and measures, each load after a warm-up:
 * (a) the ceiling — a bare Fastify process (bench/bare-server.ts) answering the ladder and `/me` paths with the
 * exact bytes the service answered for one real page and one real `/me`; (b) ladder pages at random offsets over
 * the whole ladder; (c) `/me` of many players (pre-created sessions); (d) SP ingest, one row per request and in
 * batches of 1,000 (existing players and new wallets), against COPY-speed bulk inserts of the same rows; (e) settle
 * of an event with many predictions; (i) bets on one event by 200 players; (g) ladder and `/me` while 500 rows/s
 * of ingest run; (h) finalize of the big week; (f) the peak RSS. Any non-2xx answer fails the run. Exactness is
 * checked against the bench's own SQL and ranking (bench/reference.ts), live and after a restart. Prints a
 * table, then one `BENCH {json}` line per engine; exit 1 on any failure. docs/performance.md describes it.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase } from "../src/db/client.js";
import { mulberry32 } from "../src/shared/prng.js";
import { createScratchPostgres } from "../test/db.js";
import { migratedDataDir } from "../test/db-template.js";
import { type CopyRow, copyRates } from "./copy.js";
import { processMemoryMb } from "./cpu.js";
import {
  BENCH_SEASON,
  BENCH_SQL_TIMEOUT_MS,
  BET_EVENT,
  betOutcome,
  buildBetEvent,
  buildDataset,
  buildSettleEvent,
  ledgerWeekSp,
  SETTLE_EVENT,
  settleAwards,
} from "./dataset.js";
import { flamegraph } from "./flamegraph.js";
import { type AcRequest, failures, type LoadResult, load } from "./load.js";
import { benchWeekBounds, checkService, compareMaps, sortLadder } from "./reference.js";
import {
  ADMIN_HEADERS,
  displayStoreLoaded,
  FINALIZE_HEADERS,
  fetchJson,
  MIXED_INGEST_CONNECTIONS,
  MIXED_INGEST_RPS,
  readMetrics,
  sessionCookies,
  startBare,
  startServer,
  stopServer,
} from "./service.js";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    players: { type: "string" },
    settle: { type: "string" },
    engine: { type: "string" },
    profile: { type: "boolean", default: false },
  },
});
const quick = args.quick ?? false;
const players = args.players ? Number(args.players) : quick ? 100_000 : 1_000_000;
/** Open predictions on the settled event (100,000 in the full run). */
const settleCount = args.settle ? Number(args.settle) : quick ? 20_000 : 100_000;
const BATCH_ROWS = 1000;
const BET_PLAYERS = 200;
const timing = { seconds: quick ? 3 : 10, warmupSec: quick ? 1 : 3 };
/** Players with a session: `/me` is asked for each in turn (the first CHECKED are checked for exactness). */
const SESSIONS = quick ? 5_000 : 20_000;
const CHECKED = 1000;
const W = BENCH_SEASON.liveWeek;
const { start: weekStart, end: weekEnd } = benchWeekBounds(W);
const profileRoot = args.profile ? join(process.cwd(), "bench-profiles") : null;

const log = (s: string) => process.stderr.write(`${s}\n`);

/** The figures of one engine; ratios are service ÷ bare (throughput) and service ÷ bare (p99). */
interface EngineResult {
  engine: "pglite" | "postgres";
  players: number;
  bareLadderRps: number;
  bareLadderP99Ms: number;
  bareMeRps: number;
  bareMeP99Ms: number;
  ladderRps: number;
  ladderP99Ms: number;
  meRps: number;
  meP99Ms: number;
  ladderRatio: number;
  ladderP99Ratio: number;
  meRatio: number;
  meP99Ratio: number;
  ladderBytes: number;
  meBytes: number;
  ingestRowsPerSec: number;
  ingestBatchRowsPerSec: number;
  ingestNewWalletRowsPerSec: number;
  copyRowsPerSec: number;
  copyNewWalletRowsPerSec: number;
  batchVsCopy: number;
  newWalletVsCopy: number;
  settleSec: number;
  betsPerSec: number;
  betP99Ms: number;
  mixedLadderRps: number;
  mixedLadderP99Ms: number;
  mixedLadderRatio: number;
  mixedMeRps: number;
  mixedMeP99Ms: number;
  mixedMeRatio: number;
  mixedIngestRowsPerSec: number;
  /** The mixed phase's first ladder read, timed before its loads: it applies the write phases' rank changes. */
  mixedCatchUpSec: number;
  finalizeSec: number;
  peakRssMb: number;
  /** The service's memory when each phase ends, by the phase that follows (noteMemory). */
  memoryMb?: Record<string, { rss: number; peak: number; heapUsed: number; external: number }>;
  ranksExactLive: boolean;
  ranksExact: boolean;
  failures: number;
  buildSec: number;
  cacheLoadSec: number;
  /** From the first ladder read until the display store (loaded in the background) holds the users. */
  displayLoadSec: number;
}

/** A row the bench writes: always a competitive PREDICTION row on an event of the live week. */
interface BenchRow {
  userId?: string;
  wallet?: string;
  type: "PREDICTION";
  amount: number;
  eventId: string;
  externalId: string;
}

/** One engine's run: the service, the bench's reference, and the figures gathered so far. */
interface Run {
  engine: "pglite" | "postgres";
  databaseUrl: string | null;
  dataDir: string | null;
  base: string;
  server: ChildProcess;
  /** Every player's SP of the live week: the ledger's at the start plus every row the bench wrote since. */
  tracked: Map<string, number>;
  /** Session cookies by player, in the order `/me` asks them; the first CHECKED are checked. */
  cookies: Array<[number, string]>;
  rnd: () => number;
  /** Answers of write requests that were not what the bench sent. */
  wrongAnswers: number;
  betsAccepted: number;
  /** Rows the batch loads sent (existing players; new wallets), for the COPY comparison. */
  batchRows: CopyRow[];
  walletRows: CopyRow[];
  result: Partial<EngineResult>;
}

const round = (n: number) => Math.round(n);
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
const profileDir = (run: Run, phase: string) => {
  if (!profileRoot) return undefined;
  const dir = join(profileRoot, run.engine, phase);
  mkdirSync(dir, { recursive: true });
  return dir;
};

async function runEngine(engine: "pglite" | "postgres"): Promise<EngineResult> {
  log(
    `\n== ${engine}: ${players.toLocaleString("en")} players, ${settleCount.toLocaleString("en")} to settle ==`,
  );
  // On the test suite's migrated template when it has been built (CI runs the tests first): the data set is
  // built in bulk SQL either way; migrating an empty database took 5 s of PGlite's build.
  const scratch = engine === "postgres" ? await createScratchPostgres({ fromTemplate: true }) : null;
  const dataDir = engine === "pglite" ? migratedDataDir("bench-pglite-") : null;
  const failedBefore = failures.length;
  const run = await prepare(engine, scratch?.url ?? null, dataDir);
  try {
    await startService(run, "reads");
    await noteMemory(run, "reads");
    await measureReads(run);
    await nextPhase(run, "ingest");
    await measureIngest(run);
    await nextPhase(run, "settle");
    await measureSettle(run);
    await nextPhase(run, "bets");
    await measureBets(run);
    await nextPhase(run, "mixed");
    await measureMixed(run);
    await checkLive(run);
    await restartAndCheck(run);
    await finalizeAndCheck(run);
    run.result.failures = failures.length - failedBefore;
    return run.result as EngineResult;
  } finally {
    await stopServer(run.server);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (scratch) await scratch.drop();
  }
}

/** Builds the data set and the sessions, and takes the reference's starting point from the ledger. */
async function prepare(
  engine: Run["engine"],
  databaseUrl: string | null,
  dataDir: string | null,
): Promise<Run> {
  const t = Date.now();
  const database = await openDatabase({ databaseUrl, dataDir, statementTimeoutMs: BENCH_SQL_TIMEOUT_MS });
  await buildDataset(database, players, log);
  await buildSettleEvent(database, settleCount, players);
  await buildBetEvent(database);
  const tracked = await ledgerWeekSp(database, weekStart, weekEnd);
  // Sessions: everyone at or near the Qualification cutoff line (ties included) first, then random players.
  const rnd = mulberry32(2026);
  const ids = new Set<number>();
  for (const e of sortLadder(tracked).slice(0, 40)) ids.add(Number(e.userId));
  while (ids.size < Math.min(SESSIONS, players)) ids.add(1 + Math.floor(rnd() * players));
  const cookies = [...(await sessionCookies(database, ids))];
  await database.close();
  const buildSec = Number(((Date.now() - t) / 1000).toFixed(1));
  log(`  data set and ${cookies.length} sessions: ${buildSec} s`);
  return {
    engine,
    databaseUrl,
    dataDir,
    base: "",
    server: null as unknown as ChildProcess,
    tracked,
    cookies,
    rnd,
    wrongAnswers: 0,
    betsAccepted: 0,
    batchRows: [],
    walletRows: [],
    result: { engine, players, buildSec },
  };
}

/** Starts the service at the bench's `now`, finalizes the ten earlier weeks, loads the rank cache. */
async function startService(run: Run, phase: string): Promise<void> {
  ({ base: run.base, server: run.server } = await startServer(
    run.databaseUrl,
    run.dataDir,
    profileDir(run, phase),
  ));
  await setClock(run.base, BENCH_SEASON.now);
  // As in production, only the live week is unfinalized.
  for (let w = 0; w < W; w++)
    await fetchJson(`${run.base}/api/competition/finalize?week=${w}`, {
      method: "POST",
      headers: FINALIZE_HEADERS,
    });
  const t = Date.now();
  await fetchJson(`${run.base}/api/competition/leaderboard?week=${W}&limit=50`);
  run.result.cacheLoadSec = Number(((Date.now() - t) / 1000).toFixed(2));
  log(`  first ladder read (loads the rank cache): ${run.result.cacheLoadSec} s`);
  // The display store loads in the background from that read on; the phases measure the service once it is warm.
  await displayStoreLoaded(run.base);
  run.result.displayLoadSec = Number(((Date.now() - t) / 1000).toFixed(2));
  log(
    `  display store loaded (app_display_store_users > 0): ${run.result.displayLoadSec} s after that read began`,
  );
}

/**
 * With --profile, each phase gets its own service process, so that its CPU profile (written when it stops) holds
 * that phase only; the peak RSS is the largest of them.
 */
async function nextPhase(run: Run, phase: string): Promise<void> {
  await noteMemory(run, phase);
  if (!profileRoot) return;
  run.result.peakRssMb = Math.max(run.result.peakRssMb ?? 0, peakRss(run.server));
  await stopServer(run.server);
  await startService(run, phase);
}

/** A ladder page at a random offset over the whole ladder, 50 rows. */
function ladderRequest(run: Run) {
  const total = run.tracked.size;
  return {
    method: "GET",
    path: `/api/competition/leaderboard?week=${W}&offset=0&limit=50`,
    setupRequest: (req: AcRequest) => ({
      ...req,
      path: `/api/competition/leaderboard?week=${W}&offset=${Math.floor(run.rnd() * (total - 49))}&limit=50`,
    }),
  };
}

/** `/me` of the next player with a session, round-robin over all of them. */
function meRequest(run: Run) {
  let next = 0;
  return {
    method: "GET",
    path: `/api/competition/me?week=${W}`,
    setupRequest: (req: AcRequest) => ({
      ...req,
      headers: { ...req.headers, cookie: run.cookies[next++ % run.cookies.length]![1] },
    }),
  };
}

/**
 * (a)–(c): fetches one real ladder page (random offset) and one real `/me` from the service, measures the bare
 * server answering those bytes, stops it, then measures the service on random offsets and many players.
 */
async function measureReads(run: Run): Promise<void> {
  const offset = Math.floor(run.rnd() * (run.tracked.size - 49));
  const ladderRes = await fetch(
    `${run.base}/api/competition/leaderboard?week=${W}&offset=${offset}&limit=50`,
    {
      headers: { "x-forwarded-for": "10.1.0.1" },
    },
  );
  const meRes = await fetch(`${run.base}/api/competition/me?week=${W}`, {
    headers: { cookie: run.cookies[CHECKED]![1], "x-forwarded-for": "10.1.0.1" },
  });
  if (!ladderRes.ok || !meRes.ok) throw new Error(`real answers: ${ladderRes.status}, ${meRes.status}`);
  const bodies = {
    ladder: Buffer.from(await ladderRes.arrayBuffer()),
    me: Buffer.from(await meRes.arrayBuffer()),
  };
  run.result.ladderBytes = bodies.ladder.length;
  run.result.meBytes = bodies.me.length;
  log(`  real answers: ladder page ${bodies.ladder.length} bytes, /me ${bodies.me.length} bytes`);

  const bare = await startBare(bodies, profileDir(run, "bare"));
  let bareLadder: LoadResult;
  let bareMe: LoadResult;
  try {
    bareLadder = await load("bare ladder", { url: bare.base, requests: [ladderRequest(run)] }, timing);
    bareMe = await load("bare /me", { url: bare.base, requests: [meRequest(run)] }, timing);
  } finally {
    await stopServer(bare.server);
  }
  const ladder = await load(
    "ladder (random offsets)",
    { url: run.base, requests: [ladderRequest(run)] },
    timing,
  );
  const me = await load("/me (many players)", { url: run.base, requests: [meRequest(run)] }, timing);
  Object.assign(run.result, {
    bareLadderRps: round(bareLadder.requests.average),
    bareLadderP99Ms: bareLadder.latency.p99,
    bareMeRps: round(bareMe.requests.average),
    bareMeP99Ms: bareMe.latency.p99,
    ladderRps: round(ladder.requests.average),
    ladderP99Ms: ladder.latency.p99,
    meRps: round(me.requests.average),
    meP99Ms: me.latency.p99,
    ladderRatio: ratio(ladder.requests.average, bareLadder.requests.average),
    ladderP99Ratio: ratio(ladder.latency.p99, bareLadder.latency.p99),
    meRatio: ratio(me.requests.average, bareMe.requests.average),
    meP99Ratio: ratio(me.latency.p99, bareMe.latency.p99),
  });
}

/**
 * The bench's writes and their answers: every row has a unique external id, so every 2xx must have created it;
 * the rows the bench sent (not what the service answers) join the reference.
 */
let seq = 0;
function writer(run: Run) {
  const pending = new Map<string, BenchRow>();
  /** Rows sent again by `flush`: their first request's answer may still arrive, late, and is ignored. */
  const flushed = new Set<string>();
  const addRow = (r: { userId: string; amount: number }) =>
    run.tracked.set(r.userId, (run.tracked.get(r.userId) ?? 0) + r.amount);
  return {
    addRow,
    newRow(userId: number | null): BenchRow {
      seq++;
      const row: BenchRow = {
        ...(userId === null
          ? { wallet: `0x${(0xbe0c0000000 + seq).toString(16).padStart(40, "0")}` }
          : { userId: String(userId) }),
        type: "PREDICTION",
        amount: 10 * (1 + (seq % 7)),
        eventId: `bench-${W}-${1 + (seq % 21)}`,
        externalId: `ingest:${run.engine}:${process.pid}:${seq}`,
      };
      pending.set(row.externalId, row);
      return row;
    },
    /** The answer for a row: created, for the user the bench named (a new wallet's user is the service's). */
    answered(externalId: string, created: boolean, userId: string) {
      if (flushed.has(externalId)) return;
      const row = pending.get(externalId);
      pending.delete(externalId);
      if (!row || !created || (row.userId !== undefined && row.userId !== userId)) run.wrongAnswers++;
      else addRow({ userId, amount: row.amount });
    },
    /** Rows in flight when a load ended may or may not be written: sent again (idempotent), then tracked. */
    async flush() {
      const rows = [...pending.values()];
      for (const r of rows) flushed.add(r.externalId);
      pending.clear();
      for (let i = 0; i < rows.length; i += BATCH_ROWS) {
        const chunk = rows.slice(i, i + BATCH_ROWS);
        const res = await fetchJson(`${run.base}/api/admin/sp-transactions/batch`, {
          method: "POST",
          headers: ADMIN_HEADERS,
          body: JSON.stringify({ rows: chunk }),
        });
        res.data.results.forEach((r: { row: { userId: string; amount: number } }, j: number) => {
          const sent = chunk[j]!;
          if ((sent.userId !== undefined && r.row.userId !== sent.userId) || r.row.amount !== sent.amount)
            run.wrongAnswers++;
          addRow({ userId: r.row.userId, amount: sent.amount });
        });
      }
      if (rows.length > 0) log(`  ${rows.length} rows in flight at the end of the phase, sent again`);
    },
  };
}

function singleRowRequest(w: ReturnType<typeof writer>, pick: () => number) {
  return {
    method: "POST",
    path: "/api/admin/sp-transactions",
    headers: ADMIN_HEADERS,
    setupRequest: (req: AcRequest) => ({ ...req, body: JSON.stringify(w.newRow(pick())) }),
    onResponse: (status: number, body: string) => {
      if (status >= 300) return;
      const { data } = JSON.parse(body);
      w.answered(data.externalId, status === 201, data.userId);
    },
  };
}

/** (d) Ingest through the admin API: one row per request (32 connections), then batches of 1,000 (4). */
async function measureIngest(run: Run): Promise<void> {
  const w = writer(run);
  const randomPlayer = () => 1 + Math.floor(run.rnd() * players);
  const single = await load(
    "ingest, one row per request",
    { url: run.base, requests: [singleRowRequest(w, randomPlayer)] },
    { ...timing, connections: 32 },
  );
  await w.flush();
  const batch = await load("ingest, batches of 1,000", batchLoad(run, w, randomPlayer, run.batchRows), {
    ...timing,
    connections: 4,
  });
  await w.flush();
  const wallets = await load(
    "ingest, batches of 1,000 new wallets",
    batchLoad(run, w, () => null, run.walletRows),
    {
      ...timing,
      connections: 4,
    },
  );
  await w.flush();
  run.result.ingestRowsPerSec = round(single["2xx"] / single.duration);
  run.result.ingestBatchRowsPerSec = round((batch["2xx"] * BATCH_ROWS) / batch.duration);
  run.result.ingestNewWalletRowsPerSec = round((wallets["2xx"] * BATCH_ROWS) / wallets.duration);
}

/** Batches of 1,000 rows for `pick`'s players (null: a new wallet each), kept in `sent` for the COPY. */
function batchLoad(run: Run, w: ReturnType<typeof writer>, pick: () => number | null, sent: CopyRow[]) {
  return {
    url: run.base,
    requests: [
      {
        method: "POST",
        path: "/api/admin/sp-transactions/batch",
        headers: ADMIN_HEADERS,
        setupRequest: (req: AcRequest) => {
          const rows = Array.from({ length: BATCH_ROWS }, () => w.newRow(pick()));
          if (sent.length < 50_000) sent.push(...rows);
          return { ...req, body: JSON.stringify({ rows }) };
        },
        onResponse: (status: number, body: string) => {
          if (status !== 200) return;
          for (const r of JSON.parse(body).data.results)
            w.answered(r.row.externalId, r.created, r.row.userId);
        },
      },
    ],
  };
}

/** (e) Settles the event with `settleCount` open predictions (half of them won). */
async function measureSettle(run: Run): Promise<void> {
  const t = Date.now();
  const settled = await fetchJson(`${run.base}/api/admin/events/${SETTLE_EVENT}/result`, {
    method: "POST",
    headers: ADMIN_HEADERS,
    body: JSON.stringify({ status: "finished", winningOutcome: "home" }),
  });
  run.result.settleSec = Number(((Date.now() - t) / 1000).toFixed(2));
  if (settled.data.settled !== settleCount) run.wrongAnswers++;
  const w = writer(run);
  for (const [userId, amount] of settleAwards(settleCount, players)) w.addRow({ userId, amount });
  log(`  settle ${settled.data.settled} predictions: ${run.result.settleSec} s`);
}

/** (i) Bets of 1 credit on one event by BET_PLAYERS players (their sessions), 50 connections. */
async function measureBets(run: Run): Promise<void> {
  const bettors = run.cookies.slice(0, BET_PLAYERS);
  let next = 0;
  let refusals = 0;
  const body = JSON.stringify({ eventId: BET_EVENT, market: "1x2", outcome: "home", stake: 1 });
  const bets = await load(
    `bets on one event, ${BET_PLAYERS} players`,
    {
      url: run.base,
      requests: [
        {
          method: "POST",
          path: "/api/pred2earn/bet-placed",
          headers: { "content-type": "application/json" },
          body,
          setupRequest: (req: AcRequest) => ({
            ...req,
            headers: { ...req.headers, cookie: bettors[next++ % bettors.length]![1] },
          }),
          onResponse: (status: number, answer: string) => {
            if (status === 201) run.betsAccepted++;
            else if (refusals++ < 3) log(`  bet answered ${status}: ${answer.slice(0, 200)}`);
          },
        },
      ],
    },
    timing,
  );
  run.result.betsPerSec = round(bets["2xx"] / bets.duration);
  run.result.betP99Ms = bets.latency.p99;
}

/**
 * (g) Ladder pages, then `/me`, while a steady MIXED_INGEST_RPS of single-row ingest runs; the first rows go to
 * the checked players (every one of them receives at least one), the rest to random players.
 */
async function measureMixed(run: Run): Promise<void> {
  // No ladder or `/me` was read since the reads phase, so the first read syncs the rank cache with every change
  // the write phases made (tens of thousands of rows, and the new players' display data). That one catch-up is
  // timed on its own (PGlite: 1.4 s in a quick run), rather than stalling the loads' first second: the phase
  // measures reads under a steady write load.
  const t = Date.now();
  await fetchJson(`${run.base}/api/competition/leaderboard?week=${W}&limit=50`);
  run.result.mixedCatchUpSec = Number(((Date.now() - t) / 1000).toFixed(2));
  log(`  first ladder read after the write phases (applies their changes): ${run.result.mixedCatchUpSec} s`);
  const w = writer(run);
  const checked = run.cookies.slice(0, CHECKED).map(([id]) => id);
  let mixedSeq = 0;
  const pick = () => {
    const i = mixedSeq++;
    return i < checked.length ? checked[i]! : 1 + Math.floor(run.rnd() * players);
  };
  const ingestDone = load(
    "mixed: ingest",
    {
      url: run.base,
      overallRate: MIXED_INGEST_RPS,
      duration: 2 * timing.seconds + 2 * timing.warmupSec + 1,
      requests: [singleRowRequest(w, pick)],
    },
    // Enough connections to keep the rate while reads saturate the service: with 16, each waiting out a slow
    // answer, the writer fell to 331–394 rows/s on a slow machine (docs/performance.md, session 18).
    { ...timing, warmupSec: 0, connections: MIXED_INGEST_CONNECTIONS },
  );
  const ladder = await load("mixed: ladder", { url: run.base, requests: [ladderRequest(run)] }, timing);
  const me = await load("mixed: /me", { url: run.base, requests: [meRequest(run)] }, timing);
  const ingest = await ingestDone;
  await w.flush();
  if (mixedSeq < checked.length)
    log(`  warning: only ${mixedSeq} mixed rows, fewer than the checked players`);
  const ingestRate = ingest["2xx"] / ingest.duration;
  if (ingestRate < 0.95 * MIXED_INGEST_RPS)
    log(
      `  warning: the mixed reads ran under ${round(ingestRate)} rows/s of ingest, not ${MIXED_INGEST_RPS}`,
    );
  Object.assign(run.result, {
    mixedLadderRps: round(ladder.requests.average),
    mixedLadderP99Ms: ladder.latency.p99,
    mixedLadderRatio: ratio(ladder.requests.average, run.result.bareLadderRps!),
    mixedMeRps: round(me.requests.average),
    mixedMeP99Ms: me.latency.p99,
    mixedMeRatio: ratio(me.requests.average, run.result.bareMeRps!),
    mixedIngestRowsPerSec: round(ingestRate),
  });
}

/** Exactness while running: on PostgreSQL the ledger itself against the tracked reference; the service's pages. */
async function checkLive(run: Run): Promise<void> {
  let mismatches = run.wrongAnswers;
  if (run.wrongAnswers > 0) log(`  ${run.wrongAnswers} write answers were not what the bench sent`);
  if (run.databaseUrl) {
    const live = await openDatabase({
      databaseUrl: run.databaseUrl,
      dataDir: null,
      poolSize: 1,
      statementTimeoutMs: BENCH_SQL_TIMEOUT_MS,
    });
    mismatches += compareMaps(
      "ledger (live) vs tracked",
      await ledgerWeekSp(live, weekStart, weekEnd),
      run.tracked,
    );
    await live.close();
  }
  mismatches += await checkService(run.base, run.tracked, run.cookies.slice(0, CHECKED), "live");
  run.result.ranksExactLive = mismatches === 0;
}

/**
 * Stops the service, re-derives the reference from the ledger (it must equal the tracked one) and checks the bets
 * in SQL, restarts the service and checks it against the re-derived reference.
 */
async function restartAndCheck(run: Run): Promise<void> {
  await noteMemory(run, "restart");
  run.result.peakRssMb = Math.max(run.result.peakRssMb ?? 0, peakRss(run.server));
  await stopServer(run.server);
  const db = await openDatabase({
    databaseUrl: run.databaseUrl,
    dataDir: run.dataDir,
    poolSize: 1,
    statementTimeoutMs: BENCH_SQL_TIMEOUT_MS,
  });
  const reference = await ledgerWeekSp(db, weekStart, weekEnd);
  const bets = await betOutcome(db, players);
  const copied = await copyRates(db, run.databaseUrl, run.batchRows, run.walletRows);
  await db.close();
  Object.assign(run.result, {
    copyRowsPerSec: copied.existingRowsPerSec,
    copyNewWalletRowsPerSec: copied.newWalletRowsPerSec,
    batchVsCopy: ratio(run.result.ingestBatchRowsPerSec!, copied.existingRowsPerSec),
    newWalletVsCopy: ratio(run.result.ingestNewWalletRowsPerSec!, copied.newWalletRowsPerSec),
  });
  log(
    `  COPY of the same rows: ${copied.existingRowsPerSec} rows/s existing, ${copied.newWalletRowsPerSec} new wallets`,
  );
  let bad = compareMaps("ledger vs tracked", reference, run.tracked);
  // Bets answered 201 are stored; a bet in flight when the warm-up or the load stopped may be stored unanswered
  // (≤ 2 × 50 connections).
  if (
    bets.bets < run.betsAccepted ||
    bets.bets > run.betsAccepted + 100 ||
    bets.unstaked + bets.wrongBalances > 0
  ) {
    log(`  bets: ${JSON.stringify(bets)} stored, ${run.betsAccepted} accepted`);
    bad++;
  }
  run.tracked = reference;
  ({ base: run.base, server: run.server } = await startServer(
    run.databaseUrl,
    run.dataDir,
    profileDir(run, "restart"),
  ));
  await setClock(run.base, BENCH_SEASON.now);
  bad += await checkService(run.base, reference, run.cookies.slice(0, CHECKED), "after restart");
  run.result.ranksExact = bad === 0;
}

/** (h) Finalizes the big week once it has ended; its snapshot must hold the same ranks. */
async function finalizeAndCheck(run: Run): Promise<void> {
  await setClock(run.base, BENCH_SEASON.afterLiveWeek);
  const t = Date.now();
  const finalized = await fetchJson(`${run.base}/api/competition/finalize?week=${W}`, {
    method: "POST",
    headers: FINALIZE_HEADERS,
  });
  run.result.finalizeSec = Number(((Date.now() - t) / 1000).toFixed(2));
  log(
    `  finalize week ${W}: ${finalized.data.qualification.participants} participants, ${run.result.finalizeSec} s`,
  );
  let bad = finalized.data.qualification.participants !== sortLadder(run.tracked).length ? 1 : 0;
  bad += await checkService(run.base, run.tracked, [], "finalized snapshot");
  run.result.ranksExact = run.result.ranksExact! && bad === 0;
  await noteMemory(run, "end");
  run.result.peakRssMb = Math.max(run.result.peakRssMb!, peakRss(run.server));
}

async function setClock(base: string, now: string): Promise<void> {
  await fetchJson(`${base}/api/admin/clock`, {
    method: "PUT",
    headers: ADMIN_HEADERS,
    body: JSON.stringify({ now }),
  });
}

/**
 * The service's memory when a phase ends, logged and kept in the result (`memoryMb`, by the phase that follows):
 * resident now and at its peak so far (/proc), the V8 heap in use and the memory outside it (buffers, PGlite's
 * WebAssembly memory) from GET /metrics. Shows which phase a peak above the target comes from.
 */
async function noteMemory(run: Run, before: string): Promise<void> {
  const metric = await readMetrics(run.base);
  const mb = (name: string) => Math.round(metric(name) / 2 ** 20);
  const note = {
    rss: processMemoryMb(run.server.pid, "VmRSS") ?? 0,
    peak: processMemoryMb(run.server.pid, "VmHWM") ?? 0,
    heapUsed: mb("nodejs_heap_size_used_bytes"),
    external: mb("nodejs_external_memory_bytes"),
  };
  run.result.memoryMb = { ...run.result.memoryMb, [before]: note };
  log(
    `  memory before ${before}: RSS ${note.rss} MB (peak ${note.peak}), heap ${note.heapUsed} MB, external ${note.external} MB`,
  );
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRss(p: ChildProcess): number {
  return processMemoryMb(p.pid, "VmHWM") ?? 0;
}

function table(results: EngineResult[]): string {
  const x = (r: number) => `${r}×`;
  const rows: Array<[string, (r: EngineResult) => string]> = [
    ["players", (r) => r.players.toLocaleString("en")],
    ["data set build (s)", (r) => String(r.buildSec)],
    ["rank cache load (s)", (r) => String(r.cacheLoadSec)],
    ["display store loaded after (s)", (r) => String(r.displayLoadSec)],
    ["real answers: ladder page / me bytes", (r) => `${r.ladderBytes} / ${r.meBytes}`],
    ["(a) bare ladder req/s, p99 ms", (r) => `${r.bareLadderRps}, ${r.bareLadderP99Ms}`],
    ["(a) bare /me req/s, p99 ms", (r) => `${r.bareMeRps}, ${r.bareMeP99Ms}`],
    ["(b) ladder req/s (÷ bare)", (r) => `${r.ladderRps} (${r.ladderRatio})`],
    ["(b) ladder p99 ms (÷ bare)", (r) => `${r.ladderP99Ms} (${x(r.ladderP99Ratio)})`],
    ["(c) /me req/s (÷ bare)", (r) => `${r.meRps} (${r.meRatio})`],
    ["(c) /me p99 ms (÷ bare)", (r) => `${r.meP99Ms} (${x(r.meP99Ratio)})`],
    ["(d) ingest rows/s, one per request", (r) => String(r.ingestRowsPerSec)],
    ["(d) ingest rows/s, batches of 1,000 (÷ COPY)", (r) => `${r.ingestBatchRowsPerSec} (${r.batchVsCopy})`],
    [
      "(d) ingest rows/s, new wallets (÷ COPY)",
      (r) => `${r.ingestNewWalletRowsPerSec} (${r.newWalletVsCopy})`,
    ],
    ["(d) COPY rows/s: existing / new wallets", (r) => `${r.copyRowsPerSec} / ${r.copyNewWalletRowsPerSec}`],
    ["(e) settle s", (r) => String(r.settleSec)],
    ["(i) bets/s on one event, p99 ms", (r) => `${r.betsPerSec}, ${r.betP99Ms}`],
    [
      "(g) mixed: ladder req/s (÷ bare), p99",
      (r) => `${r.mixedLadderRps} (${r.mixedLadderRatio}), ${r.mixedLadderP99Ms}`,
    ],
    ["(g) mixed: /me req/s (÷ bare), p99", (r) => `${r.mixedMeRps} (${r.mixedMeRatio}), ${r.mixedMeP99Ms}`],
    ["(g) mixed: ingest rows/s", (r) => String(r.mixedIngestRowsPerSec)],
    ["(g) mixed: first ladder read after the write phases (s)", (r) => String(r.mixedCatchUpSec)],
    ["(h) finalize s", (r) => String(r.finalizeSec)],
    ["(f) peak RSS MB", (r) => String(r.peakRssMb)],
    ["ranks exact, live", (r) => String(r.ranksExactLive)],
    ["ranks exact, after restart and finalize", (r) => String(r.ranksExact)],
  ];
  const head = `| metric | ${results.map((r) => r.engine).join(" | ")} |\n|---|${results.map(() => "---").join("|")}|`;
  return [head, ...rows.map(([name, f]) => `| ${name} | ${results.map(f).join(" | ")} |`)].join("\n");
}

/** A flame graph (SVG) beside every CPU profile under `root`, and each one's top self-time functions. */
function renderProfiles(root: string): void {
  for (const entry of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (!entry.endsWith(".cpuprofile")) continue;
    const file = join(root, entry);
    log(`\n${file} (flame graph: .svg beside it)\n${flamegraph(file, 12).join("\n")}`);
  }
}

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
    const { buildSec: _b, cacheLoadSec: _c, displayLoadSec: _d, ...line } = r;
    console.log(`BENCH ${JSON.stringify(line)}`);
  }
  if (profileRoot) renderProfiles(profileRoot);
  for (const f of failures) console.log(`FAILED ${f}`);
  if (failures.length > 0 || results.some((r) => !r.ranksExact || !r.ranksExactLive)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
