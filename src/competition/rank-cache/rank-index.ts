/**
 * An in-memory order-statistic index of one ladder: (userId, sp) pairs in ladder order (SP descending, then user
 * id ascending), with only SP > 0 kept. Every operation answers exactly what the SQL ladder would:
 * - countAbove(sp): players with strictly more SP (so rank = competitionRank(countAbove(sp)), standard "1224" ranking);
 * - at(position) / slice(offset, limit): the rows of a page;
 * - set(userId, sp): an absolute update (idempotent), O(√n) worst case.
 *
 * Layout: a list of sorted blocks (≤ 2·BLOCK entries each) with lazily recomputed prefix counts, so a rank or a
 * page costs two binary searches, and an update a splice inside one block. User ids are kept as numbers (ids are
 * bigint identities far below 2^53). Pure data structure: no I/O, no clock.
 *
 * `cachedLadder` (at the end) serves the live-ladder port (../live-ladder.ts) from an index: the same answers as
 * `sqlLadder`.
 */
import type { LadderEntry, LiveLadder } from "../live-ladder.js";
import { competitionRank } from "../ranking.js";

const BLOCK = 512;

interface Block {
  sps: number[];
  ids: number[];
}

/** True when (spA, idA) comes strictly before (spB, idB) in ladder order. */
function before(spA: number, idA: number, spB: number, idB: number): boolean {
  return spA > spB || (spA === spB && idA < idB);
}

export class RankIndex {
  private blocks: Block[] = [];
  private readonly spOf = new Map<number, number>();
  private prefix: number[] = [];
  private dirty = true;

  /** Builds an index from arbitrary-order entries (non-positive SP dropped); one sort, O(n log n). */
  static from(entries: Iterable<{ userId: number; sp: number }>): RankIndex {
    const index = new RankIndex();
    const all: Array<{ userId: number; sp: number }> = [];
    for (const e of entries) {
      if (e.sp > 0) {
        index.spOf.set(e.userId, e.sp);
      }
    }
    for (const [userId, sp] of index.spOf) all.push({ userId, sp });
    all.sort((a, b) => b.sp - a.sp || a.userId - b.userId);
    for (let i = 0; i < all.length; i += BLOCK) {
      const chunk = all.slice(i, i + BLOCK);
      index.blocks.push({ sps: chunk.map((e) => e.sp), ids: chunk.map((e) => e.userId) });
    }
    return index;
  }

  get size(): number {
    return this.spOf.size;
  }

  /** The user's SP in this ladder, or 0 when unranked. */
  spOfUser(userId: number): number {
    return this.spOf.get(userId) ?? 0;
  }

  /** Sets a user's SP (absolute). SP ≤ 0 removes the user from the ladder. */
  set(userId: number, sp: number): void {
    const old = this.spOf.get(userId);
    if (old === sp) return;
    if (old !== undefined) this.remove(userId, old);
    if (sp > 0) {
      this.insert(userId, sp);
      this.spOf.set(userId, sp);
    } else {
      this.spOf.delete(userId);
    }
    this.dirty = true;
  }

  /** Number of players with strictly more than `sp`. */
  countAbove(sp: number): number {
    const { block, index } = this.lowerBound(sp, Number.NEGATIVE_INFINITY);
    return this.prefixCounts()[block]! + index;
  }

  /** The competition rank of the user (from countAbove of their SP), or null when they have no SP > 0. */
  rankOf(userId: number): number | null {
    const sp = this.spOf.get(userId);
    return sp === undefined ? null : competitionRank(this.countAbove(sp));
  }

  /** The entry at 0-based `position` in ladder order, or undefined past the end. */
  at(position: number): { userId: number; sp: number } | undefined {
    return this.slice(position, 1)[0];
  }

