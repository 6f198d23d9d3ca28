/**
 * "A transaction that recorded domain events has just committed", told in this process, per database handle.
 *
 * `signalingCommits(db, emitter)` wraps `db.transaction` so each top-level transaction runs in its own
 * AsyncLocalStorage context; `markTransactionForSignal()` (called by the outbox when it writes events, from any
 * depth: savepoints inherit the context) marks it, and once the transaction has COMMITTED the emitter fires
 * `committed`. A rolled-back transaction fires nothing; a retried one fires once, after the attempt that committed.
 *
 * It is a wake-up hint only (the live stream reads the outbox when it fires, and publishes it to the other
 * instances through Redis): a reader that misses one still finds the events at its next poll.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { EventEmitter } from "node:events";

const current = new AsyncLocalStorage<{ marked: boolean }>();

/** Marks the running transaction: its commit will be signalled. Outside a transaction, nothing. */
export function markTransactionForSignal(): void {
  const store = current.getStore();
  if (store) store.marked = true;
}

/** The event name the emitter fires after a marked transaction committed. */
export const COMMITTED = "committed";

/** What is wrapped: a database handle's `transaction` (client.ts's Db; structural, so this file imports nothing). */
// biome-ignore lint/suspicious/noExplicitAny: any transaction signature is wrapped as it is
type Transacting = { transaction: (...args: any[]) => Promise<any> };

/** Wraps `db.transaction` (see the file's contract); returns `db`. */
export function signalingCommits<D extends Transacting>(db: D, emitter: EventEmitter): D {
  const run = db.transaction.bind(db);
  db.transaction = ((...args: Parameters<D["transaction"]>) => {
    const store = { marked: false };
    return current.run(store, async () => {
      const result = await run(...args);
      if (store.marked) emitter.emit(COMMITTED);
      return result;
    });
  }) as D["transaction"];
  return db;
}
