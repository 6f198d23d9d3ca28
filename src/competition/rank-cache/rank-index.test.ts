import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../shared/prng.js";
import { rankLadder } from "../ranking.js";
import { RankIndex } from "./rank-index.js";

function expectSameAsReference(index: RankIndex, truth: Map<number, number>) {
  const ranked = rankLadder([...truth].map(([userId, sp]) => ({ userId: String(userId), sp })));
  expect(index.size).toBe(ranked.length);
  expect(index.slice(0, ranked.length + 5).map((e) => [String(e.userId), e.sp])).toEqual(
    ranked.map((e) => [e.userId, e.sp]),
  );
  for (const e of ranked) expect(index.rankOf(Number(e.userId))).toBe(e.rank);
}

describe("RankIndex", () => {
  it("ranks with ties (1224) and orders equal SP by user id", () => {
    const index = RankIndex.from([
      { userId: 10, sp: 300 },
      { userId: 9, sp: 300 },
      { userId: 2, sp: 500 },
      { userId: 4, sp: 100 },
      { userId: 5, sp: 0 },
    ]);
    expect(index.slice(0, 10)).toEqual([
      { userId: 2, sp: 500 },
      { userId: 9, sp: 300 },
      { userId: 10, sp: 300 },
      { userId: 4, sp: 100 },
    ]);
    expect([2, 9, 10, 4, 5].map((u) => index.rankOf(u))).toEqual([1, 2, 2, 4, null]);
    expect(index.countAbove(300)).toBe(1);
    expect(index.countAbove(299)).toBe(3);
    expect(index.countAbove(0)).toBe(4);
    expect(index.countAbove(10_000)).toBe(0);
  });

  it("applies absolute updates idempotently and drops players at 0 or below", () => {
    const index = new RankIndex();
    index.set(1, 50);
    index.set(2, 70);
    index.set(1, 80);
    index.set(1, 80);
    expect(index.slice(0, 5)).toEqual([
      { userId: 1, sp: 80 },
      { userId: 2, sp: 70 },
    ]);
    index.set(1, 0);
    index.set(3, -5);
    expect(index.size).toBe(1);
    expect(index.rankOf(1)).toBeNull();
    expect(index.spOfUser(1)).toBe(0);
  });

  it("pages from any offset, empty past the end", () => {
    const index = RankIndex.from(Array.from({ length: 2000 }, (_, i) => ({ userId: i + 1, sp: 3000 - i })));
    expect(index.slice(1500, 3)).toEqual([
      { userId: 1501, sp: 1500 },
      { userId: 1502, sp: 1499 },
      { userId: 1503, sp: 1498 },
    ]);
    expect(index.slice(1999, 10)).toEqual([{ userId: 2000, sp: 1001 }]);
    expect(index.slice(2000, 10)).toEqual([]);
    expect(index.at(-1)).toBeUndefined();
  });

  it("matches the reference ranking through 20,000 random updates full of ties", () => {
    const rnd = mulberry32(42);
    const truth = new Map<number, number>();
    const index = RankIndex.from([]);
    for (let step = 0; step < 20_000; step++) {
      const userId = 1 + Math.floor(rnd() * 3000);
      // Long-tailed SP with many ties; sometimes 0 to remove.
      const sp = rnd() < 0.05 ? 0 : Math.floor(1 / (rnd() + 0.01)) * 10;
      index.set(userId, sp);
      if (sp > 0) truth.set(userId, sp);
      else truth.delete(userId);
      if (step % 5000 === 4999) expectSameAsReference(index, truth);
    }
    expectSameAsReference(index, truth);
  });

  it("builds in bulk the same ladder as incremental inserts", () => {
    const rnd = mulberry32(7);
    const entries = Array.from({ length: 5000 }, (_, i) => ({ userId: i + 1, sp: Math.floor(rnd() * 50) }));
    const bulk = RankIndex.from(entries);
    const incremental = new RankIndex();
    for (const e of entries) incremental.set(e.userId, e.sp);
    expect(bulk.slice(0, 6000)).toEqual(incremental.slice(0, 6000));
    expectSameAsReference(bulk, new Map(entries.filter((e) => e.sp > 0).map((e) => [e.userId, e.sp])));
  });
});
