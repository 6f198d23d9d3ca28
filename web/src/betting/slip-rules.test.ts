import { describe, expect, it } from "vitest";
import { formatOddsAs } from "./odds-format";
import { checkLine, checkSlip, MAX_STAKE_CREDITS, parseStake, priceChange } from "./slip-rules";

describe("the slip's lines", () => {
  it("returns floor(stake × odds) and the profit, in integers", () => {
    expect(checkLine({ stake: "100", odds: 2.15, blocked: false })).toEqual({
      stake: 100,
      returns: 215,
      profit: 115,
      problem: null,
    });
    // 7 × 1.333 = 9.331 → 9; 100 × 1.15 is 114.999… as floats, 115 in integers.
    expect(checkLine({ stake: "7", odds: 1.333, blocked: false }).returns).toBe(9);
    expect(checkLine({ stake: "100", odds: 1.15, blocked: false })).toMatchObject({
      returns: 115,
      profit: 15,
    });
    expect(checkLine({ stake: " 250 ", odds: 3.4, blocked: false })).toMatchObject({
      returns: 850,
      profit: 600,
    });
  });

  it("refuses what the server would: not whole, zero, over the maximum", () => {
    for (const stake of ["", "abc", "1.5", "-3", "0", "1e3"]) {
      expect(checkLine({ stake, odds: 2, blocked: false }).problem, stake).toBe(
        "Enter a whole number of credits (at least 1).",
      );
    }
    expect(checkLine({ stake: String(MAX_STAKE_CREDITS), odds: 2, blocked: false }).problem).toBeNull();
    expect(checkLine({ stake: String(MAX_STAKE_CREDITS + 1), odds: 2, blocked: false }).problem).toBe(
      "The most one bet may stake is 1,000,000,000 credits.",
    );
    expect(parseStake("00012")).toBe(12);
  });
});

describe("the whole slip", () => {
  const lines = [
    { stake: "100", odds: 2.15, blocked: false },
    { stake: "250", odds: 3.4, blocked: false },
  ];

  it("adds the stakes and returns, and checks them against the balance", () => {
    expect(checkSlip(lines, 1000)).toMatchObject({ totalStake: 350, totalReturns: 1065, problem: null });
    expect(checkSlip(lines, 350).problem).toBeNull();
    expect(checkSlip(lines, 349).problem).toBe("Your stakes total 350 credits; you have 349 credits.");
    expect(checkSlip(lines, null).problem).toBeNull();
  });

  it("waits for a changed price to be accepted, and for every stake to be valid", () => {
    expect(checkSlip([lines[0]!, { ...lines[1]!, blocked: true }], 1000).problem).toBe(
      "A price changed: accept the new odds or remove that selection.",
    );
    expect(checkSlip([lines[0]!, { ...lines[1]!, stake: "x" }], 1000).problem).toBe(
      "Check the stakes marked in the slip.",
    );
    expect(checkSlip([], 1000).problem).toBe("Pick an outcome to add it to the slip.");
  });
});

describe("a price that moved", () => {
  it("is asked about, unless it got better and better odds are always accepted", () => {
    expect(priceChange(3.4, 3.4, false)).toEqual({ kind: "same" });
    expect(priceChange(3.4, 3.6, false)).toEqual({ kind: "ask", from: 3.4, to: 3.6 });
    expect(priceChange(3.4, 3.6, true)).toEqual({ kind: "taken", from: 3.4, to: 3.6 });
    expect(priceChange(3.4, 3.2, true)).toEqual({ kind: "ask", from: 3.4, to: 3.2 });
    expect(priceChange(3.4, undefined, true)).toEqual({ kind: "gone" });
  });
});

describe("odds formats", () => {
  it("prints decimal, fractional (reduced) and American odds from the thousandths", () => {
    const cases: [number, string, string, string][] = [
      [2.15, "2.15", "23/20", "+115"],
      [3.4, "3.40", "12/5", "+240"],
      [2, "2.00", "1/1", "+100"],
      [1.5, "1.50", "1/2", "-200"],
      [1.8, "1.80", "4/5", "-125"],
      [1.333, "1.333", "333/1000", "-300"],
      [1.01, "1.01", "1/100", "-10000"],
      [101, "101.00", "100/1", "+10000"],
    ];
    for (const [odds, decimal, fractional, american] of cases) {
      expect(formatOddsAs(odds, "decimal"), String(odds)).toBe(decimal);
      expect(formatOddsAs(odds, "fractional"), String(odds)).toBe(fractional);
      expect(formatOddsAs(odds, "american"), String(odds)).toBe(american);
    }
    // −100 / 0.333 = −300.3 → −300; +100 × 1.155 = 115.5 → +116 (halves away from zero).
    expect(formatOddsAs(2.155, "american")).toBe("+116");
  });
});
