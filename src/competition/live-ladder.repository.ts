/**
 * The SQL of live weeks: `sqlLadder`, the live-ladder port (live-ladder.ts) read from `week_user_sp`, the
 * competitive SP per (week, user) that the ledger keeps exact in the same transaction as each ledger row. Ladder
 * order is total: SP descending, then user id ascending. Only players with SP > 0 are on a ladder.
 *
 * The queries order by `sp desc nulls last`, as week_user_sp_rank_idx is built (`sp` is never null, so the order is
 * the same): a bare `sp desc` means NULLS FIRST, which the index cannot give, and the top 25 of a 200,000-player
 * week was a scan and sort of the whole week (574 ms; 4 ms from the index; docs/performance.md).
 */
import { sql } from "drizzle-orm";
import { intArray, type Queryable, rows } from "../db/client.js";
import type { LadderEntry, LadderPlace, LiveLadder } from "./live-ladder.js";
import { competitionRank } from "./ranking.js";

export type { LadderEntry };

/** Week W's ladder read from SQL on `q` (a transaction sees its own writes). */
export function sqlLadder(q: Queryable, week: number): LiveLadder {
  return {
    page: (offset, limit) => liveLadderPage(q, week, offset, limit),
    countAbove: (sp) => countAbove(q, week, sp),
    total: () => countAbove(q, week, 0),
    spAtPosition: (position) => spAtPosition(q, week, position),
    placeOf: (userId) => livePlaceOf(q, week, userId),
    spOfUsers: (userIds) => liveSpOfUsers(q, week, userIds),
    topWithTies: (n) => liveTopWithTies(q, week, n),
  };
}

interface RawEntry {
  user_id: string;
  sp: string;
}

const toEntry = (r: RawEntry): LadderEntry => ({ userId: r.user_id, sp: Number(r.sp) });

/** One page of week W's ranked players in ladder order. */
export async function liveLadderPage(
  q: Queryable,
  week: number,
  offset: number,
  limit: number,
): Promise<LadderEntry[]> {
  const found = await rows<RawEntry>(
    q,
    sql`select w.user_id::text as user_id, w.sp::text as sp from week_user_sp w
        where w.week = ${week} and w.sp > 0
        order by w.sp desc nulls last, w.user_id asc offset ${offset} limit ${limit}`,
  );
  return found.map(toEntry);
}

/** Number of players of week W with strictly more than `sp` competitive SP. */
export async function countAbove(q: Queryable, week: number, sp: number): Promise<number> {
  const [r] = await rows<{ n: string }>(
    q,
    sql`select count(*)::text as n from week_user_sp where week = ${week} and sp > ${sp}`,
  );
  return Number(r?.n ?? 0);
}

/** SP at 1-based `position` of week W's live ladder, or null when fewer players are ranked. */
export async function spAtPosition(q: Queryable, week: number, position: number): Promise<number | null> {
  const [r] = await rows<{ sp: string }>(
    q,
    // Qualified: a bare `sp` in ORDER BY would be the text output column and sort "900" above "2000".
    sql`select w.sp::text as sp from week_user_sp w where w.week = ${week} and w.sp > 0
        order by w.sp desc nulls last, w.user_id asc offset ${position - 1} limit 1`,
  );
  return r ? Number(r.sp) : null;
}

/** Every player of week W at or above the SP of position `n` (the top n plus ties), in ladder order. */
export async function liveTopWithTies(q: Queryable, week: number, n: number): Promise<LadderEntry[]> {
  const line = await spAtPosition(q, week, n);
  const found = await rows<RawEntry>(
    q,
    sql`select w.user_id::text as user_id, w.sp::text as sp from week_user_sp w
        where w.week = ${week} and w.sp > 0 and w.sp >= ${line ?? 1}
        order by w.sp desc nulls last, w.user_id asc`,
  );
  return found.map(toEntry);
}

/** Competitive SP of week W of the given users (0 for a user without SP that week), in the order given. */
export async function liveSpOfUsers(q: Queryable, week: number, userIds: string[]): Promise<LadderEntry[]> {
  if (userIds.length === 0) return [];
  const found = await rows<RawEntry>(
    q,
    sql`select w.user_id::text as user_id, w.sp::text as sp from week_user_sp w
        where w.week = ${week} and w.user_id = any(${intArray(userIds, "bigint")})`,
  );
  const sp = new Map(found.map((r) => [r.user_id, Number(r.sp)]));
  return userIds.map((userId) => ({ userId, sp: sp.get(userId) ?? 0 }));
}

/** One user's live competitive SP in week W (0 when none) and rank (null without SP). */
async function livePlaceOf(q: Queryable, week: number, userId: string): Promise<LadderPlace> {
  const [r] = await rows<{ sp: string }>(
    q,
    sql`select sp::text as sp from week_user_sp where week = ${week} and user_id = ${BigInt(userId)}`,
  );
  const sp = r ? Number(r.sp) : 0;
  return { sp, rank: sp > 0 ? competitionRank(await countAbove(q, week, sp)) : null };
}
