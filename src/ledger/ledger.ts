/**
 * What other capabilities may use of the ledgers: append an SP or credits entry and move an event's competitive
 * SP between weeks, always inside the caller's transaction (the ledger keeps its maintained totals in the same
 * one), and read credits. Nothing else writes ledger rows.
 */
export { appendCredits, type CreditReason, creditsBalance, hasCreditEntry } from "./credits.repository.js";
export { appendSpEntry, moveEventSp, type NewSpEntry, type SpLedgerRow } from "./ledger.repository.js";
