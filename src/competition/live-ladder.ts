/**
 * One live week's ladder, read two ways with the same answers: from SQL (inside a transaction, e.g. finalize)
 * or from the in-memory rank cache (every other read). Entries are {userId, sp} in ladder order.
 */
import type { Queryable } from "../db/client.js";
import {
  countAbove,
  countRanked,
  liveLadderPage,
  liveSpOf,
  liveSpOfUsers,
  liveTopWithTies,
  spAtPosition,
} from "./competition.repository.js";
import type { RankIndex } from "./rank-index.js";

export interface LadderEntry {
  userId: string;
  sp: number;
}

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
  spOfUsers(userIds: string[]): Promise<LadderEntry[]>;
  /** Everyone at or above the SP of position n, in ladder order. */
  topWithTies(n: number): Promise<LadderEntry[]>;
}

export function sqlLadder(q: Queryable, week: number): LiveLadder {
  const strip = (rows: Array<{ userId: string; sp: number }>) =>
    rows.map((r) => ({ userId: r.userId, sp: r.sp }));
  return {
    page: async (offset, limit) => strip(await liveLadderPage(q, week, offset, limit)),
    countAbove: (sp) => countAbove(q, week, sp),
    total: () => countRanked(q, week),
    spAtPosition: (position) => spAtPosition(q, week, position),
    spOf: (userId) => liveSpOf(q, week, userId),
    spOfUsers: async (userIds) => strip(await liveSpOfUsers(q, week, userIds)),
    topWithTies: async (n) => strip(await liveTopWithTies(q, week, n)),
  };
}

export function cachedLadder(index: RankIndex): LiveLadder {
  const entry = (e: { userId: number; sp: number }) => ({ userId: String(e.userId), sp: e.sp });
  return {
    page: async (offset, limit) => index.slice(offset, limit).map(entry),
    countAbove: async (sp) => index.countAbove(sp),
    total: async () => index.size,
    spAtPosition: async (position) => index.at(position - 1)?.sp ?? null,
    spOf: async (userId) => index.spOfUser(Number(userId)),
    spOfUsers: async (userIds) => userIds.map((userId) => ({ userId, sp: index.spOfUser(Number(userId)) })),
    topWithTies: async (n) => {
      const line = index.at(n - 1)?.sp;
      const count = line === undefined ? index.size : index.countAbove(line - 1);
      return index.slice(0, count).map(entry);
    },
  };
}
