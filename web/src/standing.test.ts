import { describe, expect, it } from "vitest";
import { rankMovement, spAtPosition, spToReach } from "./standing";

describe("what it takes to reach a line", () => {
  it("counts the SP missing to tie the SP at the line (ties are inside)", () => {
    expect(spToReach(361, 3502)).toBe(3141);
    expect(spToReach(3502, 3502)).toBe(0);
    expect(spToReach(4000, 3502)).toBe(0);
    expect(spToReach(0, null)).toBe(null);
  });

  it("reads the SP at a position of the first rows", () => {
    const rows = [{ competitiveSp: 610 }, { competitiveSp: 600 }, { competitiveSp: 600 }];
    expect(spAtPosition(rows, 3)).toBe(600);
    expect(spAtPosition(rows, 5)).toBe(null);
  });
});

describe("rank movement since the previous week", () => {
  it.each([
    [56, 59, { kind: "down", places: 3 }],
    [37, 1, { kind: "up", places: 36 }],
    [4, 4, { kind: "same" }],
    [null, 12, { kind: "new" }],
    [7, null, { kind: "none" }],
  ])("%s → %s", (before, now, movement) => {
    expect(rankMovement(before, now)).toEqual(movement);
  });
});
