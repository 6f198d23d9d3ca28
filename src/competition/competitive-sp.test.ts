import { describe, expect, it } from "vitest";
import { COMPETITIVE_SP_TYPES, isCompetitiveType, isSpType, SP_TYPES } from "../shared/sp-types.js";
import { competitiveSpByUser, countsForWeek } from "./competitive-sp.js";

const d = (iso: string): Date => new Date(iso);

// Week 1: [Tue 2026-11-24 00:00 UTC, Tue 2026-12-01 00:00 UTC)
const WEEK1 = { start: d("2026-11-24T00:00:00.000Z"), end: d("2026-12-01T00:00:00.000Z") };
const MID = d("2026-11-26T19:00:00.000Z"); // Thu 2026-11-26 19:00 UTC

describe("type lists", () => {
  it("allowlists exactly the four event-linked prediction types", () => {
    expect([...COMPETITIVE_SP_TYPES]).toEqual([
      "PREDICTION",
      "WARMUP_PREDICTION",
      "ONCHAIN_PREDICTION",
      "ONCHAIN_SP",
    ]);
    expect([...SP_TYPES]).toEqual([
      "PREDICTION",
      "WARMUP_PREDICTION",
      "ONCHAIN_PREDICTION",
      "ONCHAIN_SP",
      "REFERRAL",
      "RAFFLE",
      "ADJUSTMENT",
    ]);
  });

  it.each(["PREDICTION", "WARMUP_PREDICTION", "ONCHAIN_PREDICTION", "ONCHAIN_SP"])(
    "%s is competitive",
    (t) => {
      expect(isCompetitiveType(t)).toBe(true);
      expect(isSpType(t)).toBe(true);
    },
  );

  it.each(["REFERRAL", "RAFFLE", "ADJUSTMENT"])("%s is a known type but not competitive", (t) => {
    expect(isCompetitiveType(t)).toBe(false);
    expect(isSpType(t)).toBe(true);
  });

  it.each(["prediction", "BONUS", "", " PREDICTION"])("%j is neither", (t) => {
    expect(isCompetitiveType(t)).toBe(false);
    expect(isSpType(t)).toBe(false);
  });
});

describe("countsForWeek", () => {
  it.each(COMPETITIVE_SP_TYPES)("counts %s with a kickoff inside the week", (type) => {
    expect(countsForWeek({ type, eventKickoffAt: MID }, WEEK1)).toBe(true);
  });

  it.each(["REFERRAL", "RAFFLE", "ADJUSTMENT", "UNKNOWN"])(
    "excludes %s even when linked to an event",
    (type) => {
      expect(countsForWeek({ type, eventKickoffAt: MID }, WEEK1)).toBe(false);
    },
  );

  it.each(COMPETITIVE_SP_TYPES)("excludes %s without an event", (type) => {
    expect(countsForWeek({ type, eventKickoffAt: null }, WEEK1)).toBe(false);
  });

  it("includes the start instant and excludes the end instant", () => {
    const row = (iso: string) => ({ type: "PREDICTION", eventKickoffAt: d(iso) });
    expect(countsForWeek(row("2026-11-23T23:59:59.999Z"), WEEK1)).toBe(false); // Mon 2026-11-23, 1 ms before
    expect(countsForWeek(row("2026-11-24T00:00:00.000Z"), WEEK1)).toBe(true); // Tue 2026-11-24 00:00
    expect(countsForWeek(row("2026-11-30T23:59:59.999Z"), WEEK1)).toBe(true); // Mon 2026-11-30, last ms
    expect(countsForWeek(row("2026-12-01T00:00:00.000Z"), WEEK1)).toBe(false); // Tue 2026-12-01 00:00
  });
});

describe("competitiveSpByUser", () => {
  it("is empty for no rows", () => {
    expect(competitiveSpByUser([], WEEK1)).toEqual(new Map());
  });

  it("sums only counting rows per user, by kickoff week", () => {
    const rows = [
      { userId: "1", type: "PREDICTION", amount: 215, eventKickoffAt: MID },
      { userId: "1", type: "WARMUP_PREDICTION", amount: 100, eventKickoffAt: d("2026-11-24T00:00:00.000Z") },
      { userId: "1", type: "REFERRAL", amount: 500, eventKickoffAt: MID }, // never counts
      { userId: "1", type: "ADJUSTMENT", amount: -50, eventKickoffAt: MID }, // never counts
      { userId: "2", type: "ONCHAIN_PREDICTION", amount: 12_345, eventKickoffAt: MID },
      { userId: "2", type: "ONCHAIN_SP", amount: 5, eventKickoffAt: d("2026-11-30T23:59:59.999Z") },
      { userId: "2", type: "PREDICTION", amount: 999, eventKickoffAt: d("2026-12-01T00:00:00.000Z") }, // week 2
      { userId: "3", type: "RAFFLE", amount: 10, eventKickoffAt: null }, // never counts
      { userId: "4", type: "PREDICTION", amount: 70, eventKickoffAt: d("2026-11-23T23:59:59.999Z") }, // week 0
      { userId: "5", type: "ONCHAIN_SP", amount: 40, eventKickoffAt: null }, // no event
    ];
    expect(competitiveSpByUser(rows, WEEK1)).toEqual(
      new Map([
        ["1", 315],
        ["2", 12_350],
      ]),
    );
  });

  it("keeps a user whose counting rows sum to 0 (ranking drops them later)", () => {
    const rows = [{ userId: "7", type: "PREDICTION", amount: 0, eventKickoffAt: MID }];
    expect(competitiveSpByUser(rows, WEEK1)).toEqual(new Map([["7", 0]]));
  });

  it("ignores the row's own time: only the kickoff matters", () => {
    // Row shapes from the repository may carry createdAt; it must not influence the result.
    const rows = [
      {
        userId: "9",
        type: "PREDICTION",
        amount: 30,
        eventKickoffAt: MID,
        createdAt: d("2026-12-05T00:00:00.000Z"), // Sat 2026-12-05, settled after the week ended
      },
    ];
    expect(competitiveSpByUser(rows, WEEK1)).toEqual(new Map([["9", 30]]));
  });

  it("sums many rows exactly", () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      userId: String(i % 10),
      type: "PREDICTION",
      amount: i,
      eventKickoffAt: MID,
    }));
    const totals = competitiveSpByUser(rows, WEEK1);
    // user k gets k + (k+10) + … + (k+9990): 1000 terms = 1000k + 10·(0+…+999) = 1000k + 4,995,000
    expect(totals.get("0")).toBe(4_995_000);
    expect(totals.get("9")).toBe(5_004_000);
    expect(totals.size).toBe(10);
  });
});
