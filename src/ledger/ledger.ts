/**
 * What other capabilities may use of the ledgers: append an SP or credits entry, move an event's competitive SP
 * between weeks and reverse an SP entry whose source vanished (a chain bet orphaned by a reorganisation), always
 * inside the caller's transaction (the ledger keeps its maintained totals in the same one), and read credits.
 * Nothing else writes ledger rows.
 *
 * Each write that changes something also records, in the same transaction, the live stream's domain events
 * (src/domain-events/): `balance.changed` `{credits}` for the player whose credits moved (private to him), and
 * `ladder.changed` `{week}` for each week whose competitive SP changed.
 */
import type { Season } from "../competition/calendar.js";
import type { Tx } from "../db/client.js";
import { recordDomainEvent, recordDomainEventsFrom } from "../domain-events/domain-events.js";
import { appendCredits as appendCreditRow, type CreditReason } from "./credits.repository.js";
import {
  appendSpEntries as appendSpRows,
  ladderChangesOfThisTransaction,
  moveEventSp as moveEventSpRows,
  type NewSpEntry,
  reverseSpEntry as reverseSpRow,
  type SpLedgerRow,
} from "./ledger.repository.js";

export { type CreditReason, creditsBalance, hasCreditEntry } from "./credits.repository.js";
export type { NewSpEntry, SpLedgerRow } from "./ledger.repository.js";

/**
 * Appends one credit row and moves the balance by `amount` (credits.repository.ts); a new row also records
 * `balance.changed` with the new balance.
 */
export async function appendCredits(
  tx: Tx,
  entry: { userId: bigint; reason: CreditReason; amount: number; externalId: string },
): Promise<{ created: boolean; balance: number }> {
  const done = await appendCreditRow(tx, entry);
  if (done.created) {
    await recordDomainEvent(tx, {
      type: "balance.changed",
      payload: { credits: done.balance },
      userId: entry.userId,
    });
  }
  return done;
}

/** Appends SP rows (ledger.repository.ts `appendSpEntries`); new rows record the ladders they change. */
export async function appendSpEntries(
  tx: Tx,
  season: Season,
  entries: NewSpEntry[],
): Promise<Array<{ row: SpLedgerRow; created: boolean }>> {
  const results = await appendSpRows(tx, season, entries);
  if (results.some((r) => r.created)) await recordLadderChanges(tx);
  return results;
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

/** Reverses an SP row (ledger.repository.ts `reverseSpEntry`); a new reversal records the ladders it changes. */
export async function reverseSpEntry(
  tx: Tx,
  season: Season,
  externalId: string,
): Promise<{ row: SpLedgerRow; created: boolean } | null> {
  const reversal = await reverseSpRow(tx, season, externalId);
  if (reversal?.created) await recordLadderChanges(tx);
  return reversal;
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
