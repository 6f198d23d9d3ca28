import { describe, expect, it } from "vitest";
import { winRate, winStreaks } from "./stats-rules.js";

describe("winRate", () => {
  it("is won / (won + lost) to 4 decimals", () => {
    expect(winRate(2, 1)).toBe(0.6667); // 2/3 = 0.66666…
    expect(winRate(1, 2)).toBe(0.3333);
    expect(winRate(1, 7)).toBe(0.125);
    expect(winRate(5, 0)).toBe(1);
  });
  it("is 0 when nothing settled", () => {
    expect(winRate(0, 0)).toBe(0);
    expect(winRate(0, 4)).toBe(0);
  });
});

describe("winStreaks", () => {
  it("counts the trailing run of wins and the longest run", () => {
    expect(winStreaks(["won", "won", "won", "lost", "won", "won"])).toEqual({ current: 2, best: 3 });
  });
  it("resets the current streak on a loss at the end", () => {
    expect(winStreaks(["won", "won", "lost"])).toEqual({ current: 0, best: 2 });
  });
  it("is zero for no results or only losses", () => {
    expect(winStreaks([])).toEqual({ current: 0, best: 0 });
    expect(winStreaks(["lost", "lost"])).toEqual({ current: 0, best: 0 });
  });
});
