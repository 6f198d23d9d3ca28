import { describe, expect, it } from "vitest";
import {
  currentWeek,
  isChampionsEnabled,
  type Season,
  secondsUntil,
  validateSeason,
  WEEK_MS,
  weekBounds,
  weekIndexAt,
  weekLabel,
  weekRail,
  weekStatus,
} from "./season.js";

const d = (iso: string): Date => new Date(iso);
const iso = (b: { start: Date; end: Date }) => ({ start: b.start.toISOString(), end: b.end.toISOString() });

// Week one starts Tue 2026-11-24 00:00 UTC; the opening week is 7 days long.
const SEASON: Season = {
  seasonStart: d("2026-11-17T00:00:00.000Z"), // Tue 2026-11-17 00:00 UTC
  weekOneStart: d("2026-11-24T00:00:00.000Z"), // Tue 2026-11-24 00:00 UTC
};

function season(seasonStartIso: string): Season {
  return { seasonStart: d(seasonStartIso), weekOneStart: d("2026-11-24T00:00:00.000Z") };
}

describe("WEEK_MS", () => {
  it("is 7 days in milliseconds", () => {
    expect(WEEK_MS).toBe(604_800_000);
  });
});

describe("weekIndexAt", () => {
  it("is null before the season", () => {
    expect(weekIndexAt(SEASON, d("2026-11-16T23:59:59.999Z"))).toBeNull(); // Mon 2026-11-16, 1 ms before start
    expect(weekIndexAt(SEASON, d("2020-01-01T00:00:00.000Z"))).toBeNull(); // Wed 2020-01-01
  });

  it("is 0 from the season start inclusive to week one start exclusive", () => {
    expect(weekIndexAt(SEASON, d("2026-11-17T00:00:00.000Z"))).toBe(0); // Tue 2026-11-17 00:00, start inclusive
    expect(weekIndexAt(SEASON, d("2026-11-20T12:00:00.000Z"))).toBe(0); // Fri 2026-11-20 12:00
    expect(weekIndexAt(SEASON, d("2026-11-23T23:59:59.999Z"))).toBe(0); // Mon 2026-11-23, 1 ms before week 1
  });

  it("counts 7-day blocks from week one start", () => {
    expect(weekIndexAt(SEASON, d("2026-11-24T00:00:00.000Z"))).toBe(1); // Tue 2026-11-24 00:00
    expect(weekIndexAt(SEASON, d("2026-11-30T23:59:59.999Z"))).toBe(1); // Mon 2026-11-30, 1 ms before week 2
    expect(weekIndexAt(SEASON, d("2026-12-01T00:00:00.000Z"))).toBe(2); // Tue 2026-12-01 00:00
    expect(weekIndexAt(SEASON, d("2026-12-07T23:59:59.999Z"))).toBe(2); // Mon 2026-12-07
    expect(weekIndexAt(SEASON, d("2027-11-16T00:00:00.000Z"))).toBe(52); // Tue 2027-11-16 00:00
    expect(weekIndexAt(SEASON, d("2027-11-22T23:59:59.999Z"))).toBe(52); // Mon 2027-11-22
    expect(weekIndexAt(SEASON, d("2027-11-23T00:00:00.000Z"))).toBe(53); // Tue 2027-11-23 00:00
  });

  it("handles a 1-day opening week", () => {
    const s = season("2026-11-23T00:00:00.000Z"); // Mon 2026-11-23 00:00
    expect(weekIndexAt(s, d("2026-11-22T23:59:59.999Z"))).toBeNull(); // Sun 2026-11-22
    expect(weekIndexAt(s, d("2026-11-23T00:00:00.000Z"))).toBe(0); // Mon 2026-11-23
    expect(weekIndexAt(s, d("2026-11-23T23:59:59.999Z"))).toBe(0); // Mon 2026-11-23
    expect(weekIndexAt(s, d("2026-11-24T00:00:00.000Z"))).toBe(1); // Tue 2026-11-24
  });

  it("handles a 6-day opening week", () => {
    const s = season("2026-11-18T00:00:00.000Z"); // Wed 2026-11-18 00:00
    expect(weekIndexAt(s, d("2026-11-17T23:59:59.999Z"))).toBeNull(); // Tue 2026-11-17
    expect(weekIndexAt(s, d("2026-11-18T00:00:00.000Z"))).toBe(0); // Wed 2026-11-18
    expect(weekIndexAt(s, d("2026-11-24T00:00:00.000Z"))).toBe(1); // Tue 2026-11-24
  });

  it("handles a 20-day opening week", () => {
    const s = season("2026-11-04T00:00:00.000Z"); // Wed 2026-11-04 00:00
    expect(weekIndexAt(s, d("2026-11-03T23:59:59.999Z"))).toBeNull(); // Tue 2026-11-03
    expect(weekIndexAt(s, d("2026-11-04T00:00:00.000Z"))).toBe(0); // Wed 2026-11-04
    expect(weekIndexAt(s, d("2026-11-17T00:00:00.000Z"))).toBe(0); // Tue 2026-11-17, still week 0 after 13 days
    expect(weekIndexAt(s, d("2026-11-23T23:59:59.999Z"))).toBe(0); // Mon 2026-11-23
    expect(weekIndexAt(s, d("2026-11-24T00:00:00.000Z"))).toBe(1); // Tue 2026-11-24
  });

  it("handles an opening week that starts mid-day", () => {
    const s = season("2026-11-23T18:30:00.000Z"); // Mon 2026-11-23 18:30
    expect(weekIndexAt(s, d("2026-11-23T18:29:59.999Z"))).toBeNull();
    expect(weekIndexAt(s, d("2026-11-23T18:30:00.000Z"))).toBe(0);
  });

  it("rejects an invalid instant", () => {
    expect(() => weekIndexAt(SEASON, d("not a date"))).toThrow(RangeError);
  });
});

