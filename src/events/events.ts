/**
 * What other capabilities may use of the events: the event record and its stored markets, lookups, the row
 * locks a bet or a settlement takes on its event, and when betting on it closes; settlement stores the result on
 * the event.
 */
export { type BettingWindow, bettingClosesAt, closedAtAfter, isOpenForBets } from "./betting-window.js";
export {
  type EventRow,
  eventOpenForBets,
  findEvent,
  findEvents,
  lockEvent,
  lockEventAgainstBets,
  lockEventForBet,
  type StoredMarket,
  updateEvent,
} from "./events.repository.js";
