import { describe, expect, it } from "vitest";
import { PRIZE_SPLIT_PCT, projectedPrizeFor, splitPrizes } from "./prizes.js";
import { type RankedEntry, rankLadder } from "./ranking.js";

const POOL = 1_000_000_000n; // 1000.000000 USDC

const ladder = (sps: number[]): RankedEntry[] =>
  rankLadder(sps.map((sp, i) => ({ userId: String(i + 1), sp })));

describe("PRIZE_SPLIT_PCT", () => {
  it("is 35/30/20/10/5 and sums to 100", () => {
    expect([...PRIZE_SPLIT_PCT]).toEqual([35, 30, 20, 10, 5]);
    expect(PRIZE_SPLIT_PCT.reduce((a, b) => a + b, 0)).toBe(100);
  });
});

describe("splitPrizes", () => {
  it("leaves the whole pool undistributed with no players", () => {
    expect(splitPrizes([], POOL)).toEqual({ prizes: [], distributedMicro: 0n, undistributedMicro: POOL });
  });

  it("pays 35% to a single player and leaves 65%", () => {
    expect(splitPrizes(ladder([10]), POOL)).toEqual({
      prizes: [{ rank: 1, userId: "1", sp: 10, rankPct: 35, splitAmong: 1, amountMicro: 350_000_000n }],
      distributedMicro: 350_000_000n,
      undistributedMicro: 650_000_000n,
    });
  });

  it("pays exactly five distinct ranks the full pool", () => {
    const split = splitPrizes(ladder([50, 40, 30, 20, 10]), POOL);
    expect(split.prizes.map((p) => [p.rank, p.rankPct, p.amountMicro])).toEqual([
      [1, 35, 350_000_000n],
      [2, 30, 300_000_000n],
      [3, 20, 200_000_000n],
      [4, 10, 100_000_000n],
      [5, 5, 50_000_000n],
    ]);
    expect(split.distributedMicro).toBe(POOL);
    expect(split.undistributedMicro).toBe(0n);
  });

  it("pays nobody beyond rank 5", () => {
    const split = splitPrizes(ladder([70, 60, 50, 40, 30, 20, 10]), POOL);
    expect(split.prizes.map((p) => p.userId)).toEqual(["1", "2", "3", "4", "5"]);
    expect(split.undistributedMicro).toBe(0n);
  });

  it("splits a two-way tie at 1 (17.5% each), skips rank 2, pays rank 3 its 20%", () => {
    const split = splitPrizes(ladder([50, 50, 30, 20, 10]), POOL);
    expect(split.prizes).toEqual([
      { rank: 1, userId: "1", sp: 50, rankPct: 35, splitAmong: 2, amountMicro: 175_000_000n },
      { rank: 1, userId: "2", sp: 50, rankPct: 35, splitAmong: 2, amountMicro: 175_000_000n },
      { rank: 3, userId: "3", sp: 30, rankPct: 20, splitAmong: 1, amountMicro: 200_000_000n },
      { rank: 4, userId: "4", sp: 20, rankPct: 10, splitAmong: 1, amountMicro: 100_000_000n },
      { rank: 5, userId: "5", sp: 10, rankPct: 5, splitAmong: 1, amountMicro: 50_000_000n },
    ]);
    expect(split.distributedMicro).toBe(700_000_000n);
    expect(split.undistributedMicro).toBe(300_000_000n); // rank 2's 30%
  });

  it("splits a three-way tie at rank 5 with floored amounts and dust", () => {
    const split = splitPrizes(ladder([90, 80, 70, 60, 10, 10, 10, 5]), POOL);
    // 5% of 1000 USDC = 50,000,000 micro / 3 = 16,666,666.67 → 16,666,666 each, 2 micro dust
    expect(split.prizes.map((p) => [p.userId, p.rank, p.splitAmong, p.amountMicro])).toEqual([
      ["1", 1, 1, 350_000_000n],
      ["2", 2, 1, 300_000_000n],
      ["3", 3, 1, 200_000_000n],
      ["4", 4, 1, 100_000_000n],
      ["5", 5, 3, 16_666_666n],
      ["6", 5, 3, 16_666_666n],
      ["7", 5, 3, 16_666_666n],
    ]);
    expect(split.distributedMicro).toBe(999_999_998n);
    expect(split.undistributedMicro).toBe(2n);
  });

  it("splits a tie at 4 spanning positions 4–6; rank 5 is unheld", () => {
    const split = splitPrizes(ladder([90, 80, 70, 20, 20, 20, 10]), POOL);
    // 10% = 100,000,000 / 3 = 33,333,333 each (1 dust); nobody at rank 5 → its 50,000,000 undistributed
    expect(split.prizes.map((p) => [p.userId, p.rank, p.rankPct, p.splitAmong, p.amountMicro])).toEqual([
      ["1", 1, 35, 1, 350_000_000n],
      ["2", 2, 30, 1, 300_000_000n],
      ["3", 3, 20, 1, 200_000_000n],
      ["4", 4, 10, 3, 33_333_333n],
      ["5", 4, 10, 3, 33_333_333n],
      ["6", 4, 10, 3, 33_333_333n],
    ]);
    expect(split.distributedMicro).toBe(949_999_999n);
    expect(split.undistributedMicro).toBe(50_000_001n);
  });

  it("shares rank 1 among seven tied players; ranks 2–5 unheld", () => {
    const split = splitPrizes(ladder([5, 5, 5, 5, 5, 5, 5]), POOL);
    // 35% = 350,000,000 / 7 = 50,000,000 each
    expect(split.prizes).toHaveLength(7);
    expect(split.prizes.every((p) => p.amountMicro === 50_000_000n && p.splitAmong === 7)).toBe(true);
    expect(split.undistributedMicro).toBe(650_000_000n);
  });

  it("lists paid ranks with 0 amounts when the pool is 0", () => {
    const split = splitPrizes(ladder([3, 2, 1]), 0n);
    expect(split.prizes.map((p) => p.amountMicro)).toEqual([0n, 0n, 0n]);
    expect(split.distributedMicro).toBe(0n);
    expect(split.undistributedMicro).toBe(0n);
  });

  it("floors everything to 0 with a pool of 1 micro", () => {
    const split = splitPrizes(ladder([5, 4, 3, 2, 1]), 1n);
    expect(split.prizes.map((p) => p.amountMicro)).toEqual([0n, 0n, 0n, 0n, 0n]);
    expect(split.undistributedMicro).toBe(1n);
  });

  it("floors a pool not divisible by 100", () => {
    // 999,999 micro: 349,999.65 / 299,999.7 / 199,999.8 / 99,999.9 / 49,999.95 → floors sum to 999,995
    const split = splitPrizes(ladder([5, 4, 3, 2, 1]), 999_999n);
    expect(split.prizes.map((p) => p.amountMicro)).toEqual([349_999n, 299_999n, 199_999n, 99_999n, 49_999n]);
    expect(split.distributedMicro).toBe(999_995n);
    expect(split.undistributedMicro).toBe(4n);
  });

  it("handles pools beyond 2^53 micro exactly", () => {
    const pool = 123_456_789_012_345_678_901n;
    const split = splitPrizes(ladder([2, 1]), pool);
    // 35%: 43,209,876,154,320,987,615.35 → …615; 30%: 37,037,036,703,703,703,670.3 → …670
    expect(split.prizes.map((p) => p.amountMicro)).toEqual([
      43_209_876_154_320_987_615n,
      37_037_036_703_703_703_670n,
    ]);
    expect(split.undistributedMicro).toBe(pool - 43_209_876_154_320_987_615n - 37_037_036_703_703_703_670n);
  });

  it("rejects a negative pool", () => {
    expect(() => splitPrizes(ladder([1]), -1n)).toThrow(RangeError);
  });

  it("keeps distributed + undistributed = pool, and never overpays, over many generated cases", () => {
    // Deterministic 32-bit LCG so the case set is fixed.
    let seed = 12_345;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed % n;
    };
    for (let c = 0; c < 2_000; c++) {
      const players = next(12);
      const sps = Array.from({ length: players }, () => 1 + next(4)); // few distinct SP → many ties
      const pool = BigInt(next(1_000_000)) * BigInt(1 + next(1_000_000));
      const champions = ladder(sps);
      const split = splitPrizes(champions, pool);
      expect(split.distributedMicro + split.undistributedMicro).toBe(pool);
      expect(split.undistributedMicro >= 0n).toBe(true);
      expect(split.prizes.reduce((s, p) => s + p.amountMicro, 0n)).toBe(split.distributedMicro);
      for (const p of split.prizes) {
        expect(p.rank).toBeLessThanOrEqual(5);
        // each tied holder gets at most its exact share
        expect(p.amountMicro * 100n * BigInt(p.splitAmong) <= pool * BigInt(p.rankPct)).toBe(true);
      }
      // dust per paid player is under 1 micro, plus unheld ranks' percentages
      const held = new Set(split.prizes.map((p) => p.rank));
      const unheld = [1, 2, 3, 4, 5]
        .filter((r) => !held.has(r))
        .reduce((s, r) => s + (PRIZE_SPLIT_PCT[r - 1] ?? 0), 0);
      expect(split.undistributedMicro * 100n >= pool * BigInt(unheld)).toBe(true);
      expect(
        split.undistributedMicro < (pool * BigInt(unheld)) / 100n + BigInt(split.prizes.length) + 1n,
      ).toBe(true);
    }
  });
});

describe("projectedPrizeFor", () => {
  const { prizes } = splitPrizes(ladder([50, 50, 30, 20, 10, 5]), POOL);

  it("returns the prize of a paid player", () => {
    expect(projectedPrizeFor(prizes, "1")).toBe(175_000_000n);
    expect(projectedPrizeFor(prizes, "5")).toBe(50_000_000n);
  });

  it("returns null for a player outside the paid ranks or absent", () => {
    expect(projectedPrizeFor(prizes, "6")).toBeNull();
    expect(projectedPrizeFor(prizes, "999")).toBeNull();
    expect(projectedPrizeFor([], "1")).toBeNull();
  });

  it("returns 0n, not null, for a paid rank in an empty pool", () => {
    expect(projectedPrizeFor(splitPrizes(ladder([1]), 0n).prizes, "1")).toBe(0n);
  });
});