describe("weekBounds", () => {
  it("gives the opening week as [seasonStart, weekOneStart)", () => {
    expect(iso(weekBounds(SEASON, 0))).toEqual({
      start: "2026-11-17T00:00:00.000Z",
      end: "2026-11-24T00:00:00.000Z",
    });
    expect(iso(weekBounds(season("2026-11-23T00:00:00.000Z"), 0))).toEqual({
      start: "2026-11-23T00:00:00.000Z", // Mon 2026-11-23, 1-day opening week
      end: "2026-11-24T00:00:00.000Z",
    });
    expect(iso(weekBounds(season("2026-11-04T00:00:00.000Z"), 0))).toEqual({
      start: "2026-11-04T00:00:00.000Z", // Wed 2026-11-04, 20-day opening week
      end: "2026-11-24T00:00:00.000Z",
    });
  });

  it("gives Tuesday-to-Tuesday weeks from week 1", () => {
    expect(iso(weekBounds(SEASON, 1))).toEqual({
      start: "2026-11-24T00:00:00.000Z", // Tue 2026-11-24
      end: "2026-12-01T00:00:00.000Z", // Tue 2026-12-01
    });
    expect(iso(weekBounds(SEASON, 2))).toEqual({
      start: "2026-12-01T00:00:00.000Z", // Tue 2026-12-01
      end: "2026-12-08T00:00:00.000Z", // Tue 2026-12-08
    });
    expect(iso(weekBounds(SEASON, 6))).toEqual({
      start: "2026-12-29T00:00:00.000Z", // Tue 2026-12-29, crosses the year end
      end: "2027-01-05T00:00:00.000Z", // Tue 2027-01-05
    });
    expect(iso(weekBounds(SEASON, 52))).toEqual({
      start: "2027-11-16T00:00:00.000Z", // Tue 2027-11-16
      end: "2027-11-23T00:00:00.000Z", // Tue 2027-11-23
    });
  });

  it("does not depend on the opening week length for weeks ≥ 1", () => {
    expect(iso(weekBounds(season("2026-11-04T00:00:00.000Z"), 1))).toEqual(iso(weekBounds(SEASON, 1)));
  });

  it("agrees with weekIndexAt at both ends of every week", () => {
    for (let w = 0; w <= 60; w++) {
      const { start, end } = weekBounds(SEASON, w);
      expect(weekIndexAt(SEASON, start)).toBe(w);
      expect(weekIndexAt(SEASON, new Date(end.getTime() - 1))).toBe(w);
      expect(weekIndexAt(SEASON, end)).toBe(w + 1);
    }
  });

  it("returns fresh Date objects", () => {
    const b = weekBounds(SEASON, 0);
    b.start.setTime(0);
    expect(SEASON.seasonStart.toISOString()).toBe("2026-11-17T00:00:00.000Z");
  });

  it("rejects negative and fractional weeks", () => {
    expect(() => weekBounds(SEASON, -1)).toThrow(RangeError);
    expect(() => weekBounds(SEASON, 1.5)).toThrow(RangeError);
    expect(() => weekBounds(SEASON, Number.NaN)).toThrow(RangeError);
  });
});

