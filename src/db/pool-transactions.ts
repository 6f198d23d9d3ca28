/**
 * Transactions on a pg.Pool that always give their connection back, and never give back a broken one.
 *
 * drizzle-orm's node-postgres `transaction()` (0.45.4, the latest; the same in 1.0's release candidates: drizzle-orm
 * issues #6023, #6114, #6241, still open) runs BEGIN before the try/finally that releases the pooled client. When
 * BEGIN fails (the connection died while idle in the pool, a restart's 57P01 that had not been read yet, a stalled
 * server's query_timeout), the client is never released and the pool loses that slot for the life of the process.
 * Enough of them wedge the pool: every query then waits for a free connection and fails with "timeout exceeded when
 * trying to connect", and /readyz answers 503 for ever, with the database up. The database fault drill met it after
 * a few faults in a row under load (test/drills/database-faults.ts); test/pool-transactions.db.test.ts replays it.
 * Its release also never passes the error, so a connection whose statement the client had given up on
 * (query_timeout) went back to the pool with that statement still pending, and the next checkout waited behind it.
 *
 * Here the client is checked out and released by this module, around drizzle's transaction on that one client
 * (drizzle still runs begin, commit, rollback and savepoints, and releases nothing): released on every path, and
 * closed instead (`release(err)`) when the transaction failed because its connection did (unavailable.ts
 * `isConnectionLost`). Nothing is kept in module state.
 */
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { isConnectionLost } from "./unavailable.js";

/** What is wrapped: a database handle's `transaction` (client.ts's Db, structurally: no import of client.ts). */
// biome-ignore lint/suspicious/noExplicitAny: any transaction signature is wrapped as it is
type Transacting = { transaction: (work: (tx: any) => Promise<any>, ...rest: any[]) => Promise<any> };

/** Replaces `db.transaction` (a drizzle handle over `pool`) by one that owns its pooled client; returns `db`. */
export function releasingTransactions<D extends Transacting>(db: D, pool: pg.Pool): D {
  db.transaction = (async (work: (tx: unknown) => Promise<unknown>, ...rest: unknown[]) => {
    const client = await pool.connect();
    let lost: Error | undefined;
    try {
      const onClient = drizzleNodePg({ client }) as unknown as Transacting;
      return await onClient.transaction(work, ...rest);
    } catch (err) {
      if (isConnectionLost(err)) lost = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      client.release(lost);
    }
  }) as D["transaction"];
  return db;
}
