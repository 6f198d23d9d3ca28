/**
 * `npm run bench [-- --quick] [-- --players N] [-- --settle N] [-- --engine pglite|postgres]`: builds the data
 * set on the embedded database and, when DATABASE_URL is set, on PostgreSQL; starts the real service on each;
 * measures with autocannon (a) the same server's static-JSON ceiling, (b) ladder pages at offset 0 and deep,
 * (c) /api/competition/me for sampled players, (d) SP ingest through the admin API, one row per request and in
 * batches of 1,000, (e) settle of an event with many predictions, (g) ladder pages and /me while 500 rows/s of
 * ingest run, (h) finalize of the big week, (f) the server's peak RSS; and checks ladder pages, the Champions
 * ladder, /me and the finalize snapshot against a reference of its own (SQL over the ledger plus every row it
 * wrote), live and after a restart (exit 1 on any mismatch). Prints a table, then one `BENCH {json}` line per
 * engine. docs/performance.md describes it.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { openDatabase } from "../src/db/client.js";
import { mulberry32 } from "../src/shared/prng.js";
import { weekBounds } from "../src/shared/season.js";
import { createScratchPostgres } from "../test/db.js";
import {
  BENCH_SEASON,
  BENCH_SQL_TIMEOUT_MS,
  buildDataset,
  buildSettleEvent,
  ledgerWeekSp,
  SETTLE_EVENT,
  settleAwards,
} from "./dataset.js";
import {
  ADMIN_HEADERS,
  FINALIZE_HEADERS,
  fetchJson,
  sessionCookies,
  startServer,
  stopServer,
} from "./service.js";

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    players: { type: "string" },
    settle: { type: "string" },
    engine: { type: "string" },
  },
});
const quick = args.quick ?? false;
const players = args.players ? Number(args.players) : quick ? 10_000 : 1_000_000;
/** Open predictions on the settled event (100,000 in the full run). */
const settleCount = args.settle ? Number(args.settle) : quick ? 20_000 : 100_000;
const BATCH_ROWS = 1000;
const MIXED_INGEST_RPS = 500;
const seconds = quick ? 3 : 10;
const CONNECTIONS = 50;
const SAMPLE = 1000;
const season = {
  seasonStart: new Date(BENCH_SEASON.seasonStart),
  weekOneStart: new Date(BENCH_SEASON.weekOneStart),
};
const W = BENCH_SEASON.liveWeek;

const log = (s: string) => process.stderr.write(`${s}\n`);

interface EngineResult {
  engine: "pglite" | "postgres";
  players: number;
  ceilingRps: number;
  ceilingP99Ms: number;
  ladderRps0: number;
  ladderRpsDeep: number;
  ladderP99Ms: number;
  meRps: number;
  meP99Ms: number;
  ingestRowsPerSec: number;
  ingestBatchRowsPerSec: number;
  settleSec: number;
  mixedLadderRps: number;
  mixedLadderP99Ms: number;
  mixedMeRps: number;
  mixedMeP99Ms: number;
  mixedIngestRowsPerSec: number;
  finalizeSec: number;
  peakRssMb: number;
  ranksExactLive: boolean;
  ranksExact: boolean;
  buildSec: number;
  cacheLoadSec: number;
}

/** A row the bench writes: always a competitive PREDICTION row on an event of the live week. */
interface BenchRow {
  userId: string;
  type: "PREDICTION";
  amount: number;
  eventId: string;
  externalId: string;
}

