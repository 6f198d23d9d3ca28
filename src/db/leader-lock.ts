/**
 * Leader locks: at most one holder of a key at a time, so only one service instance runs a chain job when several
 * share a database. A holder keeps the lock across runs until it releases it or loses its connection.
 *
 * - PostgreSQL (`postgresLeaderLock`): a session advisory lock (`pg_try_advisory_lock`) on a dedicated connection
 *   outside the pool. The server frees it when that connection ends, so a crashed instance never holds it; each
 *   `acquire` re-checks the connection and reconnects (and re-tries the lock) after losing it.
 * - PGlite (`processLeaderLock`): the embedded database belongs to one process, so the lock is in memory, per
 *   database object.
 * Losing a lock mid-run cannot double-count: the indexer's cursor moves only from where it was read
 * (chain.repository.ts) and fee records are unique per (txHash, logIndex).
 */
import pg from "pg";
import { endWithin } from "./end-connection.js";

export interface LeaderLock {
  /** True when this holder has the lock (taking it if free); false while someone else holds it. */
  acquire(): Promise<boolean>;
  /** Gives the lock up (no-op when not held). */
  release(): Promise<void>;
}

/** Advisory lock keys, beside the migration lock (727_001) of db/client.ts. */
export const LOCK_KEYS = {
  feeIndexer: 727_002,
  betIndexer: 727_003,
  prizeClaimIndexer: 727_004,
  payoutIndexer: 727_005,
  autoFinalize: 727_006,
} as const;

/** The most a lock's statement (a check, a try) waits for its answer before the connection is given up. */
export const LOCK_QUERY_TIMEOUT_MS = 10_000;
/**
 * Every wait is bounded: the connection by 5 s, each statement by `queryTimeoutMs` (a connection that died without
 * a word, as behind a NAT that forgot it, would otherwise hold the job's run for ever: its next run never came),
 * ending the connection by end-connection.ts's bound.
 */
export function postgresLeaderLock(
  databaseUrl: string,
  key: number,
  opts: { queryTimeoutMs?: number } = {},
): LeaderLock {
  let client: pg.Client | null = null;
  let held = false;
  const drop = () => {
    const c = client;
    client = null;
    held = false;
    if (c) void endWithin(c);
  };
  return {
    async acquire() {
      try {
        if (!client) {
          const c = new pg.Client({
            connectionString: databaseUrl,
            connectionTimeoutMillis: 5000,
            query_timeout: opts.queryTimeoutMs ?? LOCK_QUERY_TIMEOUT_MS,
          });
          c.on("error", () => {
            if (client === c) drop();
          });
          await c.connect();
          client = c;
        }
        if (held) {
          await client.query("select 1");
          return true;
        }
        const res = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1) as ok", [key]);
        held = res.rows[0]?.ok === true;
        return held;
      } catch (err) {
        drop();
        throw err;
      }
    },
    async release() {
      const c = client;
      client = null;
      held = false;
      // Ending the session frees its advisory locks.
      if (c) await endWithin(c);
    },
  };
}

const localHolders = new WeakMap<object, Map<number, object>>();

/** An in-process lock, per `scope` (the database object) and key. */
export function processLeaderLock(scope: object, key: number): LeaderLock {
  const self = {};
  const holders = () => {
    const m = localHolders.get(scope) ?? new Map<number, object>();
    localHolders.set(scope, m);
    return m;
  };
  return {
    async acquire() {
      const m = holders();
      const holder = m.get(key);
      if (holder === undefined) m.set(key, self);
      return (holder ?? self) === self;
    },
    async release() {
      const m = holders();
      if (m.get(key) === self) m.delete(key);
    },
  };
}

/** The lock for the engine in use: advisory on PostgreSQL (needs its URL), in-process on PGlite. */
export function leaderLockFor(databaseUrl: string | null, scope: object, key: number): LeaderLock {
  return databaseUrl ? postgresLeaderLock(databaseUrl, key) : processLeaderLock(scope, key);
}
