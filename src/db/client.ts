/**
 * The database: embedded PostgreSQL (PGlite) in DATA_DIR when no DATABASE_URL is given, a PostgreSQL server
 * otherwise. Both speak the same SQL and run the same migrations (at open, under an advisory lock so several
 * instances starting together migrate once).
 */
import { EventEmitter } from "node:events";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { Config } from "../config.js";
import { COMMITTED, signalingCommits } from "./commit-signal.js";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.js";
import { listenPostgres, type PgListener } from "./pg-listener.js";
import { createClusterApart, hasCluster } from "./pglite-cluster.js";
import { withoutRepeatedParsers } from "./pglite-parsers.js";
import { releasingTransactions } from "./pool-transactions.js";

/**
 * No schema is given to drizzle: nothing uses its relational queries (`db.query.<table>`), and with a schema every
 * transaction built one query builder per table (docs/performance.md, "Session 16").
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Anything that runs queries: the database itself or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  /**
   * The same database for work that is long by nature at scale (finalize of a million-player week snapshots the
   * whole ladder in one statement): on PostgreSQL a small second pool whose statements may run
   * `bulkStatementTimeoutMs`, so the short bound of `db` keeps guarding every request; embedded, `db` itself.
   */
  bulkDb: Db;
  engine: "pglite" | "postgres";
  /**
   * Embedded only: a counter of completed writes (statements other than SELECT, and transactions). One process
   * owns an embedded database, so when it has not moved, nothing in the database has changed.
   */
  changeCount?: () => number;
  /** Embedded in a DATA_DIR only: the lock that makes this process its one writer (data-dir-lock.ts). */
  dataDirLock?: DataDirLock;
  /** Embedded only: a gzipped tar of the whole data directory, consistent (PGlite's `dumpDataDir`). */
  dumpDataDir?: () => Promise<Blob>;
  /**
   * Calls `listener` each time a transaction of THIS handle that recorded domain events has committed (in this
   * process only: commit-signal.ts); returns the function that stops it.
   */
  onEventsCommitted(listener: () => void): () => void;
  /**
   * PostgreSQL only: `LISTEN channel` on a dedicated connection, kept up (pg-listener.ts); `onNotify` on every
   * notification and after each reconnection. Absent on the embedded database (one process owns it).
   */
  listen?: (channel: string, onNotify: () => void) => PgListener;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** PostgreSQL only: each pool's connections now (the request pool, the bulk pool), for /metrics. */
  poolStats?: () => PoolStats[];
  close(): Promise<void>;
}

/** One pool's connections at an instant: checked out, idle, and the queries waiting for one. */
export interface PoolStats {
  pool: "requests" | "bulk";
  /** Its most connections (DATABASE_POOL_SIZE, or the bulk pool's). */
  size: number;
  busy: number;
  idle: number;
  waiting: number;
}

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** Arbitrary constant: the advisory lock key that serialises migrations across instances. */
const MIGRATION_LOCK_KEY = 727_001;

export interface OpenOptions {
  databaseUrl: string | null;
  /** Folder for the embedded database; null keeps it in memory (tests). */
  dataDir: string | null;
  poolSize?: number;
  /**
   * PostgreSQL only. The most one statement may run: the server cancels it at this bound (`statement_timeout`),
   * and the client gives up 500 ms later when the server does not answer at all (`query_timeout`: a stalled or
   * unreachable server). Default 5000.
   */
  statementTimeoutMs?: number;
  /** PostgreSQL only. The most one statement of `bulkDb` may run, with the same client grace. Default 120000. */
  bulkStatementTimeoutMs?: number;
  /** PostgreSQL only. The most a query waits for a connection (opening one, or a free one of the pool). Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Embedded only: a data directory image (PGlite `dumpDataDir`) to start from instead of an empty database, e.g. a
   * migrated template: the tests clone one per file instead of creating and migrating each (migrations still run,
   * and find nothing left to do).
   */
  pgliteImage?: Blob;
  /**
   * Embedded only: how long to wait for a DATA_DIR another process holds before DataDirLockedError (default: the
   * lock's own wait, for a holder that is letting go). The CLI asks first without waiting: the holder is usually a
   * running server to send the command to.
   */
  lockWaitSeconds?: number;
}

