/**
 * The only SQL of the competition: live per-week competitive SP (maintained by the ledger), finalized weeks,
 * their snapshots and stored eligibility. Ladder order is total: SP descending, then user id ascending.
 */
import { sql } from "drizzle-orm";
import { intArray, type Queryable, rows, type Tx } from "../db/client.js";

export type Ladder = "qualification" | "champions";

export interface LadderUserRow {
  userId: string;
  sp: number;
  displayName: string;
  wallet: string | null;
}

export interface SnapshotRow extends LadderUserRow {
  position: number;
  rank: number;
  withinCutoff: boolean;
  prizeMicro: bigint | null;
}

interface RawLadderRow {
  user_id: string;
  sp: string;
  display_name: string;
  wallet: string | null;
}

const toLadderRow = (r: RawLadderRow): LadderUserRow => ({
  userId: r.user_id,
  sp: Number(r.sp),
  displayName: r.display_name,
  wallet: r.wallet,
});

/** One page of week W's live ranked players (SP > 0) in ladder order. */
export async function liveLadderPage(q: Queryable, week: number, offset: number, limit: number) {
  const found = await rows<RawLadderRow>(
    q,
    sql`select w.user_id::text as user_id, w.sp::text as sp, u.display_name, u.wallet
        from week_user_sp w join users u on u.id = w.user_id
        where w.week = ${week} and w.sp > 0
        order by w.sp desc, w.user_id asc offset ${offset} limit ${limit}`,
  );
  return found.map(toLadderRow);
}

/** Number of players of week W with strictly more than `sp` competitive SP. */
export async function countAbove(q: Queryable, week: number, sp: number): Promise<number> {
  const [r] = await rows<{ n: string }>(
    q,
    sql`select count(*)::text as n from week_user_sp where week = ${week} and sp > ${sp}`,
  );
  return Number(r?.n ?? 0);
}

/** Number of ranked (SP > 0) players in week W. */
export async function countRanked(q: Queryable, week: number): Promise<number> {
  return countAbove(q, week, 0);
}

/** SP at 1-based `position` of week W's live ladder, or null when fewer players are ranked. */
export async function spAtPosition(q: Queryable, week: number, position: number): Promise<number | null> {
  const [r] = await rows<{ sp: string }>(
    q,
    // Qualified: a bare `sp` in ORDER BY would be the text output column and sort "900" above "2000".
    sql`select w.sp::text as sp from week_user_sp w where w.week = ${week} and w.sp > 0
        order by w.sp desc, w.user_id asc offset ${position - 1} limit 1`,
  );
  return r ? Number(r.sp) : null;
}

/** Every player of week W at or above the SP of position `n` (the top n plus ties), in ladder order. */
export async function liveTopWithTies(q: Queryable, week: number, n: number): Promise<LadderUserRow[]> {
  const line = await spAtPosition(q, week, n);
  const found = await rows<RawLadderRow>(
    q,
    sql`select w.user_id::text as user_id, w.sp::text as sp, u.display_name, u.wallet
        from week_user_sp w join users u on u.id = w.user_id
        where w.week = ${week} and w.sp > 0 and w.sp >= ${line ?? 1}
        order by w.sp desc, w.user_id asc`,
  );
  return found.map(toLadderRow);
}

/** Competitive SP of week W of the given users (0 for users without SP that week). */
export async function liveSpOfUsers(q: Queryable, week: number, userIds: string[]): Promise<LadderUserRow[]> {
  if (userIds.length === 0) return [];
  const found = await rows<RawLadderRow>(
    q,
    sql`select u.id::text as user_id, coalesce(w.sp, 0)::text as sp, u.display_name, u.wallet
        from users u left join week_user_sp w on w.user_id = u.id and w.week = ${week}
        where u.id = any(${intArray(userIds, "bigint")})`,
  );
  return found.map(toLadderRow);
}

/** One user's live competitive SP in week W (0 when none). */
export async function liveSpOf(q: Queryable, week: number, userId: string): Promise<number> {
  const [r] = await rows<{ sp: string }>(
    q,
    sql`select sp::text as sp from week_user_sp where week = ${week} and user_id = ${BigInt(userId)}`,
  );
  return r ? Number(r.sp) : 0;
}

export interface FinalizedWeekRow {
  week: number;
  finalizedAt: Date;
  poolMicro: bigint;
  result: unknown;
}

