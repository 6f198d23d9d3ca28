import { describe, expect, it } from "vitest";
import {
  formatOdds,
  formatUsdc,
  mulOddsFloor,
  ODDS_PATTERN,
  parseOddsMilli,
  parseUsdc,
  USDC_PATTERN,
} from "./money.js";

describe("formatUsdc", () => {
  it.each([
    [0n, "0.000000"],
    [1n, "0.000001"],
    [999_999n, "0.999999"],
    [1_000_000n, "1.000000"],
    [1_234_500_000n, "1234.500000"],
    [10_000_001n, "10.000001"],
    [999_999_999_999_999_999_999n, "999999999999999.999999"],
    [-1n, "-0.000001"],
    [-1_234_500_000n, "-1234.500000"],
    [-2_000_000n, "-2.000000"],
  ])("%s → %s", (micro, text) => {
    expect(formatUsdc(micro)).toBe(text);
  });
});

describe("parseUsdc", () => {
  it.each([
    ["0", 0n],
    ["0.0", 0n],
    ["0.000001", 1n],
    ["1", 1_000_000n],
    ["1.5", 1_500_000n],
    ["1234.500000", 1_234_500_000n],
    ["1234.5", 1_234_500_000n],
    ["007.25", 7_250_000n],
    ["999999999999.999999", 999_999_999_999_999_999n], // 10^18 − 1: the largest, below 2^63 − 1
  ])("%j → %s", (text, micro) => {
    expect(parseUsdc(text)).toBe(micro);
  });

  it.each([
    "",
    ".5",
    "1.",
    "1.0000001", // 7 decimals
    "1000000000000", // 13 integer digits: past what a 64-bit column holds in micro-USDC
    "-1",
    "+1",
    "1e6",
    "1E6",
    " 1",
    "1 ",
    "1\n",
    "1,5",
    "1.2.3",
    "0x10",
    "Infinity",
    "NaN",
    "١٢", // non-ASCII digits
  ])("rejects %j", (text) => {
    expect(() => parseUsdc(text)).toThrow(RangeError);
  });

  it("rejects a non-string", () => {
    expect(() => parseUsdc(5 as unknown as string)).toThrow(RangeError);
  });

  it("round-trips with formatUsdc", () => {
    for (const micro of [0n, 1n, 10n, 123_456n, 1_000_000n, 42_000_001n, 999_999_999_999_999_999n]) {
      expect(parseUsdc(formatUsdc(micro))).toBe(micro);
    }
  });

  it("exposes the pattern source for schemas", () => {
    expect(USDC_PATTERN).toBe("^\\d{1,12}(\\.\\d{1,6})?$");
    expect(new RegExp(USDC_PATTERN).test("1.5")).toBe(true);
  });
});

describe("mulOddsFloor", () => {
  it("multiplies exactly and floors", () => {
    expect(mulOddsFloor(100n, 2150n)).toBe(215n); // 100 × 2.15 = 215
    expect(mulOddsFloor(7n, 2150n)).toBe(15n); // 15.05 → 15
    expect(mulOddsFloor(1n, 1999n)).toBe(1n); // 1.999 → 1
    expect(mulOddsFloor(3n, 1001n)).toBe(3n); // 3.003 → 3
    expect(mulOddsFloor(1000n, 1001n)).toBe(1001n);
    expect(mulOddsFloor(0n, 2500n)).toBe(0n);
  });

  it("is exact where a float product is not", () => {
    // 1.15 × 100 in floats is 114.99999999999999; floor would wrongly give 114
    expect(Math.floor(1.15 * 100)).toBe(114);
    expect(mulOddsFloor(100n, 1150n)).toBe(115n);
    // 0.29 × 100 in floats is 28.999999999999996
    expect(mulOddsFloor(100n, 290n)).toBe(29n);
  });

  it("handles micro-USDC amounts beyond 2^53", () => {
    expect(mulOddsFloor(9_007_199_254_740_993n, 3333n)).toBe(30_020_995_116_051_729n); // 30,020,995,116,051,729.669 → …729
  });

  it("floors towards −∞ for negative products", () => {
    expect(mulOddsFloor(-7n, 2150n)).toBe(-16n); // -15.05 → -16
    expect(mulOddsFloor(-100n, 2150n)).toBe(-215n); // exact
  });
});

describe("parseOddsMilli", () => {
  it.each([
    ["2.15", 2150n],
    ["2.1", 2100n],
    ["2", 2000n],
    ["1.001", 1001n],
    ["1.01", 1010n],
    ["10.5", 10_500n],
    ["999999.999", 999_999_999n],
    ["02.150", 2150n],
  ])("parses the string %j → %s", (text, milli) => {
    expect(parseOddsMilli(text)).toBe(milli);
  });

  it.each([
    [2.15, 2150n],
    [1.15, 1150n],
    [1.001, 1001n],
    [3, 3000n],
    [1.1 + 0.9, 2000n], // 2 exactly
    [100.125, 100_125n],
  ])("parses the number %s via its decimal form → %s", (n, milli) => {
    expect(parseOddsMilli(n)).toBe(milli);
  });

  it.each(["1", "1.000", "1.0005", "0.5", "0", "1.0009"])("rejects odds under 1.001: %j", (text) => {
    expect(() => parseOddsMilli(text)).toThrow(RangeError);
  });

  it.each(["2.1500", "2.", ".5", "-2", "+2", "2e0", " 2", "2 ", "", "abc", "1234567", "2,15"])(
    "rejects malformed text %j",
    (text) => {
      expect(() => parseOddsMilli(text)).toThrow(RangeError);
    },
  );

  it.each([
    1.1 * 3, // 3.3000000000000003: float noise, more than 3 decimals
    1e21, // "1e+21"
    1.5e-7, // "1.5e-7"
    Number.NaN,
    Number.POSITIVE_INFINITY,
    -2,
    1,
  ])("rejects the number %s", (n) => {
    expect(() => parseOddsMilli(n)).toThrow(RangeError);
  });

  it("rejects a non-string, non-number", () => {
    expect(() => parseOddsMilli(null as unknown as string)).toThrow(RangeError);
  });

  it("exposes the pattern source for schemas", () => {
    expect(new RegExp(ODDS_PATTERN).test("2.15")).toBe(true);
    expect(new RegExp(ODDS_PATTERN).test("2.155")).toBe(true);
    expect(new RegExp(ODDS_PATTERN).test("2.1555")).toBe(false);
  });
});

describe("formatOdds", () => {
  it.each([
    [2150n, 2.15],
    [1001n, 1.001],
    [1150n, 1.15],
    [2000n, 2],
    [999_999_999n, 999_999.999],
  ])("%s → %s", (milli, odds) => {
    expect(formatOdds(milli)).toBe(odds);
  });

  it("round-trips with parseOddsMilli for every 3-decimal odds up to 20", () => {
    for (let milli = 1001n; milli <= 20_000n; milli++) {
      expect(parseOddsMilli(formatOdds(milli))).toBe(milli);
    }
  });
});
