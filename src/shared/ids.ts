/**
 * Ids of rows (users, events, predictions) travel as canonical non-negative decimal integer strings (bigint
 * columns). `compareUserIds` orders them numerically without converting, so ids beyond 2^53 order correctly.
 * Pure: no I/O.
 */

/** Numeric ascending order of canonical decimal id strings: shorter first, then lexical. */
export function compareUserIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