export async function finalizedWeeks(q: Queryable): Promise<Set<number>> {
  const found = await rows<{ week: number }>(q, sql`select week from competition_weeks`);
  return new Set(found.map((r) => Number(r.week)));
}

export async function findFinalizedWeek(q: Queryable, week: number): Promise<FinalizedWeekRow | null> {
  const [r] = await rows<{ week: number; finalized_at: Date; pool_micro: string; result: unknown }>(
    q,
    sql`select week, finalized_at, pool_micro::text as pool_micro, result from competition_weeks where week = ${week}`,
  );
  if (!r) return null;
  return {
    week: Number(r.week),
    finalizedAt: new Date(r.finalized_at),
    poolMicro: BigInt(r.pool_micro),
    result: typeof r.result === "string" ? JSON.parse(r.result) : r.result,
  };
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

export async function completeFinalization(
  tx: Tx,
  week: number,
  poolMicro: bigint,
  result: unknown,
): Promise<void> {
  await tx.execute(
    sql`update competition_weeks set pool_micro = ${poolMicro}, result = ${JSON.stringify(result)}::jsonb
        where week = ${week}`,
  );
}

/** Snapshots week W's whole live Qualification ladder in one statement; returns the participant count. */
export async function snapshotQualification(tx: Tx, week: number, cutoff: number): Promise<number> {
  const inserted = await rows<{ n: string }>(
    tx,
    sql`with ins as (
          insert into competition_leaderboard_snapshots
            (week, ladder, position, user_id, competitive_sp, rank, within_cutoff, prize_micro)
          select ${week}, 'qualification',
                 row_number() over (order by sp desc, user_id asc),
                 user_id, sp,
                 rank() over (order by sp desc),
                 rank() over (order by sp desc) <= ${cutoff},
                 null
          from week_user_sp where week = ${week} and sp > 0
          returning 1)
        select count(*)::text as n from ins`,
  );
  return Number(inserted[0]?.n ?? 0);
}

/** Bulk-inserts snapshot rows (the Champions ladder) in one statement. */
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
  await tx.execute(
    sql`insert into competition_leaderboard_snapshots
          (week, ladder, position, user_id, competitive_sp, rank, within_cutoff, prize_micro)
        select ${week}, ${ladder}, t.position, t.user_id, t.sp, t.rank, t.within_cutoff, t.prize
        from unnest(${intArray(
          entries.map((e) => e.position),
          "int",
        )}, ${intArray(
          entries.map((e) => e.userId),
          "bigint",
        )},
                    ${intArray(
                      entries.map((e) => e.sp),
                      "bigint",
                    )}, ${intArray(
                      entries.map((e) => e.rank),
                      "int",
                    )},
                    ${within}::boolean[], ${prizes}::bigint[])
             as t(position, user_id, sp, rank, within_cutoff, prize)`,
  );
}

interface RawSnapshotRow extends RawLadderRow {
  position: number;
  rank: number;
  within_cutoff: boolean;
  prize_micro: string | null;
}

const toSnapshotRow = (r: RawSnapshotRow): SnapshotRow => ({
  ...toLadderRow(r),
  position: Number(r.position),
  rank: Number(r.rank),
  withinCutoff: r.within_cutoff,
  prizeMicro: r.prize_micro === null ? null : BigInt(r.prize_micro),
});

const snapshotColumns = sql`s.user_id::text as user_id, s.competitive_sp::text as sp, u.display_name, u.wallet,
  s.position, s.rank, s.within_cutoff, s.prize_micro::text as prize_micro`;

export async function snapshotPage(
  q: Queryable,
  week: number,
  ladder: Ladder,
  offset: number,
  limit: number,
) {
  const found = await rows<RawSnapshotRow>(
    q,
    sql`select ${snapshotColumns}
        from competition_leaderboard_snapshots s join users u on u.id = s.user_id
        where s.week = ${week} and s.ladder = ${ladder} and s.position > ${offset}
        order by s.position asc limit ${limit}`,
  );
  return found.map(toSnapshotRow);
}

