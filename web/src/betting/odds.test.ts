import { describe, expect, it } from "vitest";
import { formatOdds, oddsToMilli, usdcWinningsOf, winningsOf } from "./odds";

describe("odds of the bet slip, in integer thousandths", () => {
  it("reads decimal odds exactly", () => {
    expect(oddsToMilli(2.15)).toBe(2150n);
    expect(oddsToMilli(3.4)).toBe(3400n);
    expect(oddsToMilli(1.001)).toBe(1001n);
    expect(oddsToMilli(1000000)).toBe(1_000_000_000n);
    expect(oddsToMilli(1.0005)).toBe(null);
  });

  it("shows odds with at least two decimals", () => {
    expect(formatOdds(2.15)).toBe("2.15");
    expect(formatOdds(3.4)).toBe("3.40");
    expect(formatOdds(2)).toBe("2.00");
    expect(formatOdds(1.125)).toBe("1.125");
  });

  it("pays floor(stake × odds) like the server", () => {
    expect(winningsOf(100, 2.15)).toBe(215);
    expect(winningsOf(7, 1.333)).toBe(9); // 9.331
    // 100 × 1.15 is 114.99999999999999 in floating point (floor 114); the integer form gives 115.
    expect(winningsOf(100, 1.15)).toBe(115);
    expect(winningsOf(100, 4.35)).toBe(435);
    expect(winningsOf(1_000_000_000, 1_000_000)).toBe(1_000_000_000_000_000);
    expect(usdcWinningsOf(10_000_001n, 2.15)).toBe(21_500_002n); // 21.5000021500 floored
  });
});