/** Connections of the bulk pool: finalize and the like run one at a time per instance. */
const BULK_POOL_SIZE = 2;

/** How much longer than `statement_timeout` the client waits before it gives up on a silent server. */
const CLIENT_GRACE_MS = 500;

/** Opens the database and brings its schema up to date. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (!opts.databaseUrl) return openPglite(opts.dataDir, opts.pgliteImage, opts.lockWaitSeconds);
  return openPostgres(opts.databaseUrl, {
    poolSize: opts.poolSize ?? 10,
    statementTimeoutMs: opts.statementTimeoutMs ?? 5000,
    bulkStatementTimeoutMs: opts.bulkStatementTimeoutMs ?? 120_000,
    connectTimeoutMs: opts.connectTimeoutMs ?? 5000,
  });
}

/**
 * Opens PGlite in `dataDir` (in memory when null). A DATA_DIR has one writer: another process holding its lock
 * (data-dir-lock.ts) makes this throw DataDirLockedError before anything is opened (two PGlite instances on one
 * folder lose writes).
 */
async function openPglite(dataDir: string | null, image?: Blob, lockWaitSeconds?: number): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const lock = dataDir ? await acquireDataDirLock(dataDir, lockWaitSeconds) : undefined;
  try {
    // A new DATA_DIR's cluster is created by a child process, so this one never holds initdb's memory.
    if (dataDir && !image && !hasCluster(dataDir)) await createClusterApart(dataDir);
    const client = new PGlite({ ...(dataDir ? { dataDir } : {}), ...(image ? { loadDataDir: image } : {}) });
    await withoutRepeatedParsers(client);
    const changeCount = countWrites(client);
    const db = drizzlePglite({ client });
    await migratePglite(db, { migrationsFolder });
    const commits = new EventEmitter().setMaxListeners(0);
    const signaling = signalingCommits(db as unknown as Db, commits);
    return {
      db: signaling,
      bulkDb: signaling,
      engine: "pglite",
      onEventsCommitted: (listener) => onCommitted(commits, listener),
      changeCount,
      ...(lock ? { dataDirLock: lock } : {}),
      dumpDataDir: () => client.dumpDataDir("gzip"),
      ping: async () => {
        await client.query("select 1");
      },
      close: async () => {
        try {
          await client.close();
        } finally {
          await lock?.release();
        }
      },
    };
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

function onCommitted(commits: EventEmitter, listener: () => void): () => void {
  commits.on(COMMITTED, listener);
  return () => commits.off(COMMITTED, listener);
}

/** Counts writes that completed on an embedded database (bumped after commit, so a reader never races it). */
function countWrites(client: PGlite): () => number {
  let writes = 0;
  const isRead = (text: unknown) => typeof text === "string" && /^\s*select\b/i.test(text);
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (...args: Parameters<typeof query>) => {
    const result = await query(...args);
    if (!isRead(args[0])) writes++;
    return result;
  }) as typeof client.query;
  client.exec = (async (...args: Parameters<typeof exec>) => {
    const result = await exec(...args);
    if (!isRead(args[0])) writes++;
    return result;
  }) as typeof client.exec;
  client.transaction = (async (...args: Parameters<typeof transaction>) => {
    try {
      return await transaction(...args);
    } finally {
      writes++;
    }
  }) as typeof client.transaction;
  return () => writes;
}

