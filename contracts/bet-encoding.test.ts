import { describe, expect, it } from "vitest";
import { onchainMarketId, onchainOutcome } from "./bet-encoding.js";

const MARKETS = [
  { key: "1x2", outcomes: [{ key: "home" }, { key: "draw" }, { key: "away" }] },
  { key: "total", outcomes: [{ key: "over" }, { key: "under" }] },
];

describe("onchainMarketId", () => {
  it("is keccak256 of '<eventId>/<market>' (the vectors of docs/onchain.md)", () => {
    expect(onchainMarketId("epl-2026-ars-che", "1x2")).toBe(
      "0x22c3d50dc43f8c39aba96ad8b8d797bda165ee5aa9df690f2a6843d26fb2fc11",
    );
    expect(onchainMarketId("epl-2026-ars-che", "total")).toBe(
      "0x61a47df02671da832d823209b96770fe1827d1e818d91c2e9fb0c99c05459ab1",
    );
  });

  it("differs per market and per event, also where a naive concatenation would collide", () => {
    expect(onchainMarketId("a:b", "c")).not.toBe(onchainMarketId("a", "b:c"));
    expect(onchainMarketId("ab", "c")).not.toBe(onchainMarketId("a", "bc"));
  });
});

describe("onchainOutcome", () => {
  it("is the outcome's position in its market", () => {
    expect(onchainOutcome(MARKETS, "1x2", "home")).toBe(0);
    expect(onchainOutcome(MARKETS, "1x2", "away")).toBe(2);
    expect(onchainOutcome(MARKETS, "total", "under")).toBe(1);
  });

  it("is null for an unknown market or outcome, or past the uint8 range", () => {
    expect(onchainOutcome(MARKETS, "btts", "yes")).toBeNull();
    expect(onchainOutcome(MARKETS, "total", "home")).toBeNull();
    const wide = [{ key: "m", outcomes: Array.from({ length: 300 }, (_, i) => ({ key: `o${i}` })) }];
    expect(onchainOutcome(wide, "m", "o255")).toBe(255);
    expect(onchainOutcome(wide, "m", "o256")).toBeNull();
  });
});
