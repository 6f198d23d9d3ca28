/**
 * The SQL of finalized weeks: the CompetitionWeek row with the stored week result, the ladder snapshots (one row
 * per ladder row) and the stored Champions eligibility of the next week. Written once by finalize, read by every
 * later read of that week.
 */
import { type SQLWrapper, sql } from "drizzle-orm";
import { intArray, type Queryable, rows, type Tx, writtenRows } from "../db/client.js";
import { findLadderDisplay } from "../users/users.js";
import type { EligibleVia } from "./eligibility.js";
import type { Ladder, RankedEntry } from "./ranking.js";
import type { WeekResult } from "./week-result.js";

/**
 * Standard competition rank ("1224", `competitionRank` in ranking.ts) over a relation of ranked players with an
 * `sp` column, and the ladder order (SP descending, then user id ascending) over one with `sp` and `user_id`.
 * ranking.db.test.ts checks both against `rankLadder`.
 *
 * The rank's window has a ROWS frame: rank() ignores its frame, but under the default RANGE frame PostgreSQL 15
 * reads each group of tied players ahead into a tuplestore, which spills and is re-read when thousands tie (the
 * snapshot of 200,000 players read 250,000 temporary blocks, 1.8 s of the 2.6 s window; docs/performance.md).
 */
export const COMPETITION_RANK_SQL = sql`rank() over (order by sp desc rows between unbounded preceding and current row)`;
export const LADDER_POSITION_SQL = sql`row_number() over (order by sp desc, user_id asc)`;

export interface SnapshotRow {
  userId: string;
  sp: number;
  displayName: string;
  /** EIP-55 checksummed, as every ladder row shows it. */
  wallet: string | null;
  position: number;
  rank: number;
  withinCutoff: boolean;
  prizeMicro: bigint | null;
}

/** The week numbers of every finalized week. */
export async function finalizedWeeks(q: Queryable): Promise<Set<number>> {
  const found = await rows<{ week: number }>(q, sql`select week from competition_weeks`);
  return new Set(found.map((r) => Number(r.week)));
}

/** The newest finalized week; null before any. */
export async function newestFinalizedWeek(q: Queryable): Promise<number | null> {
  const [row] = await rows<{ week: number | null }>(q, sql`select max(week) as week from competition_weeks`);
  return row?.week == null ? null : Number(row.week);
}

/**
 * The JSON of `competition_weeks.result`: the week result without the columns (week, finalized_at, pool_micro),
 * micro-USDC as decimal strings. Migration 0007 converted the rows of older versions (API-formatted results).
 */
interface StoredResult {
  qualification: WeekResult["qualification"];
  champions: WeekResult["champions"];
  prizes: Array<{
    rank: number;
    userId: string;
    sp: number;
    rankPct: number;
    splitAmong: number;
    amountMicro: string;
  }>;
  /** The fee/subsidy split of the pool; absent in rows stored before it was kept (read as all fees). */
  pool: {
    protocolFeesMicro?: string;
    incentiveMicro?: string;
    distributedMicro: string;
    undistributedMicro: string;
  };
  nextWeekEligible: number;
}

function toStored(r: WeekResult): StoredResult {
  return {
    qualification: r.qualification,
    champions: r.champions,
    prizes: r.prizes.map((p) => ({ ...p, amountMicro: String(p.amountMicro) })),
    pool: {
      protocolFeesMicro: String(r.pool.protocolFeesMicro),
      incentiveMicro: String(r.pool.incentiveMicro),
      distributedMicro: String(r.pool.distributedMicro),
      undistributedMicro: String(r.pool.undistributedMicro),
    },
    nextWeekEligible: r.nextWeekEligible,
  };
}

function fromStored(week: number, finalizedAt: Date, poolMicro: bigint, s: StoredResult): WeekResult {
  return {
    week,
    finalizedAt,
    qualification: s.qualification,
    champions: s.champions,
    prizes: s.prizes.map((p) => ({ ...p, amountMicro: BigInt(p.amountMicro) })),
    pool: {
      estimatedMicro: poolMicro,
      protocolFeesMicro: BigInt(s.pool.protocolFeesMicro ?? poolMicro),
      incentiveMicro: BigInt(s.pool.incentiveMicro ?? 0),
      distributedMicro: BigInt(s.pool.distributedMicro),
      undistributedMicro: BigInt(s.pool.undistributedMicro),
    },
    nextWeekEligible: s.nextWeekEligible,
  };
}

/** The stored result of finalized week W, or null when W is not finalized. */
export async function findWeekResult(q: Queryable, week: number): Promise<WeekResult | null> {
  const [r] = await rows<{ week: number; finalized_at: Date; pool_micro: string; result: unknown }>(
    q,
    sql`select week, finalized_at, pool_micro::text as pool_micro, result from competition_weeks where week = ${week}`,
  );
  if (!r) return null;
  const stored = (typeof r.result === "string" ? JSON.parse(r.result) : r.result) as StoredResult;
  return fromStored(Number(r.week), new Date(r.finalized_at), BigInt(r.pool_micro), stored);
}

