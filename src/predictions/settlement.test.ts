import { describe, expect, it } from "vitest";
import {
  creditsPayout,
  creditsPredictionSp,
  settledStatus,
  usdcPayout,
  usdcPredictionSp,
} from "./settlement.js";

const finished = { status: "finished" as const, winners: { "1x2": "home", total: "over" } };

describe("settledStatus", () => {
  it("wins on the market's winner, loses on another outcome, voids an unresolved market", () => {
    expect(settledStatus({ market: "1x2", outcome: "home" }, finished)).toBe("won");
    expect(settledStatus({ market: "1x2", outcome: "away" }, finished)).toBe("lost");
    expect(settledStatus({ market: "btts", outcome: "yes" }, finished)).toBe("void");
  });
  it("voids everything on a cancelled event", () => {
    expect(settledStatus({ market: "1x2", outcome: "home" }, { status: "cancelled" })).toBe("void");
  });
});

describe("credits payouts and SP", () => {
  it("pays floor(stake × odds) on a win", () => {
    // 100 × 2.155 = 215.5 → 215
    expect(creditsPayout(100, 2155n, "won")).toBe(215);
    expect(creditsPredictionSp(100, 2155n, "won")).toBe(215);
    // 7 × 1.001 = 7.007 → 7
    expect(creditsPayout(7, 1001n, "won")).toBe(7);
  });
  it("refunds a void stake and earns nothing", () => {
    expect(creditsPayout(250, 3000n, "void")).toBe(250);
    expect(creditsPredictionSp(250, 3000n, "void")).toBe(0);
  });
  it("pays nothing on a loss", () => {
    expect(creditsPayout(250, 3000n, "lost")).toBe(0);
    expect(creditsPredictionSp(250, 3000n, "lost")).toBe(0);
  });
});

describe("USDC payouts and SP", () => {
  it("pays floor(stakeMicro × odds)", () => {
    // 10.5 USDC × 1.95 = 20.475 USDC = 20_475_000 micro
    expect(usdcPayout(10_500_000n, 1950n, "won")).toBe(20_475_000n);
    // 0.000001 USDC × 1.5 = 0.0000015 → 1 micro
    expect(usdcPayout(1n, 1500n, "won")).toBe(1n);
    expect(usdcPayout(10_500_000n, 1950n, "void")).toBe(10_500_000n);
    expect(usdcPayout(10_500_000n, 1950n, "lost")).toBe(0n);
  });
  it("earns floor(stakeUsdc × SP_PER_USDC × odds) without dropping fractional stake", () => {
    // 10.5 USDC × 100 × 1.95 = 2047.5 → 2047
    expect(usdcPredictionSp(10_500_000n, 1950n, 100, "won")).toBe(2047);
    // 0.01 USDC × 100 × 2.0 = 2
    expect(usdcPredictionSp(10_000n, 2000n, 100, "won")).toBe(2);
    // 0.004 USDC × 100 × 2.0 = 0.8 → 0
    expect(usdcPredictionSp(4_000n, 2000n, 100, "won")).toBe(0);
    expect(usdcPredictionSp(10_500_000n, 1950n, 100, "lost")).toBe(0);
  });
});
