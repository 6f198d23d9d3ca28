/**
 * The port through which the read model (standings.ts) reads a live (not finalized) week's ladder. Two
 * implementations give the same answers: `cachedLadder` (rank-cache/rank-index.ts, the in-memory rank cache) and
 * `sqlLadder` (live-ladder.repository.ts, SQL, also inside a transaction such as finalize). The competition's read
 * tests run once with the cache on and once with it off (RANK_CACHE=off). Entries are {userId, sp} in ladder order
 * (SP descending, then user id ascending); only players with SP > 0 are on a ladder.
 */

export interface LadderEntry {
  userId: string;
  sp: number;
}

/** A player's place on a ladder: their SP (0 when none) and rank (null when unranked, i.e. SP 0). */
export interface LadderPlace {
  sp: number;
  rank: number | null;
}

export interface LiveLadder {
  page(offset: number, limit: number): Promise<LadderEntry[]>;
  /** Players with strictly more SP than `sp`. */
  countAbove(sp: number): Promise<number>;
  /** Ranked players (SP > 0). */
  total(): Promise<number>;
  /** SP at 1-based `position`, null past the end. */
  spAtPosition(position: number): Promise<number | null>;
  /** A user's SP and competition rank (`competitionRank` of the players above). */
  placeOf(userId: string): Promise<LadderPlace>;
  /** The SP of each given user (0 when none), in the order given. */
  spOfUsers(userIds: string[]): Promise<LadderEntry[]>;
  /** Everyone at or above the SP of position n, in ladder order. */
  topWithTies(n: number): Promise<LadderEntry[]>;
}
