/**
 * What every CLI command runs with: the database, the configuration and a clock. `main.ts` wires the real
 * ones; tests pass a test database, a test configuration and a pinned clock.
 */
import { competitionDepsFor } from "../app-deps.js";
import type { Clock } from "../clock.js";
import type { CompetitionDeps } from "../competition/competition-deps.js";
import type { Config } from "../config.js";
import type { Database, Db } from "../db/client.js";
import type { Season } from "../shared/season.js";

export interface CliContext {
  database: Database;
  config: Config;
  clock: Clock;
}

export function seasonOf(config: Config): Season {
  return { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart };
}

/** The competition use cases' dependencies, built exactly as the app builds them (the same finalize guards). */
export function competitionDeps(ctx: CliContext): CompetitionDeps {
  return competitionDepsFor(ctx.config, ctx.database, ctx.clock);
}

/**
 * Runs `work` inside one database transaction, handing it a `Db` on which every use case's own
 * `db.transaction(…)` becomes a savepoint. Many use-case calls then commit once (much faster on PGlite), and a
 * failure anywhere rolls all of them back.
 */
export function inOneTransaction<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  // A transaction is itself a Db: its nested `transaction` opens a savepoint instead of a new transaction.
  return db.transaction((tx) => work(tx));
}

/**
 * How long one transaction of a bulk job (seed-demo) may run before it commits. On the embedded database a
 * transaction holds the one connection, so every request waits for it to end: short transactions, with the event
 * loop let go between two, keep reads answering (/readyz within 1 s) while a seed runs in the server.
 */
export const TRANSACTION_SLICE_MS = 100;

/**
 * Runs `work` for each item, in order, in transactions that each commit once they have run TRANSACTION_SLICE_MS
 * (at least one item each), yielding to the event loop between two. Each commit keeps what it did: a failure
 * undoes only the slice in progress, so `work` must be idempotent for a re-run to complete the job. A slice run
 * again (a retried transaction) starts over from its first item.
 */
export async function inShortTransactions<T>(
  db: Db,
  items: readonly T[],
  work: (db: Db, item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  while (next < items.length) {
    const from = next;
    next = await db.transaction(async (tx) => {
      const startedAt = performance.now();
      let i = from;
      do {
        await work(tx, items[i]!);
        i++;
      } while (i < items.length && performance.now() - startedAt < TRANSACTION_SLICE_MS);
      return i;
    });
    // Requests that arrived meanwhile (queued on the embedded database's connection) run before the next slice.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