/**
 * Claims the right to finalize week W: inserts its CompetitionWeek row. A concurrent claimer blocks on the
 * primary key until the first commits, then gets false.
 */
export async function claimFinalization(tx: Tx, week: number, finalizedAt: Date): Promise<boolean> {
  const inserted = await rows<{ week: number }>(
    tx,
    sql`insert into competition_weeks (week, finalized_at, pool_micro, result)
        values (${week}, ${finalizedAt}, 0, '{}'::jsonb) on conflict (week) do nothing returning week`,
  );
  return inserted.length === 1;
}

/** Stores the result of the week claimed by `claimFinalization` in the same transaction. */
export async function completeFinalization(tx: Tx, result: WeekResult): Promise<void> {
  await tx.execute(
    sql`update competition_weeks
        set pool_micro = ${result.pool.estimatedMicro}, result = ${JSON.stringify(toStored(result))}::jsonb
        where week = ${result.week}`,
  );
}

/**
 * Week W's snapshot rows live in a partition of their own, `competition_leaderboard_snapshots_w<W>` (migration
 * 0019; the weeks finalized before it share one): finalize creates it apart (`openWeekSnapshot`), fills it without
 * indexes, then builds its two unique indexes in one sort each and attaches it (`attachWeekSnapshot`), all in its
 * transaction. Inserting a million rows into the indexed table paid a b-tree descent per row and index, the user
 * key's in random order (docs/decisions.md "A partition per finalized week").
 */
function weekSnapshotTable(week: number): SQLWrapper {
  if (!Number.isSafeInteger(week) || week < 0) throw new Error(`not a week: ${week}`);
  return sql.identifier(`competition_leaderboard_snapshots_w${week}`);
}

/**
 * Creates week W's snapshot table, not yet attached, with week W's whole live Qualification ladder in one
 * statement; returns the participant count.
 */
export async function openWeekSnapshot(tx: Tx, week: number, cutoff: number): Promise<number> {
  const table = weekSnapshotTable(week);
  await tx.execute(
    sql`create table ${table} (like competition_leaderboard_snapshots including defaults including constraints,
                              check (week = ${sql.raw(String(week))}))`,
  );
  return writtenRows(
    tx,
    sql`insert into ${table}
          (week, ladder, position, user_id, competitive_sp, rank, within_cutoff, prize_micro)
        select ${week}, 'qualification', ${LADDER_POSITION_SQL}, user_id, sp,
               ${COMPETITION_RANK_SQL}, ${COMPETITION_RANK_SQL} <= ${cutoff}, null
        from week_user_sp where week = ${week} and sp > 0`,
  );
}

/** Bulk-inserts snapshot rows (the Champions ladder) into week W's table opened by `openWeekSnapshot`. */
export async function insertSnapshotRows(
  tx: Tx,
  week: number,
  ladder: Ladder,
  entries: Array<{
    position: number;
    userId: string;
    sp: number;
    rank: number;
    withinCutoff: boolean;
    prizeMicro: bigint | null;
  }>,
): Promise<void> {
  if (entries.length === 0) return;
  const prizes = `{${entries.map((e) => (e.prizeMicro === null ? "NULL" : String(e.prizeMicro))).join(",")}}`;
  const within = `{${entries.map((e) => (e.withinCutoff ? "t" : "f")).join(",")}}`;
  const column = (pick: (e: (typeof entries)[number]) => string | number, type: "bigint" | "int") =>
    intArray(entries.map(pick), type);
  await tx.execute(
    sql`insert into ${weekSnapshotTable(week)}
          (week, ladder, position, user_id, competitive_sp, rank, within_cutoff, prize_micro)
        select ${week}, ${ladder}, t.position, t.user_id, t.sp, t.rank, t.within_cutoff, t.prize
        from unnest(${column((e) => e.position, "int")}, ${column((e) => e.userId, "bigint")},
                    ${column((e) => e.sp, "bigint")}, ${column((e) => e.rank, "int")},
                    ${within}::boolean[], ${prizes}::numeric[])
             as t(position, user_id, sp, rank, within_cutoff, prize)`,
  );
}

/**
 * Builds week W's two unique indexes (those of the parent table, which attaching adopts) and attaches its table:
 * from here on the week's snapshot reads through `competition_leaderboard_snapshots`. The table's check
 * (`week = W`) spares the attach a scan.
 */
