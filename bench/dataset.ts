/**
 * The benchmark data set, built in bulk SQL on an empty migrated database (going through the API would take
 * hours at this size; ingest through the API is measured separately): `players` users ranked in the current
 * week (10) with three long-tailed, tie-heavy ledger rows each, ten earlier weeks of 10,000 players, 21 events
 * per week, protocol fees, and the maintained aggregates (week_user_sp, user_sp_totals) computed from the ledger.
 */
import { sql } from "drizzle-orm";
import { type Database, textArray } from "../src/db/client.js";
import { checksumWallet } from "../src/users/presenters.js";

/** Season of the benchmark: week 1 starts Tue 2026-01-06; week 10 is [Tue 2026-03-10, Tue 2026-03-17). */
/**
 * The statement bound of the bench's own connections: building 3 million ledger rows and re-deriving every
 * player's SP from them are single statements far past a request's 5 s bound.
 */
export const BENCH_SQL_TIMEOUT_MS = 3_600_000;

export const BENCH_SEASON = {
  seasonStart: "2026-01-05T00:00:00.000Z",
  weekOneStart: "2026-01-06T00:00:00.000Z",
  liveWeek: 10,
  /** Thu 2026-03-12 12:00 UTC: inside week 10. */
  now: "2026-03-12T12:00:00.000Z",
  /** Tue 2026-03-17 00:00 UTC + 1 h: week 10 has ended. */
  afterLiveWeek: "2026-03-17T01:00:00.000Z",
};

const EVENTS_PER_WEEK = 21;
const PAST_WEEK_PLAYERS = 10_000;
/** Users per insert statement of the data set (their checksums travel as one text[] parameter). */
const USERS_PER_INSERT = 50_000;

/** Player g's wallet (lower case), as the data set stores it: g in hex, zero-padded to 40 digits. */
const benchWallet = (g: number) => `0x${g.toString(16).padStart(40, "0")}`;