async function openPostgres(
  url: string,
  opts: {
    poolSize: number;
    statementTimeoutMs: number;
    bulkStatementTimeoutMs: number;
    connectTimeoutMs: number;
  },
): Promise<Database> {
  // Migrations may wait on another instance's advisory lock and run long DDL: no statement timeout, only the
  // connection's.
  const migrator = new pg.Client({ connectionString: url, connectionTimeoutMillis: opts.connectTimeoutMs });
  // A lost connection fails the running query (and so the start); it must not also throw an unhandled 'error'.
  migrator.on("error", () => {});
  await migrator.connect();
  try {
    await migrator.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrateNodePg(drizzleNodePg({ client: migrator }), { migrationsFolder });
  } finally {
    await migrator.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await migrator.end();
  }
  // Every wait is bounded: a connection (new or from the pool) by connectionTimeoutMillis, a statement by the
  // server's statement_timeout and, when the server is silent, by the client's query_timeout.
  const openPool = (max: number, statementTimeoutMs: number) => {
    const pool = new pg.Pool({
      connectionString: url,
      max,
      connectionTimeoutMillis: opts.connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + CLIENT_GRACE_MS,
    });
    // A connection lost (a restart's 57P01, ECONNRESET, a failover) must never crash the process. pg emits
    // 'error' on a client whose server goes away between queries: the pool listens while the client is idle
    // (and drops it), but not while it is checked out (a transaction between two statements), so every client
    // gets its own listener. The next query on it fails ("not queryable", a 503), and on release the pool drops
    // it and opens a fresh one.
    pool.on("error", () => {});
    pool.on("connect", (client) => {
      client.on("error", () => {});
    });
    return pool;
  };
  const pool = openPool(opts.poolSize, opts.statementTimeoutMs);
  const bulkPool = openPool(BULK_POOL_SIZE, opts.bulkStatementTimeoutMs);
  const commits = new EventEmitter().setMaxListeners(0);
  // Transactions check their client out and release it themselves: drizzle's own lose it when BEGIN fails
  // (pool-transactions.ts).
  const onPool = (p: pg.Pool) => releasingTransactions(drizzleNodePg({ client: p }) as unknown as Db, p);
  return {
    db: signalingCommits(retryingTransactions(onPool(pool)), commits),
    bulkDb: signalingCommits(retryingTransactions(onPool(bulkPool)), commits),
    engine: "postgres",
    onEventsCommitted: (listener) => onCommitted(commits, listener),
    listen: (channel, onNotify) =>
      listenPostgres(url, channel, onNotify, { connectTimeoutMs: opts.connectTimeoutMs }),
    ping: async () => {
      await pool.query("select 1");
    },
    poolStats: () =>
      (
        [
          ["requests", pool, opts.poolSize],
          ["bulk", bulkPool, BULK_POOL_SIZE],
        ] as const
      ).map(([name, p, size]) => ({
        pool: name,
        size,
        busy: p.totalCount - p.idleCount,
        idle: p.idleCount,
        waiting: p.waitingCount,
      })),
    close: async () => {
      await Promise.all([pool.end(), bulkPool.end()]);
    },
  };
}

/**
 * SQLSTATEs of a transaction that lost a race with another and only needs to run again: serialization_failure
 * (40001) and deadlock_detected (40P01). PostgreSQL rolled it back whole, so running the work again is safe.
 */
const RETRYABLE_TRANSACTION_CODES = new Set(["40001", "40P01"]);
/** Attempts of one transaction that keeps losing such races; past them the error reaches the edge (a 503). */
export const TRANSACTION_ATTEMPTS = 4;

/**
 * PostgreSQL only: `db.transaction(work)` runs `work` again (up to TRANSACTION_ATTEMPTS in all, after a short
 * random pause that de-synchronises the two racers) when the transaction fails with a serialization failure or a
 * deadlock, so no client sees either. Only top-level transactions are retried: a savepoint inside a transaction
 * cannot be, as PostgreSQL aborted the whole transaction. A transaction's work therefore must not act outside the
 * database (it may run more than once); none does.
 */
