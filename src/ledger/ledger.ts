/**
 * What other capabilities may use of the ledgers: append an SP or credits entry, move an event's competitive SP
 * between weeks and reverse an SP entry whose source vanished (a chain bet orphaned by a reorganisation), always
 * inside the caller's transaction (the ledger keeps its maintained totals in the same one), and read credits.
 * Nothing else writes ledger rows.
 *
 * Each write that changes something also records, in the same transaction, the live stream's domain event
 * `ladder.changed` `{week}` for each week whose competitive SP changed (src/domain-events/); credits.ts records
 * `balance.changed` for the credits.
 */
import type { Tx } from "../db/client.js";
import { recordDomainEventsFrom } from "../domain-events/domain-events.js";
import { ladderChangesOfThisTransaction, moveEventSp as moveEventSpRows } from "./ledger.repository.js";

// Appends (one row, many, or the rows a query selects: a settle's awards) and reversals record the ladders they
// change in the statement that writes the rows (ledger.repository.ts `appendRowsSql`), so they are the
// repository's own functions.
export {
  appendSpEntries,
  appendSpEntriesFrom,
  appendSpEntry,
  existingSpEntries,
  type NewSpEntry,
  reverseSpEntry,
  type SpLedgerRow,
  spByType,
} from "./ledger.repository.js";

/** Moves an event's competitive SP between weeks (ledger.repository.ts); records both weeks' ladder changes. */
export async function moveEventSp(
  tx: Tx,
  eventId: string,
  fromWeek: number | null,
  toWeek: number | null,
): Promise<void> {
  await moveEventSpRows(tx, eventId, fromWeek, toWeek);
  if (fromWeek !== toWeek) await recordLadderChanges(tx);
}

function recordLadderChanges(tx: Tx): Promise<void> {
  return recordDomainEventsFrom(tx, "ladder.changed", ladderChangesOfThisTransaction());
}
