/**
 * Test databases. Storage tests run on the engine named by TEST_DB ("pglite" or "postgres"). On PostgreSQL
 * every call creates a fresh database on the server at DATABASE_URL, so runs and files never see each other's rows.
 * Both start from the migrated template of the run (test/db-template.ts) when there is one. A test file gives its
 * database back with `releaseTestDatabase` (createTestApp's `close` does): an embedded one is then reset and reused.
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type Database, openDatabase, rows } from "../src/db/client.js";
import { within } from "../src/shared/bounded-wait.js";
import { pgliteTemplate, postgresTemplateName } from "./db-template.js";

export const testEngine = (process.env.TEST_DB ?? "pglite") as "pglite" | "postgres";

/**
 * The URL of a brand-new PostgreSQL database (empty, or a copy of `template`; named `name` when given, else a
 * random name), and a function that drops it.
 */
export async function createScratchPostgres(
  opts: { fromTemplate?: boolean; template?: string; name?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("TEST_DB=postgres needs DATABASE_URL");
  for (const given of [opts.name, opts.template]) {
    if (given !== undefined && !/^[a-z_][a-z0-9_]*$/.test(given)) {
      throw new Error(`database name ${given}: lower-case letters, digits and _`);
    }
  }
  const name = opts.name ?? `t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  // A named database replaces the one of that name (a kept data set built again).
  if (opts.name) await admin.query(`drop database if exists ${name} with (force)`);
  if (opts.template) {
    // FILE_COPY: a copy of a big kept data set (bench/direct.ts --from) written through the WAL (PostgreSQL 15's
    // default) set off checkpoints every few seconds during the measurement that follows it.
    await admin.query(`create database ${name} template ${opts.template} strategy file_copy`);
  } else if (opts.fromTemplate) {
    const template = postgresTemplateName();
    const found = await admin.query("select 1 from pg_database where datname = $1", [template]);
    await admin.query(
      found.rowCount ? `create database ${name} template ${template}` : `create database ${name}`,
    );
  } else {
    await admin.query(`create database ${name}`);
  }
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * A migrated, empty database on the engine under test: on PostgreSQL a fresh one (`close` also drops it); embedded,
 * a clone of the template or one given back by an earlier test file and reset (`releaseTestDatabase`).
 */
export async function createTestDatabase(): Promise<Database> {
  if (testEngine === "postgres") {
    const scratch = await createScratchPostgres({ fromTemplate: true });
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 20 });
    return {
      ...database,
      close: async () => {
        await database.close();
        await scratch.drop();
      },
    };
  }
  const reused = spare.pop();
  if (reused) {
    testDatabaseReuse.reused++;
    return lend(reused);
  }
  const fresh = await openDatabase({
    databaseUrl: null,
    dataDir: null,
    pgliteImage: pgliteTemplate() ?? undefined,
  });
  // The template's schema, read off the first clone this worker opens, before any test has touched it.
  templateFingerprint ??= fingerprintOf(fresh);
  await templateFingerprint;
  return lend(fresh);
}

/**
 * Gives back a database of `createTestDatabase` once its test is done with it. On PostgreSQL: as `close`. An
 * embedded database is reset to the template instead (every table emptied, every sequence restarted, the
 * session's state discarded) and kept for the next test file of this worker: cloning the template costs ≈ 1.5 s
 * of CPU. It is kept only when its schema afterwards is the template's exactly (a test that altered a table or
 * disabled a trigger gets its database closed) and the reset finished within RESET_TIMEOUT_MS (a transaction left
 * hanging holds the embedded database's one connection). `TEST_DB_REUSE=off`: always closed.
 */
export async function releaseTestDatabase(database: Database): Promise<void> {
  const lent = lentOut.get(database);
  if (!lent || process.env.TEST_DB_REUSE === "off") return database.close();
  lentOut.delete(database);
  for (const stop of [...lent.listeners]) stop();
  const clean = await resetToTemplate(lent.underlying).catch(() => false);
  if (!clean) testDatabaseReuse.discarded++;
  if (clean && spare.length < MAX_SPARE) spare.push(lent.underlying);
  else if (clean) await lent.underlying.close();
  // Not awaited: whatever kept the reset from finishing would hold the close as well.
  else void lent.underlying.close().catch(() => {});
}

/** How many embedded databases this worker has lent again after a reset, and closed as not like the template. */
export const testDatabaseReuse = { reused: 0, discarded: 0 };

/** Embedded databases reset to the template, kept by this worker (its module state) for its next test files. */
const spare: Database[] = [];
const MAX_SPARE = 2;
const RESET_TIMEOUT_MS = 5_000;
/** The handles lent out: the database behind each, and the commit listeners registered through it. */
const lentOut = new WeakMap<Database, { underlying: Database; listeners: Set<() => void> }>();

/** A handle on `database` that keeps the commit listeners registered through it, to drop them when it is given back. */
function lend(database: Database): Database {
  const listeners = new Set<() => void>();
  const handle: Database = {
    ...database,
    onEventsCommitted: (listener) => {
      const stop = database.onEventsCommitted(listener);
      const tracked = () => {
        listeners.delete(tracked);
        stop();
      };
      listeners.add(tracked);
      return tracked;
    },
  };
  lentOut.set(handle, { underlying: database, listeners });
  return handle;
}

/**
 * What a test could change in the schema (tables, columns, defaults, constraints, indexes, triggers and whether
 * they fire, functions, sequences, the migrations applied, database settings), as one hash: a reset database must
 * give the template's, or it is not reused.
 */
const SCHEMA_FINGERPRINT = `
  with rels as (
    select c.oid, n.nspname, c.relname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('public', 'drizzle')
  )
  select md5(string_agg(x, E'\\n' order by x)) as fingerprint from (
    select format('rel %s.%s %s', nspname, relname, relkind) as x from rels
    union all
    select format('col %s %s %s %s %s %s', a.attrelid::regclass, a.attname, format_type(a.atttypid, a.atttypmod),
                  a.attnotnull, a.attisdropped, pg_get_expr(d.adbin, d.adrelid))
      from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid in (select oid from rels) and a.attnum > 0
    union all
    select format('con %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid)) from pg_constraint
      where connamespace in (select oid from pg_namespace where nspname in ('public', 'drizzle'))
    union all
    select format('idx %s', pg_get_indexdef(indexrelid)) from pg_index where indrelid in (select oid from rels)
    union all
    select format('trg %s %s %s', tgrelid::regclass, tgname, tgenabled) from pg_trigger
      where tgrelid in (select oid from rels)
    union all
    select format('fn %s', md5(pg_get_functiondef(p.oid))) from pg_proc p
      where p.pronamespace = 'public'::regnamespace
    union all
    select format('seq %s.%s %s', schemaname, sequencename, last_value) from pg_sequences
      where schemaname in ('public', 'drizzle')
    union all
    select format('migration %s %s', hash, created_at) from drizzle.__drizzle_migrations
    union all
    select format('setting %s', setconfig) from pg_db_role_setting
  ) s`;

/** The template's schema fingerprint, read off the first clone this worker opened. */
let templateFingerprint: Promise<string> | undefined;

async function fingerprintOf(database: Database): Promise<string> {
  const [row] = await rows<{ fingerprint: string }>(database.db, sql.raw(SCHEMA_FINGERPRINT));
  return row!.fingerprint;
}

/** Empties `database` back to the template's state; true when it then equals the template (see releaseTestDatabase). */
async function resetToTemplate(database: Database): Promise<boolean> {
  if (!templateFingerprint) return false;
  const expected = await templateFingerprint;
  const reset = async () => {
    await database.db.execute(sql.raw("rollback"));
    await database.db.execute(sql.raw("discard all"));
    await database.db.execute(
      sql.raw(`do $$ declare t text; begin
        select string_agg(format('%I.%I', schemaname, tablename), ', ') into t from pg_tables where schemaname = 'public';
        if t is not null then execute 'truncate ' || t || ' restart identity cascade'; end if;
        for t in select format('%I.%I', schemaname, sequencename) from pg_sequences where schemaname = 'public' loop
          execute format('alter sequence %s restart', t);
        end loop;
      end $$`),
    );
    return (await fingerprintOf(database)) === expected;
  };
  // Timed out: false (not reset), as a failed reset is.
  return (await within(reset(), RESET_TIMEOUT_MS)) ?? false;
}
