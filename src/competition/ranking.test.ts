import { describe, expect, it } from "vitest";
import { compareUserIds } from "../shared/ids.js";
import {
  CHAMPIONS_CUTOFF,
  cutoffSp,
  PAID_RANKS,
  pageRanks,
  QUALIFICATION_CUTOFF,
  type RankedEntry,
  rankLadder,
  withinCutoff,
} from "./ranking.js";

const e = (userId: string, sp: number) => ({ userId, sp });

describe("constants", () => {
  it("are the spec's cutoffs", () => {
    expect(QUALIFICATION_CUTOFF).toBe(25);
    expect(CHAMPIONS_CUTOFF).toBe(10);
    expect(PAID_RANKS).toBe(5);
  });
});

describe("compareUserIds", () => {
  it("orders numerically: shorter first", () => {
    expect(compareUserIds("9", "10")).toBeLessThan(0);
    expect(compareUserIds("10", "9")).toBeGreaterThan(0);
    expect(compareUserIds("99", "100")).toBeLessThan(0);
  });

  it("orders equal lengths lexically", () => {
    expect(compareUserIds("12", "21")).toBeLessThan(0);
    expect(compareUserIds("21", "12")).toBeGreaterThan(0);
    expect(compareUserIds("0", "1")).toBeLessThan(0);
  });

  it("is 0 for equal ids", () => {
    expect(compareUserIds("42", "42")).toBe(0);
  });

  it("orders ids beyond 2^53 exactly", () => {
    expect(compareUserIds("9007199254740993", "9007199254740992")).toBeGreaterThan(0);
    expect(compareUserIds("9223372036854775806", "9223372036854775807")).toBeLessThan(0);
  });

  it("sorts a list numerically", () => {
    expect(["100", "9", "10", "1", "2", "11"].sort(compareUserIds)).toEqual([
      "1",
      "2",
      "9",
      "10",
      "11",
      "100",
    ]);
  });
});