export async function buildDataset(
  database: Database,
  players: number,
  log: (s: string) => void,
): Promise<void> {
  const db = database.db;
  const t0 = Date.now();
  // Bulk load: skip per-row foreign-key triggers (the generated rows reference rows inserted just before).
  await db.execute(sql`set session_replication_role = replica`);
  const step = async (label: string, query: ReturnType<typeof sql>) => {
    const t = Date.now();
    await db.execute(query);
    log(`  ${label}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  // Each user with the wallet's EIP-55 checksum, as the service stores them (hashed here, in chunks: a back-fill
  // after the insert rewrote every row, 8.5 s of PGlite's 37.5-s build at 100,000 players).
  const tu = Date.now();
  for (let from = 1; from <= players; from += USERS_PER_INSERT) {
    const count = Math.min(USERS_PER_INSERT, players - from + 1);
    const wallets = Array.from({ length: count }, (_, i) => benchWallet(from + i));
    await db.execute(
      sql`insert into users (wallet, wallet_checksum, display_name, referral_code, credits_balance)
          select w, k, 'Player ' || g, 'B' || upper(lpad(to_hex(g), 10, '0')), 1000
          from (select (${from - 1} + n)::int as g, w, k
                from unnest(${textArray(wallets)}, ${textArray(wallets.map((w) => checksumWallet(w)!))})
                  with ordinality as c(w, k, n)) s
          order by g`,
    );
  }
  log(`  users (with wallet checksums): ${((Date.now() - tu) / 1000).toFixed(1)} s`);
  // Week 0 is the opening week (Mon 2026-01-05); week w ≥ 1 starts at week one + (w − 1) weeks. Kickoffs: one
  // per hour from the week's start + 1 h.
  await step(
    "events",
    sql`insert into events (id, sport, league, home_team, away_team, kickoff_at, status, warmup, markets)
        select 'bench-' || w || '-' || e, 'football', 'Bench League', 'Home ' || e, 'Away ' || e,
               case when w = 0 then timestamptz '2026-01-05 01:00:00+00'
                    else timestamptz '2026-01-06 00:00:00+00' + (w - 1) * interval '7 days' end
                 + e * interval '1 hour',
               'finished', false,
               '[{"key":"1x2","outcomes":[{"key":"home","label":"Home","oddsMilli":2150},{"key":"away","label":"Away","oddsMilli":1800}]}]'::jsonb
        from generate_series(0, ${BENCH_SEASON.liveWeek}) w, generate_series(1, ${EVENTS_PER_WEEK}) e`,
  );
  // Long tail with ties: amount = 10 × floor(1 / (1 − 0.999·r)) for a hashed r in [0, 1): mostly 10–20 SP, a few
  // up to 10,000; multiples of 10, so thousands of players share each score.
  const amount = (u: ReturnType<typeof sql>, k: ReturnType<typeof sql>) =>
    sql`(10 * floor(1.0 / (1.0 - 0.999 * (((${u}::bigint * 2654435761 + ${k} * 40503) % 1000003) / 1000003.0))))::bigint`;
  await step(
    `ledger, week ${BENCH_SEASON.liveWeek} (${players * 3} rows)`,
    sql`insert into sp_ledger (user_id, type, amount, event_id, external_id)
        select u, 'PREDICTION', ${amount(sql`u`, sql`k`)},
               'bench-${sql.raw(String(BENCH_SEASON.liveWeek))}-' || (1 + (u * 7 + k) % ${EVENTS_PER_WEEK}),
               'bench:' || u || ':' || k
        from generate_series(1, ${players}) u, generate_series(1, 3) k`,
  );
  const pastPlayers = Math.min(players, PAST_WEEK_PLAYERS);
  await step(
    `ledger, weeks 0–${BENCH_SEASON.liveWeek - 1}`,
    sql`insert into sp_ledger (user_id, type, amount, event_id, external_id)
        select u, 'PREDICTION', ${amount(sql`u`, sql`(w + 7)`)}, 'bench-' || w || '-' || (1 + u % ${EVENTS_PER_WEEK}),
               'bench:w' || w || ':' || u
        from generate_series(0, ${BENCH_SEASON.liveWeek - 1}) w, generate_series(1, ${pastPlayers}) u`,
  );
  await step(
    "aggregate week_user_sp",
    sql`insert into week_user_sp (week, user_id, sp)
        select split_part(l.event_id, '-', 2)::int, l.user_id, sum(l.amount)
        from sp_ledger l group by 1, 2`,
  );
  await step(
    "aggregate user_sp_totals",
    sql`insert into user_sp_totals (user_id, total_sp)
        select user_id, sum(amount) from sp_ledger group by user_id order by user_id`,
  );
  await step(
    "protocol fees",
    sql`insert into protocol_fees (tx_hash, log_index, amount_micro, occurred_at)
        select '0x' || lpad(to_hex(w), 64, '0'), i, 1000000 * (i + 1),
               timestamptz '2026-01-06 00:00:00+00' + (w - 1) * interval '7 days' + i * interval '3 hours'
        from generate_series(1, ${BENCH_SEASON.liveWeek}) w, generate_series(0, 9) i`,
  );
  await db.execute(sql`set session_replication_role = origin`);
  await step("analyze", sql`analyze`);
  log(`  data set built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * The reference: every player's competitive SP of week W straight from the ledger (allowlisted types, events
 * with kickoff in the week), independent of the maintained aggregate and the rank cache.
 */
export async function ledgerWeekSp(database: Database, start: Date, end: Date): Promise<Map<string, number>> {
  const res = (await database.db.execute(
    sql`select l.user_id::text as user_id, sum(l.amount)::text as sp
        from sp_ledger l join events e on e.id = l.event_id
        where e.kickoff_at >= ${start} and e.kickoff_at < ${end}
          and l.type in ('PREDICTION', 'WARMUP_PREDICTION', 'ONCHAIN_PREDICTION', 'ONCHAIN_SP')
        group by l.user_id`,
  )) as unknown as { rows: Array<{ user_id: string; sp: string }> };
  return new Map(res.rows.map((r) => [r.user_id, Number(r.sp)]));
}

/** The event the settle measurement settles: kickoff Wed 2026-03-11 06:00 UTC (inside the live week 10). */
export const SETTLE_EVENT = "bench-settle";
const SETTLE_ODDS = { home: 2150n, away: 1800n };

/** Prediction g (1-based) of the settle event: its player, stake and outcome (odd g: home, the winner). */
export function settlePrediction(g: number, players: number) {
  return {
    userId: 1 + ((g * 7919) % players),
    stake: 10 + (g % 5),
    outcome: g % 2 === 1 ? ("home" as const) : ("away" as const),
  };
}

/**
 * The settle event and `count` open v1 predictions on it, in bulk SQL (same formulas as `settlePrediction`).
 * Settling it with home as the winner earns each odd prediction floor(stake × 2.15) SP.
 */
export async function buildSettleEvent(database: Database, count: number, players: number): Promise<void> {
  const db = database.db;
  await db.execute(
    sql`insert into events (id, sport, league, home_team, away_team, kickoff_at, status, warmup, markets)
        values (${SETTLE_EVENT}, 'football', 'Bench League', 'Home', 'Away', timestamptz '2026-03-11 06:00:00+00',
                'scheduled', false,
                '[{"key":"1x2","outcomes":[{"key":"home","label":"Home","oddsMilli":2150},{"key":"away","label":"Away","oddsMilli":1800}]}]'::jsonb)`,
  );
  await db.execute(
    sql`insert into predictions (user_id, version, event_id, market, outcome, odds_milli, stake, status, placed_at)
        select 1 + (g * 7919) % ${players}::int, 1, ${SETTLE_EVENT}, '1x2',
               case when g % 2 = 1 then 'home' else 'away' end,
               case when g % 2 = 1 then ${Number(SETTLE_ODDS.home)}::bigint else ${Number(SETTLE_ODDS.away)}::bigint end,
               10 + g % 5, 'open', timestamptz '2026-03-10 12:00:00+00'
        from generate_series(1, ${count}::int) g`,
  );
  await db.execute(sql`analyze predictions`);
}

/** SP each player earns when the settle event is settled with home winning, computed here (not by the service). */
export function settleAwards(count: number, players: number): Map<string, number> {
  const awards = new Map<string, number>();
  for (let g = 1; g <= count; g++) {
    const p = settlePrediction(g, players);
    if (p.outcome !== "home") continue;
    const sp = Number((BigInt(p.stake) * SETTLE_ODDS.home) / 1000n);
    awards.set(String(p.userId), (awards.get(String(p.userId)) ?? 0) + sp);
  }
  return awards;
}

/** The event the bet phase bets on: scheduled, kickoff Sun 2026-03-15 18:00 UTC (after the bench's `now`). */
export const BET_EVENT = "bench-bets";

export async function buildBetEvent(database: Database): Promise<void> {
  await database.db.execute(
    sql`insert into events (id, sport, league, home_team, away_team, kickoff_at, status, warmup, markets)
        values (${BET_EVENT}, 'football', 'Bench League', 'Home', 'Away', timestamptz '2026-03-15 18:00:00+00',
                'scheduled', false,
                '[{"key":"1x2","outcomes":[{"key":"home","label":"Home","oddsMilli":2150},{"key":"away","label":"Away","oddsMilli":1800}]}]'::jsonb)`,
  );
}

/**
 * What the bet phase left, from SQL: the bets on the bet event, those without their stake debit in the credits
 * ledger, and the data set's players whose balance is not their starting 1,000 plus their credits-ledger rows.
 */
export async function betOutcome(
  database: Database,
  players: number,
): Promise<{ bets: number; unstaked: number; wrongBalances: number }> {
  const res = (await database.db.execute(
    sql`select
          (select count(*) from predictions where event_id = ${BET_EVENT})::int as bets,
          (select count(*) from predictions p where p.event_id = ${BET_EVENT} and not exists
             (select 1 from credits_ledger c where c.external_id = 'stake:' || p.id and c.amount = -p.stake))::int
            as unstaked,
          (select count(*) from (select user_id, sum(amount) as s from credits_ledger group by user_id) c
             join users u on u.id = c.user_id where u.id <= ${players} and u.credits_balance <> 1000 + c.s)::int as wrong`,
  )) as unknown as { rows: Array<{ bets: number; unstaked: number; wrong: number }> };
  const r = res.rows[0]!;
  return { bets: Number(r.bets), unstaked: Number(r.unstaked), wrongBalances: Number(r.wrong) };
}
