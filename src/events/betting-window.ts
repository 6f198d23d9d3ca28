/**
 * When betting on an event closes (SPEC §10), pure: an event is open while its status is `scheduled`, its kickoff
 * is in the future and no result is posted. `closedAt` is stored once, the first instant the service saw it stop
 * being open (a status change, its result, or its kickoff, whichever came first); until then its kickoff closes it.
 *
 * - `bettingClosesAt`: the instant from which no bet counts: min(closedAt, kickoffAt). A chain bet whose block time
 *   is at or after it is rejected (EVENT_CLOSED), whatever its quote says.
 * - `isOpenForBets`: whether a bet (or a quote) may be taken at `now`.
 * - `closedAtAfter`: the `closedAt` to store when an event changes at `now` (an update of its status or kickoff, or
 *   its result): the stored one when set; else the old kickoff when it has passed; else `now` when the change takes
 *   it out of `scheduled`; else null (still open).
 */
export interface BettingWindow {
  status: string;
  kickoffAt: Date;
  closedAt: Date | null;
  result?: unknown;
}

export function bettingClosesAt(e: Pick<BettingWindow, "kickoffAt" | "closedAt">): Date {
  return e.closedAt && e.closedAt.getTime() < e.kickoffAt.getTime() ? e.closedAt : e.kickoffAt;
}

export function isOpenForBets(e: BettingWindow, now: Date): boolean {
  return (
    e.status === "scheduled" &&
    e.closedAt === null &&
    (e.result ?? null) === null &&
    now.getTime() < e.kickoffAt.getTime()
  );
}

export function closedAtAfter(
  before: Pick<BettingWindow, "kickoffAt" | "closedAt"> | null,
  change: { status: string; result?: boolean },
  now: Date,
): Date | null {
  if (before?.closedAt) return before.closedAt;
  if (before && before.kickoffAt.getTime() <= now.getTime()) return before.kickoffAt;
  if (change.status !== "scheduled" || change.result) return now;
  return null;
}
