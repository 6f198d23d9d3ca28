/**
 * "A transaction that recorded domain events has just committed", told in this process, per database handle.
 *
 * `signalingCommits(db, emitter)` wraps `db.transaction` so each top-level transaction gets a mark, kept under
 * the transaction's drizzle session (one per top-level transaction; a savepoint's `tx` shares its parent's);
 * `markTransactionForSignal(tx)` (called by the outbox when it writes events, from any depth) sets it, and once the
 * transaction has COMMITTED the emitter fires `committed`. A rolled-back transaction fires nothing; a retried one
 * fires once, after the attempt that committed.
 *
 * It is a wake-up hint only (the live stream reads the outbox when it fires, and publishes it to the other
 * instances through Redis): a reader that misses one still finds the events at its next poll.
 *
 * The mark used to live in an AsyncLocalStorage context. On Node 20 that turns on promise hooks for the whole
 * process, a cost on every promise of every request: 5–10 % of the CPU of a read (docs/performance.md).
 */
import type { EventEmitter } from "node:events";

interface Mark {
  marked: boolean;
}

/** The running transactions' marks, by their session. */
const marks = new WeakMap<object, Mark>();

/** A transaction's session: drizzle's (internal) `session`, shared by its savepoints. */
function sessionOf(tx: object): object {
  return (tx as { session?: object }).session ?? tx;
}

/** Marks the transaction `tx` belongs to: its commit will be signalled. Outside a transaction, nothing. */
export function markTransactionForSignal(tx: object): void {
  const mark = marks.get(sessionOf(tx));
  if (mark) mark.marked = true;
}

/** The event name the emitter fires after a marked transaction committed. */
export const COMMITTED = "committed";

/** What is wrapped: a database handle's `transaction` (client.ts's Db; structural, so this file imports nothing). */
// biome-ignore lint/suspicious/noExplicitAny: any transaction signature is wrapped as it is
type Transacting = { transaction: (work: (tx: any) => Promise<any>, ...rest: any[]) => Promise<any> };

/** Wraps `db.transaction` (see the file's contract); returns `db`. */
export function signalingCommits<D extends Transacting>(db: D, emitter: EventEmitter): D {
  const run = db.transaction.bind(db);
  db.transaction = (async (work: (tx: object) => Promise<unknown>, ...rest: unknown[]) => {
    const mark: Mark = { marked: false };
    const result = await run(
      (tx: object) => {
        // Set at each attempt (a retried transaction runs `work` again on a new session).
        marks.set(sessionOf(tx), mark);
        return work(tx);
      },
      ...rest,
    );
    if (mark.marked) emitter.emit(COMMITTED);
    return result;
  }) as D["transaction"];
  return db;
}
