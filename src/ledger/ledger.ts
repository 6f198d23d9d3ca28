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
import type { SQL } from "drizzle-orm";
import type { Tx } from "../db/client.js";
import { recordDomainEventsFrom } from "../domain-events/domain-events.js";
import type { Season } from "../shared/season.js";
import {
  appendSpEntries as appendSpRows,
  appendSpEntriesFrom as appendSpRowsFrom,
  ladderChangesOfThisTransaction,
  moveEventSp as moveEventSpRows,
  type NewSpEntry,
  reverseSpEntry as reverseSpRow,
  type SpLedgerRow,
} from "./ledger.repository.js";

export { existingSpEntries, type NewSpEntry, type SpLedgerRow, spByType } from "./ledger.repository.js";

/**
 * Appends SP rows (ledger.repository.ts `appendSpEntries`); the statement that writes new rows records the ladders
 * they change.
 */
export function appendSpEntries(
  tx: Tx,
  season: Season,
  entries: NewSpEntry[],
): Promise<Array<{ row: SpLedgerRow; created: boolean }>> {
  return appendSpRows(tx, season, entries);
}

/**
 * Appends the SP rows a query selects, in the database (ledger.repository.ts `appendSpEntriesFrom`): for many
 * rows built from rows the database holds (a settle's awards). The statement that writes new rows records the
 * ladders they change. Returns how many rows were created.
 */
export function appendSpEntriesFrom(tx: Tx, season: Season, source: SQL): Promise<number> {
  return appendSpRowsFrom(tx, season, source);
}

/** Appends one SP row unless its externalId was seen before (see `appendSpEntries`). */
export async function appendSpEntry(
  tx: Tx,
  season: Season,
  entry: NewSpEntry,
): Promise<{ row: SpLedgerRow; created: boolean }> {
  const [result] = await appendSpEntries(tx, season, [entry]);
  return result!;
}

/**
 * Reverses an SP row (ledger.repository.ts `reverseSpEntry`); a new reversal, appended like any row, records the
 * ladders it changes.
 */
export function reverseSpEntry(
  tx: Tx,
  season: Season,
  externalId: string,
): Promise<{ row: SpLedgerRow; created: boolean } | null> {
  return reverseSpRow(tx, season, externalId);
}

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
