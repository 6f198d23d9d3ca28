/**
 * Competition calendar (SPEC §2): week indexes, week bounds, labels, statuses and the week rail.
 *
 * Contract:
 * - Pure: no clock reads, `now` is always an argument; all arithmetic is on UTC epoch milliseconds.
 * - Week 0 ("Opening week") is [seasonStart, weekOneStart) and may have any positive length.
 * - Week N ≥ 1 is [weekOneStart + (N−1)·7d, weekOneStart + N·7d). Every interval is start-inclusive,
 *   end-exclusive.
 * - Before seasonStart an instant has no week (`weekIndexAt` → null); the current week is then 0 with status
 *   "upcoming".
 * - A `Season` is assumed valid (`validateSeason` returns null for it); configuration validates it once.
 * - Invalid arguments (negative or fractional week, invalid Date) throw `RangeError`: they are programming errors,
 *   request input is validated by schemas before it gets here.
 */

export interface Season {
  seasonStart: Date;
  weekOneStart: Date;
}

/** A half-open UTC interval [start, end). */
export interface WeekBounds {
  start: Date;
  end: Date;
}

export const WEEK_STATUSES = ["upcoming", "live", "ended", "finalized"] as const;
export type WeekStatus = (typeof WEEK_STATUSES)[number];

export interface RailWeek {
  week: number;
  label: string;
  startsAt: Date;
  endsAt: Date;
  status: WeekStatus;
  provisional: boolean;
  championsEnabled: boolean;
}

export const WEEK_MS = 7 * 24 * 3600 * 1000;

/** The largest week index a request may name (about 1,900 years of weeks). */
export const MAX_WEEK = 100_000;

const TUESDAY = 2;

function millis(d: Date, name: string): number {
  const ms = d.getTime();
  if (Number.isNaN(ms)) throw new RangeError(`${name} is not a valid date`);
  return ms;
}

/**
 * The one check of a week index: a non-negative safe integer, else `RangeError`. Request input is bounded
 * before it gets here by the route schemas (`Week` in competition/schema.ts, at most `MAX_WEEK`).
 */
export function assertWeek(week: number): void {
  if (!Number.isSafeInteger(week) || week < 0) {
    throw new RangeError(`week must be a non-negative integer, got ${week}`);
  }
}

/** Week index of instant `t`: null before the season, 0 in the opening week, else 1 + whole weeks since week one. */
export function weekIndexAt(season: Season, t: Date): number | null {
  const ms = millis(t, "t");
  const seasonStart = millis(season.seasonStart, "seasonStart");
  const weekOneStart = millis(season.weekOneStart, "weekOneStart");
  if (ms < seasonStart) return null;
  if (ms < weekOneStart) return 0;
  return 1 + Math.floor((ms - weekOneStart) / WEEK_MS);
}

/** The [start, end) interval of `week`. */
export function weekBounds(season: Season, week: number): WeekBounds {
  assertWeek(week);
  if (week === 0) {
    return { start: new Date(season.seasonStart.getTime()), end: new Date(season.weekOneStart.getTime()) };
  }
  const start = season.weekOneStart.getTime() + (week - 1) * WEEK_MS;
  return { start: new Date(start), end: new Date(start + WEEK_MS) };
}

/** "Opening week" for week 0, "Week N" otherwise. */
export function weekLabel(week: number): string {
  assertWeek(week);
  return week === 0 ? "Opening week" : `Week ${week}`;
}

/** The week of `now`; 0 before the season has started. */
export function currentWeek(season: Season, now: Date): number {
  return weekIndexAt(season, now) ?? 0;
}

/** The Champions ladder runs from week 1 onward; the opening week has only the Qualification ladder. */
export function isChampionsEnabled(week: number): boolean {
  return week >= 1;
}

/** `finalized` wins; otherwise upcoming (now < start), live (start ≤ now < end) or ended (now ≥ end). */
export function weekStatus(season: Season, week: number, now: Date, finalized: boolean): WeekStatus {
  if (finalized) return "finalized";
  const { start, end } = weekBounds(season, week);
  const ms = millis(now, "now");
  if (ms < start.getTime()) return "upcoming";
  if (ms < end.getTime()) return "live";
  return "ended";
}

/** Weeks 0 .. currentWeek + 1 with their bounds and status, for the meta endpoint's week rail. */
export function weekRail(season: Season, now: Date, isFinalized: (week: number) => boolean): RailWeek[] {
  const last = currentWeek(season, now) + 1;
  const rail: RailWeek[] = [];
  for (let week = 0; week <= last; week++) {
    const { start, end } = weekBounds(season, week);
    const status = weekStatus(season, week, now, isFinalized(week));
    rail.push({
      week,
      label: weekLabel(week),
      startsAt: start,
      endsAt: end,
      status,
      provisional: status !== "finalized",
      championsEnabled: isChampionsEnabled(week),
    });
  }
  return rail;
}

/**
 * Checks the two season constants; returns a human-readable error message, or null when valid.
 * weekOneStart must be a Tuesday 00:00:00.000 UTC, strictly after seasonStart.
 */
export function validateSeason(seasonStart: Date, weekOneStart: Date): string | null {
  if (!(seasonStart instanceof Date) || Number.isNaN(seasonStart.getTime())) {
    return "season start is not a valid date";
  }
  if (!(weekOneStart instanceof Date) || Number.isNaN(weekOneStart.getTime())) {
    return "week one start is not a valid date";
  }
  const midnight =
    weekOneStart.getUTCHours() === 0 &&
    weekOneStart.getUTCMinutes() === 0 &&
    weekOneStart.getUTCSeconds() === 0 &&
    weekOneStart.getUTCMilliseconds() === 0;
  if (weekOneStart.getUTCDay() !== TUESDAY || !midnight) {
    return `week one start must be a Tuesday 00:00:00.000 UTC, got ${weekOneStart.toISOString()}`;
  }
  if (weekOneStart.getTime() <= seasonStart.getTime()) {
    return "week one start must be after the season start";
  }
  return null;
}

/** Whole seconds from `now` to `end`, rounded up, never negative (a countdown). */
export function secondsUntil(end: Date, now: Date): number {
  return Math.max(0, Math.ceil((millis(end, "end") - millis(now, "now")) / 1000));
}