describe("weekLabel", () => {
  it("labels the opening week and numbered weeks", () => {
    expect(weekLabel(0)).toBe("Opening week");
    expect(weekLabel(1)).toBe("Week 1");
    expect(weekLabel(2)).toBe("Week 2");
    expect(weekLabel(52)).toBe("Week 52");
  });
});

describe("currentWeek", () => {
  it("is 0 before the season and in the opening week", () => {
    expect(currentWeek(SEASON, d("2026-01-01T00:00:00.000Z"))).toBe(0); // Thu 2026-01-01, pre-season
    expect(currentWeek(SEASON, d("2026-11-16T23:59:59.999Z"))).toBe(0); // Mon 2026-11-16, pre-season
    expect(currentWeek(SEASON, d("2026-11-17T00:00:00.000Z"))).toBe(0); // Tue 2026-11-17
  });

  it("is the week of now afterwards", () => {
    expect(currentWeek(SEASON, d("2026-11-24T00:00:00.000Z"))).toBe(1); // Tue 2026-11-24
    expect(currentWeek(SEASON, d("2026-12-03T15:00:00.000Z"))).toBe(2); // Thu 2026-12-03
    expect(currentWeek(SEASON, d("2027-11-20T00:00:00.000Z"))).toBe(52); // Sat 2027-11-20
  });
});

describe("isChampionsEnabled", () => {
  it("is off for the opening week only", () => {
    expect(isChampionsEnabled(0)).toBe(false);
    expect(isChampionsEnabled(1)).toBe(true);
    expect(isChampionsEnabled(52)).toBe(true);
  });
});

describe("weekStatus", () => {
  it("is upcoming before the start, live from the start, ended from the end", () => {
    // week 1 = [Tue 2026-11-24, Tue 2026-12-01)
    expect(weekStatus(SEASON, 1, d("2026-11-23T23:59:59.999Z"), false)).toBe("upcoming"); // Mon 2026-11-23
    expect(weekStatus(SEASON, 1, d("2026-11-24T00:00:00.000Z"), false)).toBe("live"); // Tue 2026-11-24
    expect(weekStatus(SEASON, 1, d("2026-11-30T23:59:59.999Z"), false)).toBe("live"); // Mon 2026-11-30
    expect(weekStatus(SEASON, 1, d("2026-12-01T00:00:00.000Z"), false)).toBe("ended"); // Tue 2026-12-01
    expect(weekStatus(SEASON, 1, d("2027-06-01T00:00:00.000Z"), false)).toBe("ended"); // Tue 2027-06-01
  });

  it("treats the opening week the same way", () => {
    expect(weekStatus(SEASON, 0, d("2026-11-01T00:00:00.000Z"), false)).toBe("upcoming"); // Sun 2026-11-01
    expect(weekStatus(SEASON, 0, d("2026-11-17T00:00:00.000Z"), false)).toBe("live"); // Tue 2026-11-17
    expect(weekStatus(SEASON, 0, d("2026-11-24T00:00:00.000Z"), false)).toBe("ended"); // Tue 2026-11-24
  });

  it("lets finalized win over the clock", () => {
    expect(weekStatus(SEASON, 1, d("2026-12-01T00:00:00.000Z"), true)).toBe("finalized"); // Tue 2026-12-01
    expect(weekStatus(SEASON, 1, d("2026-11-25T00:00:00.000Z"), true)).toBe("finalized"); // Wed 2026-11-25
    expect(weekStatus(SEASON, 1, d("2026-11-01T00:00:00.000Z"), true)).toBe("finalized"); // Sun 2026-11-01
  });
});