export async function attachWeekSnapshot(tx: Tx, week: number): Promise<void> {
  const table = weekSnapshotTable(week);
  await tx.execute(sql`create unique index on ${table} (position, ladder, week)`);
  await tx.execute(sql`create unique index on ${table} (user_id, ladder, week)`);
  await tx.execute(
    sql`alter table competition_leaderboard_snapshots attach partition ${table}
        for values in (${sql.raw(String(week))})`,
  );
}

interface RawSnapshotRow {
  user_id: string;
  sp: string;
  position: number;
  rank: number;
  within_cutoff: boolean;
  prize_micro: string | null;
}

/** The snapshot rows with each player's display name and wallet (read through the users capability, as live rows). */
async function toSnapshotRows(q: Queryable, raws: RawSnapshotRow[]): Promise<SnapshotRow[]> {
  const display = await findLadderDisplay(
    q,
    raws.map((r) => r.user_id),
  );
  return raws.map((r) => ({
    userId: r.user_id,
    sp: Number(r.sp),
    displayName: display.get(r.user_id)?.displayName ?? "",
    wallet: display.get(r.user_id)?.wallet ?? null,
    position: Number(r.position),
    rank: Number(r.rank),
    withinCutoff: r.within_cutoff,
    prizeMicro: r.prize_micro === null ? null : BigInt(r.prize_micro),
  }));
}

const snapshotRows = (where: ReturnType<typeof sql>) => sql`
  select s.user_id::text as user_id, s.competitive_sp::text as sp,
         s.position, s.rank, s.within_cutoff, s.prize_micro::text as prize_micro
  from competition_leaderboard_snapshots s
  where ${where}`;

/** One page of a finalized week's ladder, in ladder order. */
export async function snapshotPage(
  q: Queryable,
  week: number,
  ladder: Ladder,
  offset: number,
  limit: number,
) {
  const found = await rows<RawSnapshotRow>(
    q,
    sql`${snapshotRows(sql`s.week = ${week} and s.ladder = ${ladder} and s.position > ${offset}`)}
        order by s.position asc limit ${limit}`,
  );
  return toSnapshotRows(q, found);
}

/** The ranked entries of week W's ladder with rank ≤ maxRank, in ladder order (no display data). */
export async function snapshotRanks(
  q: Queryable,
  week: number,
  ladder: Ladder,
  maxRank: number,
): Promise<RankedEntry[]> {
  const found = await rows<RawSnapshotRow>(
    q,
    sql`${snapshotRows(sql`s.week = ${week} and s.ladder = ${ladder} and s.rank <= ${maxRank}`)}
        order by s.position asc`,
  );
  return found.map((r) => ({ userId: r.user_id, sp: Number(r.sp), rank: Number(r.rank) }));
}

/**
 * One user's place in finalized week W: Qualification rank and SP (unranked, 0 SP when not on it) and the stored
 * Champions prize (null when none), in one query.
 */
export async function snapshotPlaceOf(
  q: Queryable,
  week: number,
  userId: string,
): Promise<{ qualification: { rank: number | null; sp: number }; championsPrizeMicro: bigint | null }> {
  const found = await rows<RawSnapshotRow & { ladder: Ladder }>(
    q,
    sql`select s.ladder, s.competitive_sp::text as sp, s.rank, s.prize_micro::text as prize_micro
        from competition_leaderboard_snapshots s where s.week = ${week} and s.user_id = ${BigInt(userId)}`,
  );
  const q1 = found.find((r) => r.ladder === "qualification");
  const c = found.find((r) => r.ladder === "champions");
  return {
    qualification: { rank: q1 ? Number(q1.rank) : null, sp: q1 ? Number(q1.sp) : 0 },
    championsPrizeMicro: c?.prize_micro == null ? null : BigInt(c.prize_micro),
  };
}

/** Stored CompetitionEligibility rows of Champions week W: userId → via. */
export async function storedEligibility(q: Queryable, week: number): Promise<Map<string, EligibleVia>> {
  const found = await rows<{ user_id: string; via: EligibleVia }>(
    q,
    sql`select user_id::text as user_id, via from competition_eligibility where week = ${week}`,
  );
  return new Map(found.map((r) => [r.user_id, r.via]));
}

/** Bulk-inserts the CompetitionEligibility rows of Champions week `week`, decided by week `sourceWeek`. */
export async function insertEligibility(
  tx: Tx,
  week: number,
  sourceWeek: number,
  eligible: Map<string, EligibleVia>,
): Promise<void> {
  if (eligible.size === 0) return;
  const vias = `{${[...eligible.values()].join(",")}}`;
  await tx.execute(
    sql`insert into competition_eligibility (week, user_id, via, source_week)
        select ${week}, t.user_id, t.via, ${sourceWeek}
        from unnest(${intArray([...eligible.keys()], "bigint")}, ${vias}::text[]) as t(user_id, via)`,
  );
}
