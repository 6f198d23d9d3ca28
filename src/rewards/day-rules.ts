/** UTC-day arithmetic for daily rewards, pure: the day of an instant, its bounds, the next midnight. */
const DAY_MS = 24 * 3600 * 1000;

/** "YYYY-MM-DD" of the UTC day containing `t`. */
export function utcDay(t: Date): string {
  return t.toISOString().slice(0, 10);
}

/** [00:00, next 00:00) UTC of a "YYYY-MM-DD" day. */
export function dayBounds(day: string): { start: Date; end: Date } {
  const start = new Date(`${day}T00:00:00.000Z`);
  return { start, end: new Date(start.getTime() + DAY_MS) };
}

/** The first UTC midnight strictly after `t`. */
export function nextUtcMidnight(t: Date): Date {
  return dayBounds(utcDay(t)).end;
}