describe("weekRail", () => {
  const never = () => false;

  it("lists the opening week and week 1 before the season", () => {
    const rail = weekRail(SEASON, d("2026-11-10T00:00:00.000Z"), never); // Tue 2026-11-10, pre-season
    expect(rail).toEqual([
      {
        week: 0,
        label: "Opening week",
        startsAt: d("2026-11-17T00:00:00.000Z"),
        endsAt: d("2026-11-24T00:00:00.000Z"),
        status: "upcoming",
        provisional: true,
        championsEnabled: false,
      },
      {
        week: 1,
        label: "Week 1",
        startsAt: d("2026-11-24T00:00:00.000Z"),
        endsAt: d("2026-12-01T00:00:00.000Z"),
        status: "upcoming",
        provisional: true,
        championsEnabled: true,
      },
    ]);
  });

  it("runs from 0 to currentWeek + 1 with statuses and provisional flags", () => {
    const finalized = new Set([0, 1]);
    const rail = weekRail(SEASON, d("2026-12-09T10:00:00.000Z"), (w) => finalized.has(w)); // Wed 2026-12-09, week 3
    expect(rail.map((r) => r.week)).toEqual([0, 1, 2, 3, 4]);
    expect(rail.map((r) => r.label)).toEqual(["Opening week", "Week 1", "Week 2", "Week 3", "Week 4"]);
    expect(rail.map((r) => r.status)).toEqual(["finalized", "finalized", "ended", "live", "upcoming"]);
    expect(rail.map((r) => r.provisional)).toEqual([false, false, true, true, true]);
    expect(rail.map((r) => r.championsEnabled)).toEqual([false, true, true, true, true]);
    expect(rail.map((r) => r.startsAt.toISOString())).toEqual([
      "2026-11-17T00:00:00.000Z",
      "2026-11-24T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
      "2026-12-08T00:00:00.000Z",
      "2026-12-15T00:00:00.000Z",
    ]);
    expect(rail.map((r) => r.endsAt.toISOString())).toEqual([
      "2026-11-24T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
      "2026-12-08T00:00:00.000Z",
      "2026-12-15T00:00:00.000Z",
      "2026-12-22T00:00:00.000Z",
    ]);
  });

  it("moves to the next week exactly at the boundary", () => {
    // Tue 2026-12-01 00:00 UTC: week 2 starts
    const rail = weekRail(SEASON, d("2026-12-01T00:00:00.000Z"), never);
    expect(rail.map((r) => r.status)).toEqual(["ended", "ended", "live", "upcoming"]);
    // Mon 2026-11-30 23:59:59.999 UTC: still week 1
    const before = weekRail(SEASON, d("2026-11-30T23:59:59.999Z"), never);
    expect(before.map((r) => r.status)).toEqual(["ended", "live", "upcoming"]);
  });

  it("asks isFinalized about every listed week", () => {
    const asked: number[] = [];
    weekRail(SEASON, d("2026-11-25T00:00:00.000Z"), (w) => {
      // Wed 2026-11-25, week 1
      asked.push(w);
      return false;
    });
    expect(asked).toEqual([0, 1, 2]);
  });
});