async function runEngine(engine: "pglite" | "postgres"): Promise<EngineResult> {
  log(
    `\n== ${engine}: ${players.toLocaleString("en")} players, ${settleCount.toLocaleString("en")} predictions to settle ==`,
  );
  const buildStart = Date.now();
  let dataDir: string | null = null;
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
  if (engine === "pglite") dataDir = mkdtempSync(join(tmpdir(), "bench-pglite-"));
  else scratch = await createScratchPostgres();
  const databaseUrl = scratch?.url ?? null;
  const database = await openDatabase({ databaseUrl, dataDir, statementTimeoutMs: BENCH_SQL_TIMEOUT_MS });
  await buildDataset(database, players, log);
  await buildSettleEvent(database, settleCount, players);
  const { start, end } = weekBounds(season, W);
  // The reference starts from the bench's own SQL over the ledger (not the maintained aggregate); every row the
  // bench writes later is added to it here, from what the bench sent, and it is re-derived from the ledger after
  // the restart: the two must agree.
  const tracked = await ledgerWeekSp(database, start, end);
  const addRow = (r: { userId: string; amount: number }) =>
    tracked.set(r.userId, (tracked.get(r.userId) ?? 0) + r.amount);

  // Sessions for SAMPLE players: everyone at or near the Qualification cutoff line (ties included), players
  // sharing a score with others, the rest random; the mixed phase writes rows for every one of them.
  const initial = sortLadder(tracked);
  const rnd = mulberry32(2026);
  const sampleIds = new Set<number>();
  for (const e of initial.slice(0, 40)) sampleIds.add(Number(e.userId));
  while (sampleIds.size < Math.min(SAMPLE, players)) sampleIds.add(1 + Math.floor(rnd() * players));
  const cookies = await sessionCookies(database, sampleIds);
  await database.close();
  const buildSec = (Date.now() - buildStart) / 1000;

  let { base, server } = await startServer(databaseUrl, dataDir, process.env.BENCH_CPU_PROF);
  try {
    await setClock(base, BENCH_SEASON.now);

    // As in production, only the live week is unfinalized: finalize the ten earlier weeks (10,000 players each).
    for (let w = 0; w < W; w++)
      await fetchJson(`${base}/api/competition/finalize?week=${w}`, {
        method: "POST",
        headers: FINALIZE_HEADERS,
      });

    let t = Date.now();
    await fetchJson(`${base}/api/competition/leaderboard?week=${W}&limit=50`);
    const cacheLoadSec = (Date.now() - t) / 1000;
    log(`  first ladder read (loads the rank cache): ${cacheLoadSec.toFixed(2)} s`);

    // Idle reads.
    const ceiling = await load({ url: `${base}/bench/ceiling` });
    const ladder0 = await load({ url: `${base}/api/competition/leaderboard?week=${W}&offset=0&limit=50` });
    const deep = Math.floor(players / 2);
    const ladderDeep = await load({
      url: `${base}/api/competition/leaderboard?week=${W}&offset=${deep}&limit=50`,
    });
    const cookieList = [...cookies.values()];
    let nextCookie = 0;
    const meRequest = {
      method: "GET",
      path: `/api/competition/me?week=${W}`,
      setupRequest: (req: AcRequest) => ({
        ...req,
        headers: { ...req.headers, cookie: cookieList[nextCookie++ % cookieList.length]! },
      }),
    };
    const me = await load({ url: base, requests: [meRequest] });

    // Writes. Every row has a unique external id, so every 2xx must have created it (checked), and is tracked.
    let seq = 0;
    const newRow = (userId: number): BenchRow => {
      seq++;
      return {
        userId: String(userId),
        type: "PREDICTION",
        amount: 10 * (1 + (seq % 7)),
        eventId: `bench-${W}-${1 + (seq % 21)}`,
        externalId: `ingest:${engine}:${process.pid}:${seq}`,
      };
    };
    let wrongAnswers = 0;
    // Rows sent and not answered yet, by external id: a response names its row's external id, and the row the
    // bench sent (not the one the service answers) is added to the reference.
    const pending = new Map<string, BenchRow>();
    const send = (row: BenchRow) => {
      pending.set(row.externalId, row);
      return row;
    };
    const answered = (externalId: string, created: boolean) => {
      const row = pending.get(externalId);
      pending.delete(externalId);
      if (!row || !created) wrongAnswers++;
      else addRow(row);
    };
    // Requests still in flight when a load phase ends may or may not have been written: sent again (idempotent
    // on external id), each is in the ledger afterwards and joins the reference.
    const flushPending = async () => {
      const rows = [...pending.values()];
      pending.clear();
      for (let i = 0; i < rows.length; i += BATCH_ROWS) {
        const chunk = rows.slice(i, i + BATCH_ROWS);
        const res = await fetchJson(`${base}/api/admin/sp-transactions/batch`, {
          method: "POST",
          headers: ADMIN_HEADERS,
          body: JSON.stringify({ rows: chunk }),
        });
        res.data.results.forEach((r: { row: { userId: string; amount: number } }, j: number) => {
          const sent = chunk[j]!;
          if (r.row.userId !== sent.userId || r.row.amount !== sent.amount) wrongAnswers++;
          addRow(sent);
        });
      }
      if (rows.length > 0) log(`  ${rows.length} rows in flight at the end of the phase, sent again`);
    };
    const singleRowRequest = (pick: () => number) => ({
      method: "POST",
      path: "/api/admin/sp-transactions",
      headers: ADMIN_HEADERS,
      setupRequest: (req: AcRequest) => ({ ...req, body: JSON.stringify(send(newRow(pick()))) }),
      onResponse: (status: number, body: string) => {
        if (status < 300) answered(JSON.parse(body).data.externalId, status === 201);
      },
    });
    const randomPlayer = () => 1 + Math.floor(rnd() * players);
    const ingest = await load({ url: base, connections: 32, requests: [singleRowRequest(randomPlayer)] });
    const ingestRowsPerSec = ingest["2xx"] / ingest.duration;
    await flushPending();

    const batch = await load({
      url: base,
      connections: 4,
      requests: [
        {
          method: "POST",
          path: "/api/admin/sp-transactions/batch",
          headers: ADMIN_HEADERS,
          setupRequest: (req: AcRequest) => {
            const rows = Array.from({ length: BATCH_ROWS }, () => send(newRow(randomPlayer())));
            return { ...req, body: JSON.stringify({ rows }) };
          },
          onResponse: (status: number, body: string) => {
            if (status !== 200) return;
            for (const r of JSON.parse(body).data.results) answered(r.row.externalId, r.created);
          },
        },
      ],
    });
    const ingestBatchRowsPerSec = (batch["2xx"] * BATCH_ROWS) / batch.duration;
    await flushPending();

    // Settle an event with `settleCount` open predictions (half of them won).
    t = Date.now();
    const settled = await fetchJson(`${base}/api/admin/events/${SETTLE_EVENT}/result`, {
      method: "POST",
      headers: ADMIN_HEADERS,
      body: JSON.stringify({ status: "finished", winningOutcome: "home" }),
    });
    const settleSec = (Date.now() - t) / 1000;
    if (settled.data.settled !== settleCount) wrongAnswers++;
    for (const [userId, amount] of settleAwards(settleCount, players)) addRow({ userId, amount });
    log(`  settle ${settled.data.settled} predictions: ${settleSec.toFixed(2)} s`);

    // Mixed: ladder pages, then /me, while a steady MIXED_INGEST_RPS of single-row ingest runs; the first rows
    // go to the sampled players (every one of them receives at least one), the rest to random players.
    const sampleList = [...sampleIds];
    let mixedSeq = 0;
    const mixedPick = () => {
      const i = mixedSeq++;
      return i < sampleList.length ? sampleList[i]! : randomPlayer();
    };
    const mixedIngestDone = load({
      url: base,
      // Enough connections that the response time does not cap the rate (500/s over 8 needs ≤ 16 ms each).
      connections: 16,
      overallRate: MIXED_INGEST_RPS,
      duration: 2 * seconds + 1,
      requests: [singleRowRequest(mixedPick)],
    });
    const mixedLadder = await load({
      url: base,
      requests: [
        { method: "GET", path: `/api/competition/leaderboard?week=${W}&offset=0&limit=50` },
        { method: "GET", path: `/api/competition/leaderboard?week=${W}&offset=${deep}&limit=50` },
      ],
    });
    const mixedMe = await load({ url: base, requests: [meRequest] });
    const mixedIngest = await mixedIngestDone;
    const mixedIngestRowsPerSec = mixedIngest["2xx"] / mixedIngest.duration;
    await flushPending();
    if (mixedSeq < sampleList.length) log(`  warning: only ${mixedSeq} mixed rows, fewer than the sample`);

    // Exactness while running (before any restart): the incremental feed path that served the reads above.
    const sampleCookies = [...cookies];
    let mismatches = wrongAnswers;
    if (wrongAnswers > 0) log(`  ${wrongAnswers} write answers were not what the bench sent`);
    if (databaseUrl) {
      // PostgreSQL allows a second client: the ledger itself must equal what the bench tracked.
      const live = await openDatabase({
        databaseUrl,
        dataDir: null,
        poolSize: 1,
        statementTimeoutMs: BENCH_SQL_TIMEOUT_MS,
      });
      mismatches += compareMaps("ledger (live) vs tracked", await ledgerWeekSp(live, start, end), tracked);
      await live.close();
    }
    mismatches += await checkService(base, tracked, sampleCookies, "live");
    const ranksExactLive = mismatches === 0;

    // Restart (ranks must survive it); re-derive the reference from the ledger while the server is down.
    let peakRssMb = peakRss(server);
    await stopServer(server);
    const verifyDb = await openDatabase({
      databaseUrl,
      dataDir,
      poolSize: 1,
      statementTimeoutMs: BENCH_SQL_TIMEOUT_MS,
    });
    const reference = await ledgerWeekSp(verifyDb, start, end);
    await verifyDb.close();
    let afterRestart = compareMaps("ledger vs tracked", reference, tracked);
    ({ base, server } = await startServer(databaseUrl, dataDir, process.env.BENCH_CPU_PROF));
    await setClock(base, BENCH_SEASON.now);
    afterRestart += await checkService(base, reference, sampleCookies, "after restart");

    // Finalize the big week once it has ended; its snapshot must hold the same ranks.
    await setClock(base, BENCH_SEASON.afterLiveWeek);
    t = Date.now();
    const finalized = await fetchJson(`${base}/api/competition/finalize?week=${W}`, {
      method: "POST",
      headers: FINALIZE_HEADERS,
    });
    const finalizeSec = (Date.now() - t) / 1000;
    log(
      `  finalize week ${W}: ${finalized.data.qualification.participants} participants, ${finalizeSec.toFixed(2)} s`,
    );
    if (finalized.data.qualification.participants !== sortLadder(reference).length) afterRestart++;
    afterRestart += await checkService(base, reference, [], "finalized snapshot");
    const ranksExact = afterRestart === 0;

    peakRssMb = Math.max(peakRssMb, peakRss(server));

    const result: EngineResult = {
      engine,
      players,
      ceilingRps: Math.round(ceiling.requests.average),
      ceilingP99Ms: ceiling.latency.p99,
      ladderRps0: Math.round(ladder0.requests.average),
      ladderRpsDeep: Math.round(ladderDeep.requests.average),
      ladderP99Ms: Math.max(ladder0.latency.p99, ladderDeep.latency.p99),
      meRps: Math.round(me.requests.average),
      meP99Ms: me.latency.p99,
      ingestRowsPerSec: Math.round(ingestRowsPerSec),
      ingestBatchRowsPerSec: Math.round(ingestBatchRowsPerSec),
      settleSec: Number(settleSec.toFixed(2)),
      mixedLadderRps: Math.round(mixedLadder.requests.average),
      mixedLadderP99Ms: mixedLadder.latency.p99,
      mixedMeRps: Math.round(mixedMe.requests.average),
      mixedMeP99Ms: mixedMe.latency.p99,
      mixedIngestRowsPerSec: Math.round(mixedIngestRowsPerSec),
      finalizeSec: Number(finalizeSec.toFixed(2)),
      peakRssMb,
      ranksExactLive,
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
      ["batch", batch],
      ["mixed ladder", mixedLadder],
      ["mixed me", mixedMe],
      ["mixed ingest", mixedIngest],
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

type AcRequest = Parameters<
  NonNullable<NonNullable<Parameters<typeof autocannon>[0]["requests"]>[number]["setupRequest"]>
>[0];

interface LadderEntry {
  userId: string;
  sp: number;
}

/** Ranked players (SP > 0) in ladder order: SP descending, then user id ascending (numerically). */
function sortLadder(sp: Map<string, number>): LadderEntry[] {
  return [...sp]
    .filter(([, v]) => v > 0)
    .map(([userId, v]) => ({ userId, sp: v }))
    .sort((a, b) => b.sp - a.sp || Number(a.userId) - Number(b.userId));
}

/** Number of differing entries between two SP maps (zero entries count as absent); logs the first few. */
function compareMaps(label: string, a: Map<string, number>, b: Map<string, number>): number {
  let diff = 0;
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    if ((a.get(id) ?? 0) !== (b.get(id) ?? 0)) {
      if (diff < 5) log(`  ${label}: user ${id} has ${a.get(id) ?? 0} vs ${b.get(id) ?? 0}`);
      diff++;
    }
  }
  if (diff > 0) log(`  ${label}: ${diff} users differ`);
  return diff;
}

/**
 * Compares what the service serves with the reference: Qualification pages at several offsets (the top, the
 * cutoff line with its ties, a quarter, the middle, the end), `total` and `cutoffSp`, the whole Champions
 * ladder (each row's SP from the reference, ranks consistent with those SPs), and `/me` of every sampled player
 * (rank and SP in both ladders). Returns the number of mismatches.
 */
async function checkService(
  base: string,
  reference: Map<string, number>,
  sessions: Array<[number, string]>,
  label: string,
): Promise<number> {
  const ladder = sortLadder(reference);
  const sorted = ladder.map((e) => e.sp);
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
  const rankOf = (sp: number) => (sp > 0 ? 1 + countAbove(sp) : null);
  let bad = 0;
  const miss = (what: string) => {
    if (bad < 10) log(`  ${label}: ${what}`);
    bad++;
  };
  const cutoffSp = sorted[24] ?? null;
  const lastAtCutoff = cutoffSp === null ? 0 : countAbove(cutoffSp - 1);
  const offsets = [
    0,
    Math.max(0, lastAtCutoff - 50),
    Math.floor(ladder.length / 4),
    Math.floor(ladder.length / 2),
    Math.max(0, ladder.length - 100),
  ];
  for (const offset of offsets) {
    const page = (await fetchJson(`${base}/api/competition/leaderboard?week=${W}&offset=${offset}&limit=100`))
      .data;
    if (page.total !== ladder.length) miss(`total ${page.total} ≠ ${ladder.length}`);
    if (page.cutoffSp !== cutoffSp) miss(`cutoffSp ${page.cutoffSp} ≠ ${cutoffSp}`);
    const expected = ladder.slice(offset, offset + 100);
    if (page.rows.length !== expected.length)
      miss(`page @${offset}: ${page.rows.length} rows ≠ ${expected.length}`);
    page.rows.forEach((row: { userId: string; competitiveSp: number; rank: number }, i: number) => {
      const e = expected[i];
      if (!e || row.userId !== e.userId || row.competitiveSp !== e.sp || row.rank !== rankOf(e.sp))
        miss(
          `page @${offset} row ${i}: ${JSON.stringify(row)} ≠ ${JSON.stringify(e)} rank ${e && rankOf(e.sp)}`,
        );
    });
  }
  let champions: Array<{ userId: string; competitiveSp: number; rank: number }> = [];
  for (let offset = 0; ; offset += 100) {
    const page = (
      await fetchJson(
        `${base}/api/competition/leaderboard?week=${W}&type=champions&offset=${offset}&limit=100`,
      )
    ).data;
    champions = champions.concat(page.rows);
    if (page.rows.length < 100) break;
  }
  const champSp = champions.map((r) => reference.get(r.userId) ?? 0);
  champions.forEach((row, i) => {
    const sp = champSp[i]!;
    const rank = 1 + champSp.filter((x) => x > sp).length;
    if (row.competitiveSp !== sp || row.rank !== rank)
      miss(`champions ${JSON.stringify(row)}: sp ${sp} rank ${rank}`);
    if (
      i > 0 &&
      (champSp[i - 1]! < sp ||
        (champSp[i - 1] === sp && Number(champions[i - 1]!.userId) > Number(row.userId)))
    )
      miss(`champions out of order at ${i}`);
  });
  for (let i = 0; i < sessions.length; i += 25) {
    await Promise.all(
      sessions.slice(i, i + 25).map(async ([id, cookie]) => {
        const body = await fetchJson(`${base}/api/competition/me?week=${W}`, { headers: { cookie } });
        const sp = reference.get(String(id)) ?? 0;
        const { qualification: q, champions: c } = body.data;
        if (q.rank !== rankOf(sp) || q.competitiveSp !== sp || c.competitiveSp !== sp)
          miss(`me ${id}: ${JSON.stringify(q)} ≠ sp ${sp} rank ${rankOf(sp)}`);
        const inChampions = champions.find((r) => r.userId === String(id));
        if ((c.rank ?? null) !== (inChampions?.rank ?? null)) miss(`me ${id}: champions rank ${c.rank}`);
      }),
    );
  }
  log(
    `  ${label}: checked ${offsets.length} pages, ${champions.length} Champions rows, ${sessions.length} /me: ${bad} mismatches`,
  );
  return bad;
}

async function setClock(base: string, now: string): Promise<void> {
  await fetchJson(`${base}/api/admin/clock`, {
    method: "PUT",
    headers: ADMIN_HEADERS,
    body: JSON.stringify({ now }),
  });
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRss(p: ChildProcess): number {
  const status = readFileSync(`/proc/${p.pid}/status`, "utf8");
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

async function load(opts: Parameters<typeof autocannon>[0]) {
  const r = await autocannon({ connections: CONNECTIONS, duration: seconds, ...opts });
  const path = opts.requests?.[0]?.path ?? new URL(opts.url).pathname + new URL(opts.url).search;
  log(
    `  ${path}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ${r.non2xx} non-2xx, ${r.errors} errors`,
  );
  return r;
}

function table(results: EngineResult[]): string {
  const rows: Array<[string, (r: EngineResult) => string]> = [
    ["players", (r) => r.players.toLocaleString("en")],
    ["data set build (s)", (r) => String(r.buildSec)],
    ["rank cache load (s)", (r) => String(r.cacheLoadSec)],
    ["(a) ceiling req/s", (r) => String(r.ceilingRps)],
    ["(a) ceiling p99 ms", (r) => String(r.ceilingP99Ms)],
    ["(b) ladder @0 req/s", (r) => `${r.ladderRps0} (${pct(r.ladderRps0, r.ceilingRps)})`],
    ["(b) ladder deep req/s", (r) => `${r.ladderRpsDeep} (${pct(r.ladderRpsDeep, r.ceilingRps)})`],
    ["(b) ladder p99 ms", (r) => `${r.ladderP99Ms} (${ratio(r.ladderP99Ms, r.ceilingP99Ms)})`],
    ["(c) me req/s", (r) => `${r.meRps} (${pct(r.meRps, r.ceilingRps)})`],
    ["(c) me p99 ms", (r) => `${r.meP99Ms} (${ratio(r.meP99Ms, r.ceilingP99Ms)})`],
    ["(d) ingest rows/s, one per request", (r) => String(r.ingestRowsPerSec)],
    ["(d) ingest rows/s, batches of 1,000", (r) => String(r.ingestBatchRowsPerSec)],
    ["(e) settle s", (r) => String(r.settleSec)],
    ["(g) mixed: ladder req/s", (r) => `${r.mixedLadderRps} (${pct(r.mixedLadderRps, r.ceilingRps)})`],
    ["(g) mixed: ladder p99 ms", (r) => String(r.mixedLadderP99Ms)],
    ["(g) mixed: me req/s", (r) => `${r.mixedMeRps} (${pct(r.mixedMeRps, r.ceilingRps)})`],
    ["(g) mixed: me p99 ms", (r) => String(r.mixedMeP99Ms)],
    ["(g) mixed: ingest rows/s", (r) => String(r.mixedIngestRowsPerSec)],
    ["(h) finalize s", (r) => String(r.finalizeSec)],
    ["(f) peak RSS MB", (r) => String(r.peakRssMb)],
    ["ranks exact, live", (r) => String(r.ranksExactLive)],
    ["ranks exact, after restart and finalize", (r) => String(r.ranksExact)],
  ];
  const head = `| metric | ${results.map((r) => r.engine).join(" | ")} |\n|---|${results.map(() => "---").join("|")}|`;
  return [head, ...rows.map(([name, f]) => `| ${name} | ${results.map(f).join(" | ")} |`)].join("\n");
}

const pct = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}× ceiling`;

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
  if (results.some((r) => !r.ranksExact || !r.ranksExactLive)) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