function retryingTransactions(db: Db): Db {
  const run = db.transaction.bind(db);
  db.transaction = (async (...args: Parameters<Db["transaction"]>) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(...args);
      } catch (err) {
        const code = pgErrorCode(err);
        if (attempt >= TRANSACTION_ATTEMPTS || !code || !RETRYABLE_TRANSACTION_CODES.has(code)) throw err;
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
      }
    }
  }) as Db["transaction"];
  return db;
}

/** The database options of a configuration (the server and the CLI open it alike). */
export function databaseOptions(config: Config): OpenOptions {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    bulkStatementTimeoutMs: config.databaseBulkStatementTimeoutMs,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  };
}

/** Runs raw SQL and returns its rows (both drivers put them on `.rows`). */
export async function rows<T>(q: Queryable, query: SQL): Promise<T[]> {
  const res = (await q.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** Runs a write and returns how many rows it wrote (node-postgres's `rowCount`, PGlite's `affectedRows`). */
export async function writtenRows(q: Queryable, query: SQL): Promise<number> {
  const res = (await q.execute(query)) as unknown as { rowCount?: number | null; affectedRows?: number };
  return Number(res.rowCount ?? res.affectedRows ?? 0);
}

/**
 * `rows`, as a NAMED prepared statement on PostgreSQL: parsed and planned once per connection (PostgreSQL switches
 * to a generic plan after five executions when that costs no more than the custom ones) instead of at every call.
 * For a hot statement whose text is the same at every call (values only as parameters), where planning costs as
 * much as running it: a group commit of a few SP rows spent ~1.4 ms planning against ~2.7 ms executing
 * (docs/performance.md, "Round three, ingest"). `name` must be unique to that text. The embedded database runs it
 * as `rows` does. Goes through drizzle's session (not public API) with the name its own prepared queries use.
 */
export async function preparedRows<T>(q: Queryable, name: string, query: SQL): Promise<T[]> {
  const internals = q as unknown as {
    session: {
      prepareQuery(
        query: unknown,
        fields: undefined,
        name: string,
        arrayMode: boolean,
      ): { execute(): Promise<unknown> };
    };
    dialect: { sqlToQuery(query: SQL): unknown };
  };
  const prepared = internals.session.prepareQuery(
    internals.dialect.sqlToQuery(query),
    undefined,
    name,
    false,
  );
  const res = (await prepared.execute()) as { rows: T[] };
  return res.rows;
}

/** The Postgres error code of a failed query (Drizzle wraps the driver error in `cause`). */
export function pgErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  const code = e?.cause?.code ?? e?.code;
  return typeof code === "string" ? code : undefined;
}

export { sql };

/** A PostgreSQL array parameter built from values already validated as integers (ids, SP, ranks). */
export function intArray(values: ReadonlyArray<string | number | bigint>, type: "bigint" | "int"): SQL {
  for (const v of values) {
    if (!/^-?\d+$/.test(String(v))) throw new RangeError(`not an integer: ${String(v)}`);
  }
  const literal = `{${values.join(",")}}`;
  return type === "bigint" ? sql`${literal}::bigint[]` : sql`${literal}::int[]`;
}

/**
 * Runs `work` in a savepoint (a transaction when `q` is the database itself) and turns a unique violation into
 * `null`: the surrounding transaction stays usable, which PostgreSQL does not allow after a bare failed statement.
 */
export async function unlessUniqueViolation<T>(
  q: Queryable,
  work: (sp: Tx) => Promise<T>,
): Promise<T | null> {
  try {
    return await q.transaction(work);
  } catch (err) {
    if (pgErrorCode(err) === "23505") return null;
    throw err;
  }
}

/** A PostgreSQL text[] parameter (one parameter, any strings; null elements stay NULL). */
export function textArray(values: ReadonlyArray<string | null>): SQL {
  const literal = `{${values.map((v) => (v === null ? "NULL" : `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(",")}}`;
  return sql`${literal}::text[]`;
}