describe("validateSeason", () => {
  it("accepts a Tuesday 00:00 UTC week one start after the season start", () => {
    // Tue 2026-11-24 00:00 UTC after Tue 2026-11-17
    expect(validateSeason(d("2026-11-17T00:00:00.000Z"), d("2026-11-24T00:00:00.000Z"))).toBeNull();
    // 1 ms opening week is still strictly after
    expect(validateSeason(d("2026-11-23T23:59:59.999Z"), d("2026-11-24T00:00:00.000Z"))).toBeNull();
    // 20-day opening week starting on a Wednesday
    expect(validateSeason(d("2026-11-04T00:00:00.000Z"), d("2026-11-24T00:00:00.000Z"))).toBeNull();
  });

  it("rejects a Monday", () => {
    // Mon 2026-11-23 00:00 UTC
    expect(validateSeason(d("2026-11-17T00:00:00.000Z"), d("2026-11-23T00:00:00.000Z"))).toMatch(/Tuesday/);
  });

  it("rejects a Wednesday", () => {
    // Wed 2026-11-25 00:00 UTC
    expect(validateSeason(d("2026-11-17T00:00:00.000Z"), d("2026-11-25T00:00:00.000Z"))).toMatch(/Tuesday/);
  });

  it("rejects a Tuesday that is not exactly midnight UTC", () => {
    // Tue 2026-11-24 00:00:01 UTC
    expect(validateSeason(d("2026-11-17T00:00:00.000Z"), d("2026-11-24T00:00:01.000Z"))).toMatch(/Tuesday/);
    // Tue 2026-11-24 00:00:00.001 UTC
    expect(validateSeason(d("2026-11-17T00:00:00.000Z"), d("2026-11-24T00:00:00.001Z"))).toMatch(/Tuesday/);
    // Tue 2026-11-24 00:00 in UTC+01:00 = Mon 2026-11-23 23:00 UTC
    expect(validateSeason(d("2026-11-17T00:00:00.000Z"), d("2026-11-24T00:00:00.000+01:00"))).toMatch(
      /Tuesday/,
    );
  });

  it("rejects a week one start not strictly after the season start", () => {
    // equal instants, Tue 2026-11-24
    expect(validateSeason(d("2026-11-24T00:00:00.000Z"), d("2026-11-24T00:00:00.000Z"))).toMatch(/after/);
    // season start Wed 2026-11-25, after week one
    expect(validateSeason(d("2026-11-25T00:00:00.000Z"), d("2026-11-24T00:00:00.000Z"))).toMatch(/after/);
  });

  it("rejects invalid dates", () => {
    expect(validateSeason(d("nope"), d("2026-11-24T00:00:00.000Z"))).toMatch(/season start/);
    expect(validateSeason(d("2026-11-17T00:00:00.000Z"), d("nope"))).toMatch(/week one start/);
  });
});

describe("secondsUntil", () => {
  const end = d("2026-12-01T00:00:00.000Z"); // Tue 2026-12-01 00:00 UTC

  it("counts whole seconds rounded up", () => {
    expect(secondsUntil(end, d("2026-11-30T23:59:59.000Z"))).toBe(1);
    expect(secondsUntil(end, d("2026-11-30T23:59:59.999Z"))).toBe(1); // 1 ms left still shows 1 s
    expect(secondsUntil(end, d("2026-11-30T23:59:58.500Z"))).toBe(2);
    expect(secondsUntil(end, d("2026-11-24T00:00:00.000Z"))).toBe(604_800); // Tue 2026-11-24, a full week
  });

  it("is 0 at and after the end", () => {
    expect(secondsUntil(end, end)).toBe(0);
    expect(Object.is(secondsUntil(end, d("2026-12-01T00:00:00.400Z")), 0)).toBe(true); // no -0
    expect(secondsUntil(end, d("2026-12-02T00:00:00.000Z"))).toBe(0);
  });
});