/** Every snapshot row of week W's ladder with rank ≤ maxRank, in ladder order. */
export async function snapshotTop(q: Queryable, week: number, ladder: Ladder, maxRank: number) {
  const found = await rows<RawSnapshotRow>(
    q,
    sql`select ${snapshotColumns}
        from competition_leaderboard_snapshots s join users u on u.id = s.user_id
        where s.week = ${week} and s.ladder = ${ladder} and s.rank <= ${maxRank}
        order by s.position asc`,
  );
  return found.map(toSnapshotRow);
}

export async function snapshotRowOf(q: Queryable, week: number, ladder: Ladder, userId: string) {
  const [r] = await rows<RawSnapshotRow>(
    q,
    sql`select ${snapshotColumns}
        from competition_leaderboard_snapshots s join users u on u.id = s.user_id
        where s.week = ${week} and s.ladder = ${ladder} and s.user_id = ${BigInt(userId)}`,
  );
  return r ? toSnapshotRow(r) : null;
}

/** Stored CompetitionEligibility rows of Champions week W: userId → via. */
export async function storedEligibility(
  q: Queryable,
  week: number,
): Promise<Map<string, "qualification" | "champions">> {
  const found = await rows<{ user_id: string; via: "qualification" | "champions" }>(
    q,
    sql`select user_id::text as user_id, via from competition_eligibility where week = ${week}`,
  );
  return new Map(found.map((r) => [r.user_id, r.via]));
}

/** Bulk-inserts the CompetitionEligibility rows of Champions week `week`. */
export async function insertEligibility(
  tx: Tx,
  week: number,
  sourceWeek: number,
  eligible: Map<string, "qualification" | "champions">,
): Promise<void> {
  if (eligible.size === 0) return;
  const vias = `{${[...eligible.values()].join(",")}}`;
  await tx.execute(
    sql`insert into competition_eligibility (week, user_id, via, source_week)
        select ${week}, t.user_id, t.via, ${sourceWeek}
        from unnest(${intArray([...eligible.keys()], "bigint")}, ${vias}::text[]) as t(user_id, via)`,
  );
}

/**
 * The rank change feed: every (week, user, sp) row and every user profile changed by a transaction with
 * id ≥ `sinceXid`, the finalized weeks, and the new watermark, read in ONE statement (one snapshot): every transaction older than the returned xmin has finished
 * and is visible here, so reading from it next time misses nothing. Rows may repeat; values are absolute.
 */
export async function rankChangesSince(
  q: Queryable,
  sinceXid: string | null,
): Promise<{
  xmin: string;
  finalized: number[];
  changes: Array<{ week: number; userId: number; sp: number }>;
  /** Users whose displayed profile (name, wallet) changed. */
  profiles: string[];
}> {
  // One statement, one snapshot: the watermark row, then the changed rows (an index range scan on changed_xid).
  const found = await rows<{
    xmin: string | null;
    finalized: string | null;
    week: number | null;
    user_id: string | null;
    sp: string | null;
  }>(
    q,
    sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
               (select coalesce(string_agg(week::text, ','), '') from competition_weeks) as finalized,
               null::int as week, null::text as user_id, null::text as sp
        union all
        select null, null, w.week, w.user_id::text, w.sp::text from week_user_sp w
        where ${sinceXid === null ? sql`false` : sql`w.changed_xid >= ${sinceXid}::xid8`}
        union all
        select null, null, null, u.id::text, null from users u
        where ${sinceXid === null ? sql`false` : sql`u.profile_xid >= ${sinceXid}::xid8`}`,
  );
  const head = found.find((r) => r.xmin !== null)!;
  return {
    xmin: head.xmin!,
    finalized: head.finalized ? head.finalized.split(",").map(Number) : [],
    changes: found
      .filter((r) => r.user_id !== null && r.week !== null)
      .map((r) => ({ week: Number(r.week), userId: Number(r.user_id), sp: Number(r.sp) })),
    profiles: found.filter((r) => r.user_id !== null && r.week === null).map((r) => r.user_id!),
  };
}

/** Every ranked (SP > 0) player of week W with their SP, in no particular order (the cache sorts). */
export async function loadWeekSp(q: Queryable, week: number): Promise<Array<{ userId: number; sp: number }>> {
  const found = await rows<{ user_id: string; sp: string }>(
    q,
    sql`select user_id::text as user_id, sp::text as sp from week_user_sp where week = ${week} and sp > 0`,
  );
  return found.map((r) => ({ userId: Number(r.user_id), sp: Number(r.sp) }));
}