  /** Up to `limit` entries from 0-based `offset`, in ladder order. */
  slice(offset: number, limit: number): Array<{ userId: number; sp: number }> {
    const out: Array<{ userId: number; sp: number }> = [];
    if (offset < 0 || offset >= this.size) return out;
    // The block holding `offset`: the last one whose prefix count is ≤ offset.
    const prefix = this.prefixCounts();
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (prefix[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    let i = offset - prefix[lo]!;
    for (let b = lo; b < this.blocks.length && out.length < limit; b++, i = 0) {
      const block = this.blocks[b]!;
      for (; i < block.ids.length && out.length < limit; i++)
        out.push({ userId: block.ids[i]!, sp: block.sps[i]! });
    }
    return out;
  }

  private prefixCounts(): number[] {
    if (this.dirty) {
      const prefix = new Array<number>(this.blocks.length + 1);
      prefix[0] = 0;
      for (let b = 0; b < this.blocks.length; b++) prefix[b + 1] = prefix[b]! + this.blocks[b]!.ids.length;
      this.prefix = prefix;
      this.dirty = false;
    }
    return this.prefix;
  }

  /** Block and in-block index of the first entry not before (sp, id); past-the-end is (blocks.length, 0). */
  private lowerBound(sp: number, id: number): { block: number; index: number } {
    let lo = 0;
    let hi = this.blocks.length;
    // First block whose last entry is not before (sp, id).
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = this.blocks[mid]!;
      const last = b.ids.length - 1;
      if (before(b.sps[last]!, b.ids[last]!, sp, id)) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.blocks.length) return { block: lo, index: 0 };
    const b = this.blocks[lo]!;
    let i = 0;
    let j = b.ids.length;
    while (i < j) {
      const mid = (i + j) >> 1;
      if (before(b.sps[mid]!, b.ids[mid]!, sp, id)) i = mid + 1;
      else j = mid;
    }
    return { block: lo, index: i };
  }

  private insert(userId: number, sp: number): void {
    if (this.blocks.length === 0) {
      this.blocks.push({ sps: [sp], ids: [userId] });
      return;
    }
    let { block, index } = this.lowerBound(sp, userId);
    if (block === this.blocks.length) {
      block = this.blocks.length - 1;
      index = this.blocks[block]!.ids.length;
    }
    const b = this.blocks[block]!;
    b.sps.splice(index, 0, sp);
    b.ids.splice(index, 0, userId);
    if (b.ids.length > 2 * BLOCK) {
      this.blocks.splice(block + 1, 0, { sps: b.sps.splice(BLOCK), ids: b.ids.splice(BLOCK) });
    }
  }

  private remove(userId: number, sp: number): void {
    const { block, index } = this.lowerBound(sp, userId);
    const b = this.blocks[block];
    if (!b || b.ids[index] !== userId) throw new Error(`rank index out of sync for user ${userId}`);
    b.sps.splice(index, 1);
    b.ids.splice(index, 1);
    if (b.ids.length === 0) this.blocks.splice(block, 1);
  }
}

/**
 * A live week's ladder served from its in-memory index: the same answers as `sqlLadder`. A class, not an object of
 * closures: `/me` builds one per request, and the closures cost ≈ 3 % of its CPU (tsx's esbuild names each one
 * with a `defineProperty` as it is created).
 */
export function cachedLadder(index: RankIndex): LiveLadder {
  return new CachedLadder(index);
}

const entry = (e: { userId: number; sp: number }): LadderEntry => ({ userId: String(e.userId), sp: e.sp });

class CachedLadder implements LiveLadder {
  constructor(private readonly index: RankIndex) {}

  async page(offset: number, limit: number) {
    return this.index.slice(offset, limit).map(entry);
  }

  async countAbove(sp: number) {
    return this.index.countAbove(sp);
  }

  async total() {
    return this.index.size;
  }

  async spAtPosition(position: number) {
    return this.index.at(position - 1)?.sp ?? null;
  }

  async placeOf(userId: string) {
    return { sp: this.index.spOfUser(Number(userId)), rank: this.index.rankOf(Number(userId)) };
  }

  async spOfUsers(userIds: string[]) {
    return userIds.map((userId) => ({ userId, sp: this.index.spOfUser(Number(userId)) }));
  }

  async topWithTies(n: number) {
    const line = this.index.at(n - 1)?.sp;
    const count = line === undefined ? this.index.size : this.index.countAbove(line - 1);
    return this.index.slice(0, count).map(entry);
  }
}
