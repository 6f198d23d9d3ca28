/**
 * Ladder ranking (SPEC §4): total ordering, standard competition ranking ("1224") and "top N plus ties" cutoffs.
 *
 * Contract:
 * - Only entries with SP > 0 are ranked.
 * - Order is SP descending, then user id ascending in numeric order (ids are canonical non-negative decimal
 *   integer strings, compared without converting, so ids beyond 2^53 order correctly).
 * - rank = 1 + number of ranked entries with strictly more SP (`competitionRank`); equal SP ⇒ equal rank. Every
 *   rank of the competition comes from `competitionRank`: `rankLadder` and `pageRanks` here, the live reads
 *   (`1 + countAbove`), and the SQL of the snapshot (`COMPETITION_RANK_SQL`, tested against `rankLadder`).
 * - "Top N (plus ties)" is rank ≤ N: everyone tied with the SP at the N-th position is inside.
 * - Each user id appears at most once in the input (a duplicate is a programming error: RangeError).
 * - Pure: no I/O; inputs are not mutated.
 */

import { compareUserIds } from "../shared/ids.js";

export const QUALIFICATION_CUTOFF = 25;
export const CHAMPIONS_CUTOFF = 10;
export const PAID_RANKS = 5;

/** The two weekly ladders. */
export const LADDERS = ["qualification", "champions"] as const;
export type Ladder = (typeof LADDERS)[number];

/** The "top N plus ties" line of each ladder. */
export const CUTOFFS: Readonly<Record<Ladder, number>> = {
  qualification: QUALIFICATION_CUTOFF,
  champions: CHAMPIONS_CUTOFF,
};

export interface RankedEntry {
  userId: string;
  sp: number;
  rank: number;
}

/** Standard competition rank ("1224") of a player with `playersAbove` ranked players strictly above in SP. */
export function competitionRank(playersAbove: number): number {
  return 1 + playersAbove;
}

/** Ranks entries with SP > 0 in ladder order (SP desc, user id asc), with "1224" ranks. */
export function rankLadder(entries: ReadonlyArray<{ userId: string; sp: number }>): RankedEntry[] {
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.userId)) throw new RangeError(`duplicate user id in ladder: ${e.userId}`);
    seen.add(e.userId);
  }
  const ordered = entries
    .filter((e) => e.sp > 0)
    .sort((a, b) => b.sp - a.sp || compareUserIds(a.userId, b.userId));
  // The whole ladder is its own first page: nobody stands above its first row.
  const ranks = pageRanks(
    ordered.map((e) => e.sp),
    0,
    competitionRank(0),
  );
  return ordered.map((e, i) => ({ userId: e.userId, sp: e.sp, rank: ranks[i]! }));
}

/** SP of the entry at 1-based position `cutoff` of the ordered ladder; null when fewer entries are ranked. */
export function cutoffSp(ranked: readonly RankedEntry[], cutoff: number): number | null {
  if (!Number.isSafeInteger(cutoff) || cutoff < 1) throw new RangeError(`cutoff must be a positive integer`);
  return ranked[cutoff - 1]?.sp ?? null;
}

/** "Top N plus ties": ranked and rank ≤ cutoff. */
export function withinCutoff(rank: number | null, cutoff: number): boolean {
  return rank !== null && rank <= cutoff;
}

/**
 * Ranks of one page of an ordered ladder (its rows from 0-based position `offset`), from the rank of its first
 * row: a row with the previous row's SP shares its rank; a row with less SP has every row before it above it, so
 * its rank is `competitionRank(offset + index)`, its 1-based position.
 */
export function pageRanks(sps: readonly number[], offset: number, firstRank: number): number[] {
  const ranks: number[] = [];
  sps.forEach((sp, i) => {
    ranks.push(i === 0 ? firstRank : sp === sps[i - 1] ? ranks[i - 1]! : competitionRank(offset + i));
  });
  return ranks;
}
