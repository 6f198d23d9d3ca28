/** A live week's ladder served from the rank cache's in-memory index: the same answers as `sqlLadder`. */
import type { LiveLadder } from "../live-ladder.js";
import type { RankIndex } from "./rank-index.js";

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
