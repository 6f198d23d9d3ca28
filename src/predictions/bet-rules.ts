/**
 * Pure checks before a bet: the event must be open (events/betting-window.ts: scheduled, never closed, no result,
 * kickoff strictly after now) and the outcome must exist on the event's market; the server's odds for it are the
 * price.
 */
import { AppError } from "../errors.js";
import { type BettingWindow, isOpenForBets } from "../events/betting-window.js";
import type { StoredMarket } from "../events/events.js";

export function assertEventOpen(event: BettingWindow & { id: string }, now: Date): void {
  if (!isOpenForBets(event, now)) {
    throw new AppError("EVENT_CLOSED", `Event ${event.id} is not open for predictions`);
  }
}

/** The server's current odds (thousandths) of `outcome` on `market`, or a 400 naming the field. */
export function currentOddsMilli(markets: unknown, market: string, outcome: string): bigint {
  const m = (markets as StoredMarket[]).find((x) => x.key === market);
  if (!m)
    throw new AppError("VALIDATION_FAILED", `body.market ${market} is not a market of this event`, [
      { field: "body.market", message: "is not a market of this event" },
    ]);
  const o = m.outcomes.find((x) => x.key === outcome);
  if (!o)
    throw new AppError("VALIDATION_FAILED", `body.outcome ${outcome} is not an outcome of market ${market}`, [
      { field: "body.outcome", message: "is not an outcome of this market" },
    ]);
  return BigInt(o.oddsMilli);
}
