import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { dayBounds, nextUtcMidnight, utcDay } from "./day-rules.js";
import { pickRaffleWinner } from "./raffle-rules.js";

describe("UTC days", () => {
  it("names the UTC day and its bounds", () => {
    // Fri 2026-11-20 23:59:59.999 UTC is still the 20th; 00:00 is the 21st.
    expect(utcDay(new Date("2026-11-20T23:59:59.999Z"))).toBe("2026-11-20");
    expect(utcDay(new Date("2026-11-21T00:00:00.000Z"))).toBe("2026-11-21");
    expect(dayBounds("2026-11-20")).toEqual({
      start: new Date("2026-11-20T00:00:00.000Z"),
      end: new Date("2026-11-21T00:00:00.000Z"),
    });
  });
  it("gives the next midnight strictly after the instant", () => {
    expect(nextUtcMidnight(new Date("2026-11-20T12:00:00Z"))).toEqual(new Date("2026-11-21T00:00:00Z"));
    expect(nextUtcMidnight(new Date("2026-11-21T00:00:00Z"))).toEqual(new Date("2026-11-22T00:00:00Z"));
    // Across a month end: Mon 2026-11-30 → Tue 2026-12-01.
    expect(nextUtcMidnight(new Date("2026-11-30T08:00:00Z"))).toEqual(new Date("2026-12-01T00:00:00Z"));
  });
});

describe("pickRaffleWinner", () => {
  it("is null without entrants", () => {
    expect(pickRaffleWinner("ab", "2026-11-20", [])).toBeNull();
  });
  it("picks entrants[sha256(seed:day) mod n] over ids in numeric order", () => {
    const seed = "00ff";
    const digest = BigInt(`0x${createHash("sha256").update("00ff:2026-11-20").digest("hex")}`);
    const ordered = ["2", "10", "33"];
    const expected = ordered[Number(digest % 3n)];
    // Input order does not matter: ids are sorted numerically ("10" after "2").
    expect(pickRaffleWinner(seed, "2026-11-20", ["33", "10", "2"])).toBe(expected);
  });
  it("changes with the seed", () => {
    const entrants = Array.from({ length: 50 }, (_, i) => String(i + 1));
    const picks = new Set(
      ["a1", "b2", "c3", "d4", "e5", "f6"].map((s) => pickRaffleWinner(s, "2026-11-20", entrants)),
    );
    expect(picks.size).toBeGreaterThan(1);
  });
});
