/**
 * The bet and settle paths measured without HTTP, in this process, on a fresh database (PGlite in memory, or a
 * scratch PostgreSQL database with DATABASE_URL and `--engine postgres`):
 *
 * - `npx tsx bench/direct.ts bets [--engine …] [--seconds 5]`: 200 players (100,000 credits each) place 1-credit
 *   bets on one event from 50 concurrent tasks through `placeBet`, with the app's group commit (`--alone`: one
 *   transaction per bet). Prints bets/s, p99, and checks that the stored predictions equal the debited credits.
 * - `npx tsx bench/direct.ts settle [--engine …] [--settle 20000] [--players 20000]`: the bench's data set and
 *   settle event, then `settleEvent` with each SQL statement of the settle transaction timed, and the CPU the
 *   settle used (this process; on PostgreSQL also the backends serving the scratch database, from /proc).
 *   On PostgreSQL, `--keep NAME` builds the data set and settle event into a database NAME and stops there (kept
 *   for later runs); `--from NAME` settles a copy of NAME (CREATE DATABASE … TEMPLATE NAME), dropped at the end,
 *   so each experiment on a 1M-player data set costs a copy instead of a build.
 * - `npx tsx bench/direct.ts finalize [--engine …] [--players 200000] [--repeat 3]`: the bench's data set of
 *   `--players` players, weeks 0–9 finalized, then `finalizeWeek` of the big week 10 with each SQL statement of
 *   its transaction timed; `--repeat` times, each after undoing the previous finalize (and a VACUUM).
 */
import { parseArgs } from "node:util";
import { type SQL, sql } from "drizzle-orm";
import type { Clock } from "../src/clock.js";
import { finalizeWeek } from "../src/competition/finalize-week.js";
import { type Database, openDatabase, rows, type Tx } from "../src/db/client.js";
import { betGroup, placeBet } from "../src/predictions/place-bet.js";
import { settleEvent } from "../src/predictions/settle-event.js";
import { createScratchPostgres } from "../test/db.js";
import { backendCpuMsSince, backendTicks } from "./cpu.js";
import { BENCH_SEASON, buildDataset, buildSettleEvent, SETTLE_EVENT } from "./dataset.js";

const { positionals, values: args } = parseArgs({
  allowPositionals: true,
  options: {
    engine: { type: "string", default: "pglite" },
    seconds: { type: "string", default: "5" },
    settle: { type: "string", default: "20000" },
    alone: { type: "boolean", default: false },
    players: { type: "string" },
    repeat: { type: "string", default: "3" },
    keep: { type: "string" },
    from: { type: "string" },
  },
});
const BET_PLAYERS = 200;
const CONNECTIONS = 50;

async function measureBets(database: Database): Promise<void> {
  const db = database.db;
  await db.execute(sql`insert into users (wallet, display_name, referral_code, credits_balance)
    select '0x' || lpad(to_hex(g), 40, '0'), 'Player ' || g, 'B' || upper(lpad(to_hex(g), 10, '0')), 100000
    from generate_series(1, ${BET_PLAYERS}) g`);
  await db.execute(sql`insert into events (id, sport, league, home_team, away_team, kickoff_at, status, warmup, markets)
    values ('direct-bets', 'football', 'L', 'H', 'A', now() + interval '1 day', 'scheduled', false,
    '[{"key":"1x2","outcomes":[{"key":"home","label":"Home","oddsMilli":2150}]}]'::jsonb)`);
  const clock: Clock = { now: () => new Date() } as Clock;
  const deps = { db, clock, bets: args.alone ? undefined : betGroup(db) };
  const seconds = Number(args.seconds);
  const end = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const userId = BigInt(1 + (next++ % BET_PLAYERS));
        const t = performance.now();
        await placeBet(deps, {
          userId,
          eventId: "direct-bets",
          market: "1x2",
          outcome: "home",
          stake: 1,
        }).catch(() => failed++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const [stored] = await rows<{ bets: string; debited: string }>(
    db,
    sql`select (select count(*) from predictions)::text as bets,
               (select sum(100000 - credits_balance) from users)::text as debited`,
  );
  console.log(
    `${args.engine} ${args.alone ? "alone" : "grouped"}: ${Math.round((latencies.length - failed) / seconds)} bets/s, ` +
      `p99 ${Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0)} ms, ${failed} refused, ` +
      `${stored!.bets} stored, ${stored!.debited} debited`,
  );
}

/** Times each statement run through `tx.execute` in the transactions of `db` (drizzle's builder is not timed). */
function timeStatements(db: Database["db"], timings: Array<[string, number]>): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((work: (tx: Tx) => Promise<unknown>) =>
    transaction(async (tx) => {
      const execute = tx.execute.bind(tx);
      tx.execute = (async (query: SQL) => {
        const t = performance.now();
        const result = await execute(query);
        const text = query.queryChunks
          .map((c) => {
            const value = (c as { value?: string[] | string }).value;
            return Array.isArray(value) ? value.join("") : typeof value === "string" ? `"${value}"` : "?";
          })
          .join("");
        timings.push([text.replace(/\s+/g, " ").trim().slice(0, 90), performance.now() - t]);
        return result;
      }) as typeof tx.execute;
      return work(tx);
    })) as typeof db.transaction;
}

