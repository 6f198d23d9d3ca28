import { describe, expect, it } from "vitest";
import { nextWeekEligibility } from "./eligibility.js";
import { rankLadder } from "./ranking.js";

/** Ladder where user "1" has the most SP, "2" the next, …: ids "1".."n" get ranks 1..n. */
function distinctLadder(ids: string[]) {
  return rankLadder(ids.map((userId, i) => ({ userId, sp: 10_000 - i })));
}

const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe("nextWeekEligibility", () => {
  it("week 0 → week 1: exactly the Qualification top 25", () => {
    const qualification = distinctLadder(range(1, 40));
    const next = nextWeekEligibility({
      week: 0,
      qualification,
      champions: null,
      eligibleThisWeek: new Set(),
    });
    expect([...next.keys()]).toEqual(range(1, 25));
    expect([...next.values()].every((v) => v === "qualification")).toBe(true);
  });

  it("week 0 ignores a Champions ladder even if one is passed", () => {
    const qualification = distinctLadder(range(1, 30));
    const champions = rankLadder([{ userId: "30", sp: 1 }]);
    const next = nextWeekEligibility({
      week: 0,
      qualification,
      champions,
      eligibleThisWeek: new Set(["30"]),
    });
    expect(next.has("30")).toBe(false);
    expect(next.size).toBe(25);
  });

  it("week 0 includes everyone tied at the 25th position", () => {
    // 24 distinct, then 3 tied at rank 25 → 27 eligible
    const entries = range(1, 24).map((userId, i) => ({ userId, sp: 1000 - i }));
    entries.push(
      { userId: "25", sp: 10 },
      { userId: "26", sp: 10 },
      { userId: "27", sp: 10 },
      { userId: "28", sp: 9 },
    );
    const next = nextWeekEligibility({
      week: 0,
      qualification: rankLadder(entries),
      champions: null,
      eligibleThisWeek: new Set(),
    });
    expect(next.size).toBe(27);
    expect(next.get("27")).toBe("qualification");
    expect(next.has("28")).toBe(false);
  });

  it("is empty when nobody scored", () => {
    expect(
      nextWeekEligibility({ week: 3, qualification: [], champions: [], eligibleThisWeek: new Set(["1"]) }),
    ).toEqual(new Map());
  });

  it("retains Champions top 10 plus ties who missed the Qualification cutoff", () => {
    // Qualification: users 101..130 occupy ranks 1..30, so "1".."12" are outside the top 25.
    const qualification = distinctLadder([...range(101, 130), ...range(1, 12)]);
    // Champions (eligible players "1".."12"): 9 distinct, then "10","11" tied at rank 10, "12" at rank 12.
    const champions = rankLadder([
      ...range(1, 9).map((userId, i) => ({ userId, sp: 500 - i })),
      { userId: "10", sp: 100 },
      { userId: "11", sp: 100 },
      { userId: "12", sp: 50 },
    ]);
    const next = nextWeekEligibility({
      week: 1,
      qualification,
      champions,
      eligibleThisWeek: new Set(range(1, 12)),
    });
    expect([...next.entries()].filter(([, via]) => via === "champions").map(([u]) => u)).toEqual(
      range(1, 11),
    );
    expect(next.has("12")).toBe(false); // eligible this week, misses both cutoffs → drops out
    expect([...next.entries()].filter(([, via]) => via === "qualification").map(([u]) => u)).toEqual(
      range(101, 125),
    );
    expect(next.size).toBe(25 + 11);
  });

  it("drops an eligible player who scored nothing this week", () => {
    const next = nextWeekEligibility({
      week: 2,
      qualification: distinctLadder(["5"]),
      champions: distinctLadder(["5"]),
      eligibleThisWeek: new Set(["5", "6"]),
    });
    expect(next).toEqual(new Map([["5", "qualification"]]));
  });

  it("does not retain via Champions a listed player who was not eligible this week (defensive)", () => {
    const next = nextWeekEligibility({
      week: 1,
      qualification: distinctLadder(range(101, 130)),
      champions: distinctLadder(["1", "2"]),
      eligibleThisWeek: new Set(["1"]),
    });
    expect(next.get("1")).toBe("champions");
    expect(next.has("2")).toBe(false);
  });

  it("prefers 'qualification' when both routes apply", () => {
    const next = nextWeekEligibility({
      week: 4,
      qualification: distinctLadder(["7", "8"]),
      champions: distinctLadder(["7", "9"]),
      eligibleThisWeek: new Set(["7", "9"]),
    });
    expect(next).toEqual(
      new Map([
        ["7", "qualification"],
        ["8", "qualification"],
        ["9", "champions"],
      ]),
    );
  });

  it("treats a null Champions ladder in week ≥ 1 as empty", () => {
    const next = nextWeekEligibility({
      week: 1,
      qualification: distinctLadder(["1"]),
      champions: null,
      eligibleThisWeek: new Set(["2"]),
    });
    expect(next).toEqual(new Map([["1", "qualification"]]));
  });

  it("chains three weeks", () => {
    // Week 0: players 1..30 on Qualification → 1..25 eligible for week 1.
    const week0 = distinctLadder(range(1, 30));
    const e1 = nextWeekEligibility({
      week: 0,
      qualification: week0,
      champions: null,
      eligibleThisWeek: new Set(),
    });
    expect([...e1.keys()]).toEqual(range(1, 25));

    // Week 1: newcomers 201..225 take the Qualification top 25; among the eligible 1..25 only 1..20 score.
    // Champions of week 1 ranks 1..20 in that order → 1..10 retained, 11..20 drop, 21..25 (no SP) drop.
    const q1 = distinctLadder([...range(201, 225), ...range(1, 20)]);
    const eligible1 = new Set(e1.keys());
    const c1 = distinctLadder(range(1, 20).filter((u) => eligible1.has(u)));
    const e2 = nextWeekEligibility({
      week: 1,
      qualification: q1,
      champions: c1,
      eligibleThisWeek: eligible1,
    });
    expect([...e2.entries()]).toEqual([
      ...range(201, 225).map((u) => [u, "qualification"]),
      ...range(1, 10).map((u) => [u, "champions"]),
    ]);

    // Week 2: Qualification top 25 = 301..320 then 1..5. Champions (eligible: 201..225 and 1..10) ranks
    // 1..7 then 201..209, so ranks ≤ 10 are 1..7, 201, 202, 203; 1..5 already qualify via Qualification.
    const q2 = distinctLadder([...range(301, 320), ...range(1, 5), ...range(6, 10)]);
    const eligible2 = new Set(e2.keys());
    const c2 = distinctLadder(["1", "2", "3", "4", "5", "6", "7", ...range(201, 209)]);
    const e3 = nextWeekEligibility({
      week: 2,
      qualification: q2,
      champions: c2,
      eligibleThisWeek: eligible2,
    });
    expect([...e3.entries()]).toEqual([
      ...range(301, 320).map((u) => [u, "qualification"]),
      ...range(1, 5).map((u) => [u, "qualification"]),
      // Champions ranks: 1..5 → ranks 1..5, "6" rank 6, "7" rank 7, 201 rank 8, 202 rank 9, 203 rank 10
      ["6", "champions"],
      ["7", "champions"],
      ["201", "champions"],
      ["202", "champions"],
      ["203", "champions"],
    ]);
    // 8, 9, 10 were eligible in week 2 but missed both cutoffs; 204..225 too.
    for (const u of ["8", "9", "10", "204", "225"]) expect(e3.has(u)).toBe(false);
  });
});
