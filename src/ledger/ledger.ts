/**
 * What other capabilities may use of the ledgers: append an SP or credits entry, move an event's competitive SP
 * between weeks and reverse an SP entry whose source vanished (a chain bet orphaned by a reorganisation), always
 * inside the caller's transaction (the ledger keeps its maintained totals in the same one), and read credits.
 * Nothing else writes ledger rows.
 */
export {
  appendCredits,
  appendWelcomeCredits,
  type CreditReason,
  creditsBalance,
  hasCreditEntry,
} from "./credits.repository.js";
export {
  appendSpEntries,
  appendSpEntry,
  moveEventSp,
  type NewSpEntry,
  reverseSpEntry,
  type SpLedgerRow,
} from "./ledger.repository.js";
