/**
 * Competitive SP (SPEC §3): which SP ledger rows count on the weekly ladders, and their per-user sums.
 *
 * Contract:
 * - A row counts for a week iff its type is on the allowlist (`COMPETITIVE_SP_TYPES`), it is linked to an event,
 *   and that event's kickoff lies in the week's [start, end). The time of the row itself does not matter.
 * - REFERRAL, RAFFLE and ADJUSTMENT never count, even when linked to an event.
 * - `competitiveSpByUser` is the reference implementation: competitive-sp.db.test.ts checks the per-week SP the
 *   ledger keeps in SQL (week_user_sp) against it. It sums integer SP exactly; a user appears in the result iff
 *   at least one of their rows counts.
 * - Pure: no I/O, no clock.
 */
import type { WeekBounds } from "../shared/season.js";
import { isCompetitiveType } from "../shared/sp-types.js";

/** Whether one ledger row counts towards the week with `bounds`. */
export function countsForWeek(
  row: { type: string; eventKickoffAt: Date | null },
  bounds: WeekBounds,
): boolean {
  if (!isCompetitiveType(row.type) || row.eventKickoffAt === null) return false;
  const kickoff = row.eventKickoffAt.getTime();
  return kickoff >= bounds.start.getTime() && kickoff < bounds.end.getTime();
}

/** Sum of counting SP per user for the week with `bounds`. */
export function competitiveSpByUser(
  rows: ReadonlyArray<{ userId: string; type: string; amount: number; eventKickoffAt: Date | null }>,
  bounds: WeekBounds,
): Map<string, number> {
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (!countsForWeek(row, bounds)) continue;
    totals.set(row.userId, (totals.get(row.userId) ?? 0) + row.amount);
  }
  return totals;
}
