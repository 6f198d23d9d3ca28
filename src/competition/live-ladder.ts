/**
 * One live week's ladder as the read model needs it, with two implementations that must give the same answers:
 * `sqlLadder` (SQL, also inside a transaction such as finalize) and `cachedLadder` in rank-cache/ (the in-memory
 * rank cache). The competition's read tests run once with the cache on and once with it off (RANK_CACHE=off).
 * Entries are {userId, sp} in ladder order (SP descending, then user id ascending).
 */
import type { Queryable } from "../db/client.js";
import {
  countAbove,
  countRanked,
  type LadderEntry,
  liveLadderPage,
  liveSpOf,
  liveSpOfUsers,
  liveTopWithTies,
  spAtPosition,
} from "./live-ladder.repository.js";

export type { LadderEntry };

export interface LiveLadder {
  page(offset: number, limit: number): Promise<LadderEntry[]>;
  /** Players with strictly more SP than `sp`. */
  countAbove(sp: number): Promise<number>;
  /** Ranked players (SP > 0). */
  total(): Promise<number>;
  /** SP at 1-based `position`, null past the end. */
  spAtPosition(position: number): Promise<number | null>;
  /** A user's SP (0 when none). */
  spOf(userId: string): Promise<number>;
  /** The SP of each given user (0 when none), in the order given. */
  spOfUsers(userIds: string[]): Promise<LadderEntry[]>;
  /** Everyone at or above the SP of position n, in ladder order. */
  topWithTies(n: number): Promise<LadderEntry[]>;
}

/** Week W's ladder read from SQL on `q` (a transaction sees its own writes). */
export function sqlLadder(q: Queryable, week: number): LiveLadder {
  return {
    page: (offset, limit) => liveLadderPage(q, week, offset, limit),
    countAbove: (sp) => countAbove(q, week, sp),
    total: () => countRanked(q, week),
    spAtPosition: (position) => spAtPosition(q, week, position),
    spOf: (userId) => liveSpOf(q, week, userId),
    spOfUsers: (userIds) => liveSpOfUsers(q, week, userIds),
    topWithTies: (n) => liveTopWithTies(q, week, n),
  };
}