describe("rankLadder", () => {
  it("is empty for no entries", () => {
    expect(rankLadder([])).toEqual([]);
  });

  it("ranks distinct SP 1, 2, 3", () => {
    expect(rankLadder([e("1", 10), e("2", 30), e("3", 20)])).toEqual([
      { userId: "2", sp: 30, rank: 1 },
      { userId: "3", sp: 20, rank: 2 },
      { userId: "1", sp: 10, rank: 3 },
    ]);
  });

  it("uses standard competition ranking 1224", () => {
    expect(rankLadder([e("4", 5), e("3", 10), e("2", 10), e("1", 20)])).toEqual([
      { userId: "1", sp: 20, rank: 1 },
      { userId: "2", sp: 10, rank: 2 },
      { userId: "3", sp: 10, rank: 2 },
      { userId: "4", sp: 5, rank: 4 },
    ]);
  });

  it("gives everyone rank 1 when all tie, ordered by id", () => {
    expect(rankLadder([e("10", 7), e("9", 7), e("100", 7), e("1", 7)])).toEqual([
      { userId: "1", sp: 7, rank: 1 },
      { userId: "9", sp: 7, rank: 1 },
      { userId: "10", sp: 7, rank: 1 },
      { userId: "100", sp: 7, rank: 1 },
    ]);
  });

  it("drops zero and negative SP", () => {
    expect(rankLadder([e("1", 0), e("2", -5), e("3", 1)])).toEqual([{ userId: "3", sp: 1, rank: 1 }]);
    expect(rankLadder([e("1", 0), e("2", -5)])).toEqual([]);
  });

  it("breaks ties by numeric id, not string order (9 before 10)", () => {
    expect(rankLadder([e("10", 50), e("9", 50)]).map((r) => r.userId)).toEqual(["9", "10"]);
  });

  it("does not mutate its input", () => {
    const input = [e("2", 1), e("1", 2)];
    rankLadder(input);
    expect(input).toEqual([e("2", 1), e("1", 2)]);
  });

  it("rejects duplicate user ids", () => {
    expect(() => rankLadder([e("1", 5), e("1", 6)])).toThrow(RangeError);
  });

  it("ranks ties straddling position 25 all at 24", () => {
    // users 1..23 have SP 1000-u (distinct), users 24..27 share 500, users 28..30 have 400, 300, 200
    const entries = [];
    for (let u = 1; u <= 23; u++) entries.push(e(String(u), 1000 - u));
    for (let u = 24; u <= 27; u++) entries.push(e(String(u), 500));
    entries.push(e("28", 400), e("29", 300), e("30", 200));
    const ranked = rankLadder(entries.reverse());

    expect(ranked).toHaveLength(30);
    expect(ranked.slice(0, 23).map((r) => r.rank)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    expect(ranked.slice(23, 27)).toEqual([
      { userId: "24", sp: 500, rank: 24 },
      { userId: "25", sp: 500, rank: 24 },
      { userId: "26", sp: 500, rank: 24 },
      { userId: "27", sp: 500, rank: 24 },
    ]);
    expect(ranked.slice(27)).toEqual([
      { userId: "28", sp: 400, rank: 28 },
      { userId: "29", sp: 300, rank: 29 },
      { userId: "30", sp: 200, rank: 30 },
    ]);
    expect(cutoffSp(ranked, QUALIFICATION_CUTOFF)).toBe(500);
    expect(
      ranked.filter((r) => withinCutoff(r.rank, QUALIFICATION_CUTOFF)).map((r) => r.userId),
    ).toHaveLength(27);
  });

  it("ranks a large list: ties in blocks of 3", () => {
    // 3000 users; user u (1-based) has SP 1000 - floor((u-1)/3); block b (0-based) ranks at 3b+1
    const entries = Array.from({ length: 3000 }, (_, i) => e(String(i + 1), 1000 - Math.floor(i / 3)));
    const ranked = rankLadder([...entries].reverse());
    expect(ranked).toHaveLength(3000);
    expect(ranked[0]).toEqual({ userId: "1", sp: 1000, rank: 1 });
    expect(ranked[2]).toEqual({ userId: "3", sp: 1000, rank: 1 });
    expect(ranked[3]).toEqual({ userId: "4", sp: 999, rank: 4 });
    expect(ranked[2999]).toEqual({ userId: "3000", sp: 1, rank: 2998 });
    // every rank equals 1 + count of strictly higher SP
    for (const r of ranked) {
      expect(r.rank).toBe(1 + ranked.filter((o) => o.sp > r.sp).length);
    }
    // ordering is total and by id inside a tie
    for (let i = 1; i < ranked.length; i++) {
      const a = ranked[i - 1] as RankedEntry;
      const b = ranked[i] as RankedEntry;
      expect(a.sp > b.sp || (a.sp === b.sp && compareUserIds(a.userId, b.userId) < 0)).toBe(true);
    }
  });
});

describe("cutoffSp", () => {
  const ranked = rankLadder([e("1", 50), e("2", 40), e("3", 40), e("4", 10)]);

  it("is the SP at the 1-based position", () => {
    expect(cutoffSp(ranked, 1)).toBe(50);
    expect(cutoffSp(ranked, 2)).toBe(40);
    expect(cutoffSp(ranked, 3)).toBe(40);
    expect(cutoffSp(ranked, 4)).toBe(10);
  });

  it("is null when fewer entries are ranked", () => {
    expect(cutoffSp(ranked, 5)).toBeNull();
    expect(cutoffSp([], QUALIFICATION_CUTOFF)).toBeNull();
    expect(cutoffSp(ranked, CHAMPIONS_CUTOFF)).toBeNull();
  });

  it("rejects a non-positive cutoff", () => {
    expect(() => cutoffSp(ranked, 0)).toThrow(RangeError);
  });
});

describe("withinCutoff", () => {
  it("is rank ≤ cutoff for ranked players", () => {
    expect(withinCutoff(1, 25)).toBe(true);
    expect(withinCutoff(25, 25)).toBe(true);
    expect(withinCutoff(26, 25)).toBe(false);
    expect(withinCutoff(10, 10)).toBe(true);
    expect(withinCutoff(11, 10)).toBe(false);
  });

  it("is false for unranked players", () => {
    expect(withinCutoff(null, 25)).toBe(false);
  });

  it("includes everyone tied at the cutoff line (top 10 plus ties)", () => {
    // 9 distinct, then 3 tied at position 10..12
    const entries = Array.from({ length: 9 }, (_, i) => e(String(i + 1), 100 - i));
    entries.push(e("10", 50), e("11", 50), e("12", 50), e("13", 49));
    const ranked = rankLadder(entries);
    const inside = ranked.filter((r) => withinCutoff(r.rank, CHAMPIONS_CUTOFF)).map((r) => r.userId);
    expect(inside).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]);
  });
});

describe("pageRanks", () => {
  it("continues ranks across a page boundary inside a tie", () => {
    // Ladder SP: 90, 80, 80, 80, 70 → ranks 1, 2, 2, 2, 5. Page offset 2, limit 3 covers 80, 80, 70.
    expect(pageRanks([80, 80, 70], 2, 2)).toEqual([2, 2, 5]);
  });
  it("starts a new rank at the row's position", () => {
    expect(pageRanks([50, 40, 40, 30], 10, 11)).toEqual([11, 12, 12, 14]);
  });
  it("is empty for an empty page", () => {
    expect(pageRanks([], 0, 1)).toEqual([]);
  });
});
