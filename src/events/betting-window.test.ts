import { describe, expect, it } from "vitest";
import { bettingClosesAt, closedAtAfter, isOpenForBets } from "./betting-window.js";

const KICKOFF = new Date("2026-11-25T18:00:00.000Z"); // Wed
const BEFORE = new Date("2026-11-25T12:00:00.000Z"); // Wed, 6 h before kickoff
const AFTER = new Date("2026-11-25T20:00:00.000Z"); // Wed, 2 h after kickoff

describe("bettingClosesAt", () => {
  it("is the kickoff while nothing closed the event earlier", () => {
    expect(bettingClosesAt({ kickoffAt: KICKOFF, closedAt: null })).toEqual(KICKOFF);
  });
  it("is the stored close when it came before kickoff", () => {
    expect(bettingClosesAt({ kickoffAt: KICKOFF, closedAt: BEFORE })).toEqual(BEFORE);
  });
  it("is the kickoff when the kickoff moved before the stored close", () => {
    expect(bettingClosesAt({ kickoffAt: BEFORE, closedAt: AFTER })).toEqual(BEFORE);
  });
});

describe("isOpenForBets", () => {
  const open = { status: "scheduled", kickoffAt: KICKOFF, closedAt: null, result: null };
  it("takes bets while scheduled, unclosed, unsettled and before kickoff", () => {
    expect(isOpenForBets(open, BEFORE)).toBe(true);
  });
  it("refuses at kickoff exactly and after", () => {
    expect(isOpenForBets(open, KICKOFF)).toBe(false);
    expect(isOpenForBets(open, AFTER)).toBe(false);
  });
  it("refuses a live, finished or cancelled event before its kickoff", () => {
    for (const status of ["live", "finished", "cancelled"]) {
      expect(isOpenForBets({ ...open, status }, BEFORE)).toBe(false);
    }
  });
  it("refuses an event with a result, or closed once, even back in `scheduled`", () => {
    expect(isOpenForBets({ ...open, result: { status: "cancelled" } }, BEFORE)).toBe(false);
    expect(isOpenForBets({ ...open, closedAt: BEFORE }, BEFORE)).toBe(false);
  });
});

describe("closedAtAfter", () => {
  it("leaves a new or open scheduled event open", () => {
    expect(closedAtAfter(null, { status: "scheduled" }, BEFORE)).toBeNull();
    expect(closedAtAfter({ kickoffAt: KICKOFF, closedAt: null }, { status: "scheduled" }, BEFORE)).toBeNull();
  });
  it("closes it now when it leaves `scheduled` or gets its result before kickoff", () => {
    expect(closedAtAfter({ kickoffAt: KICKOFF, closedAt: null }, { status: "live" }, BEFORE)).toEqual(BEFORE);
    expect(closedAtAfter(null, { status: "cancelled" }, BEFORE)).toEqual(BEFORE);
    expect(
      closedAtAfter({ kickoffAt: KICKOFF, closedAt: null }, { status: "finished", result: true }, BEFORE),
    ).toEqual(BEFORE);
  });
  it("dates the close at the old kickoff when that passed first (a late status change or a postponement)", () => {
    expect(closedAtAfter({ kickoffAt: KICKOFF, closedAt: null }, { status: "finished" }, AFTER)).toEqual(
      KICKOFF,
    );
    expect(closedAtAfter({ kickoffAt: KICKOFF, closedAt: null }, { status: "scheduled" }, AFTER)).toEqual(
      KICKOFF,
    );
  });
  it("keeps the first close for good", () => {
    expect(closedAtAfter({ kickoffAt: KICKOFF, closedAt: BEFORE }, { status: "scheduled" }, AFTER)).toEqual(
      BEFORE,
    );
  });
});
