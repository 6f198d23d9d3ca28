import { describe, expect, it } from "vitest";
import type { Season } from "../shared/season.js";
import { estimatePool, feeWindow } from "./pool.js";

const d = (iso: string): Date => new Date(iso);

// Opening week of 20 days: Wed 2026-11-04 00:00 UTC → Tue 2026-11-24 00:00 UTC
const SEASON: Season = {
  seasonStart: d("2026-11-04T00:00:00.000Z"), // Wed 2026-11-04 00:00 UTC
  weekOneStart: d("2026-11-24T00:00:00.000Z"), // Tue 2026-11-24 00:00 UTC
};

const iso = (w: ReturnType<typeof feeWindow>) =>
  w && { fundingWeekIndex: w.fundingWeekIndex, start: w.start.toISOString(), end: w.end.toISOString() };

describe("feeWindow", () => {
  it("is null for week 0 whatever the time", () => {
    expect(feeWindow(SEASON, 0, d("2026-11-10T00:00:00.000Z"))).toBeNull(); // Tue 2026-11-10
    expect(feeWindow(SEASON, 0, d("2026-01-01T00:00:00.000Z"))).toBeNull(); // Thu 2026-01-01, pre-season
  });

  it("funds week 1 with the whole opening week once it has ended", () => {
    // now = Wed 2026-11-25 12:00 UTC, during week 1
    expect(iso(feeWindow(SEASON, 1, d("2026-11-25T12:00:00.000Z")))).toEqual({
      fundingWeekIndex: 0,
      start: "2026-11-04T00:00:00.000Z",
      end: "2026-11-24T00:00:00.000Z",
    });
  });

  it("cuts the window at now while week W−1 is still running", () => {
    // estimate for week 2 asked during week 1: now = Thu 2026-11-26 08:15 UTC
    expect(iso(feeWindow(SEASON, 2, d("2026-11-26T08:15:00.000Z")))).toEqual({
      fundingWeekIndex: 1,
      start: "2026-11-24T00:00:00.000Z",
      end: "2026-11-26T08:15:00.000Z",
    });
    // week 1 asked during the opening week: now = Fri 2026-11-13 00:00 UTC
    expect(iso(feeWindow(SEASON, 1, d("2026-11-13T00:00:00.000Z")))).toEqual({
      fundingWeekIndex: 0,
      start: "2026-11-04T00:00:00.000Z",
      end: "2026-11-13T00:00:00.000Z",
    });
  });

  it("stops at end(W−1) once that week has ended", () => {
    // week 2 asked long after: now = Fri 2027-01-01 00:00 UTC; week 1 = [Tue 2026-11-24, Tue 2026-12-01)
    expect(iso(feeWindow(SEASON, 2, d("2027-01-01T00:00:00.000Z")))).toEqual({
      fundingWeekIndex: 1,
      start: "2026-11-24T00:00:00.000Z",
      end: "2026-12-01T00:00:00.000Z",
    });
    // exactly at end(W−1): Tue 2026-12-01 00:00 UTC
    expect(iso(feeWindow(SEASON, 2, d("2026-12-01T00:00:00.000Z")))).toEqual({
      fundingWeekIndex: 1,
      start: "2026-11-24T00:00:00.000Z",
      end: "2026-12-01T00:00:00.000Z",
    });
    // 1 ms before: Mon 2026-11-30 23:59:59.999 UTC
    expect(iso(feeWindow(SEASON, 2, d("2026-11-30T23:59:59.999Z")))?.end).toBe("2026-11-30T23:59:59.999Z");
  });

  it("is empty (end = start) when now is before start(W−1)", () => {
    // week 3 asked during week 1: now = Wed 2026-11-25 00:00 UTC; week 2 starts Tue 2026-12-01
    expect(iso(feeWindow(SEASON, 3, d("2026-11-25T00:00:00.000Z")))).toEqual({
      fundingWeekIndex: 2,
      start: "2026-12-01T00:00:00.000Z",
      end: "2026-12-01T00:00:00.000Z",
    });
    // week 1 asked before the season: now = Sun 2026-11-01 00:00 UTC
    expect(iso(feeWindow(SEASON, 1, d("2026-11-01T00:00:00.000Z")))).toEqual({
      fundingWeekIndex: 0,
      start: "2026-11-04T00:00:00.000Z",
      end: "2026-11-04T00:00:00.000Z",
    });
  });

  it("handles week 52", () => {
    // week 51 = [Tue 2027-11-09, Tue 2027-11-16); now = Sat 2027-11-20 00:00 UTC (week 52)
    expect(iso(feeWindow(SEASON, 52, d("2027-11-20T00:00:00.000Z")))).toEqual({
      fundingWeekIndex: 51,
      start: "2027-11-09T00:00:00.000Z",
      end: "2027-11-16T00:00:00.000Z",
    });
  });

  it("rejects an invalid week or instant", () => {
    expect(() => feeWindow(SEASON, -1, d("2026-11-25T00:00:00.000Z"))).toThrow(RangeError);
    expect(() => feeWindow(SEASON, 1.5, d("2026-11-25T00:00:00.000Z"))).toThrow(RangeError);
    expect(() => feeWindow(SEASON, 2, d("nope"))).toThrow(RangeError);
  });
});

describe("estimatePool", () => {
  it("adds protocol fees and the incentive; entries are 0", () => {
    expect(estimatePool({ protocolFeesMicro: 1_234_500_000n, incentiveMicro: 250_000_000n })).toEqual({
      estimatedMicro: 1_484_500_000n,
      protocolFeesMicro: 1_234_500_000n,
      incentiveMicro: 250_000_000n,
      entriesMicro: 0n,
    });
  });

  it("is 0 with no fees and no incentive", () => {
    expect(estimatePool({ protocolFeesMicro: 0n, incentiveMicro: 0n }).estimatedMicro).toBe(0n);
  });

  it("is the incentive alone for week 0 (no prior fees)", () => {
    expect(estimatePool({ protocolFeesMicro: 0n, incentiveMicro: 500_000_000n }).estimatedMicro).toBe(
      500_000_000n,
    );
  });

  it("is exact beyond 2^53 micro", () => {
    expect(
      estimatePool({ protocolFeesMicro: 9_007_199_254_740_993n, incentiveMicro: 1n }).estimatedMicro,
    ).toBe(9_007_199_254_740_994n);
  });
});