async function measureSettle(database: Database): Promise<void> {
  const count = Number(args.settle);
  const players = Number(args.players ?? 20_000);
  if (!args.from) {
    await buildDataset(database, players, () => {});
    await buildSettleEvent(database, count, players);
    if (args.keep) return console.log(`${args.engine}: data set kept in database ${args.keep}`);
  }
  await database.db.execute(sql`set session_replication_role = origin`);
  const timings: Array<[string, number]> = [];
  timeStatements(database.bulkDb, timings);
  const backends = await backendTicks(database);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const done = await settleEvent(
    {
      db: database.db,
      bulkDb: database.bulkDb,
      clock: { now: () => new Date(BENCH_SEASON.now) } as Clock,
      season: {
        seasonStart: new Date(BENCH_SEASON.seasonStart),
        weekOneStart: new Date(BENCH_SEASON.weekOneStart),
      },
      spPerUsdc: 100,
    },
    { eventId: SETTLE_EVENT, result: { status: "finished", winningOutcome: "home" } },
  );
  const wall = Math.round(performance.now() - t);
  const node = process.cpuUsage(cpu);
  console.log(
    `${args.engine}: settled ${done.settled} predictions in ${wall} ms (CPU: this process ` +
      `${Math.round((node.user + node.system) / 1000)} ms, PostgreSQL backends ${await backendCpuMsSince(database, backends)} ms)`,
  );
  for (const [text, ms] of timings) console.log(`${String(Math.round(ms)).padStart(7)} ms  ${text}`);
}

async function measureFinalize(database: Database): Promise<void> {
  const players = Number(args.players ?? 200_000);
  const t0 = performance.now();
  await buildDataset(database, players, () => {});
  console.log(
    `${args.engine}: data set of ${players} players built in ${Math.round(performance.now() - t0)} ms`,
  );
  const deps = {
    db: database.db,
    bulkDb: database.bulkDb,
    clock: { now: () => new Date(BENCH_SEASON.afterLiveWeek) } as Clock,
    season: {
      seasonStart: new Date(BENCH_SEASON.seasonStart),
      weekOneStart: new Date(BENCH_SEASON.weekOneStart),
    },
    incentiveMicro: 0n,
  };
  const W = BENCH_SEASON.liveWeek;
  for (let w = 0; w < W; w++) await finalizeWeek(deps, { week: w });
  const timings: Array<[string, number]> = [];
  timeStatements(database.bulkDb, timings);
  const totals: number[] = [];
  for (let i = 0; i < Number(args.repeat); i++) {
    if (i > 0) {
      // Undo the previous finalize of week W, then clean up its dead rows as autovacuum would.
      // A partition of its own (migration 0019) is dropped; the one table of older code loses the week's rows.
      const [own] = await rows<{ t: string | null }>(
        database.db,
        sql`select to_regclass(${`competition_leaderboard_snapshots_w${W}`})::text as t`,
      );
      if (own?.t) await database.db.execute(sql.raw(`drop table ${own.t}`));
      else await database.db.execute(sql`delete from competition_leaderboard_snapshots where week = ${W}`);
      await database.db.execute(sql`delete from competition_eligibility where week = ${W + 1}`);
      await database.db.execute(sql`delete from prize_trees where week = ${W}`);
      await database.db.execute(sql`delete from competition_weeks where week = ${W}`);
      await database.db.execute(sql`vacuum analyze`);
    }
    timings.length = 0;
    const t = performance.now();
    const done = await finalizeWeek(deps, { week: W });
    const ms = performance.now() - t;
    totals.push(ms);
    console.log(
      `${args.engine}: finalized week ${W} (${done.result.qualification.participants} participants, ` +
        `${done.result.champions?.participants ?? 0} on Champions) in ${Math.round(ms)} ms`,
    );
    for (const [text, ms] of timings)
      if (ms >= 5) console.log(`${String(Math.round(ms)).padStart(7)} ms  ${text}`);
  }
  console.log(`${args.engine} ${players}: finalize ms ${totals.map((ms) => Math.round(ms)).join(", ")}`);
}

if ((args.keep || args.from) && args.engine !== "postgres")
  throw new Error("--keep and --from need --engine postgres");
const scratch =
  args.engine !== "postgres"
    ? null
    : await createScratchPostgres(args.keep ? { name: args.keep } : args.from ? { template: args.from } : {});
const database = await openDatabase({
  databaseUrl: scratch?.url ?? null,
  dataDir: null,
  statementTimeoutMs: 600_000,
});
try {
  if (positionals[0] === "settle") await measureSettle(database);
  else if (positionals[0] === "finalize") await measureFinalize(database);
  else await measureBets(database);
} finally {
  await database.close();
  // `--keep`: the data set stays for later runs (`--from`).
  if (!args.keep) await scratch?.drop();
}
