/**
 * What other capabilities may use of the events: the event record and its stored markets, lookups, and the row
 * locks a bet or a settlement takes on its event; settlement stores the result on the event.
 */
export {
  type EventRow,
  findEvent,
  findEvents,
  lockEvent,
  lockEventForBet,
  type StoredMarket,
  updateEvent,
} from "./events.repository.js";
