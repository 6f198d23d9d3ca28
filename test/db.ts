/**
 * Test databases. Storage tests run on the engine named by TEST_DB ("pglite" or "postgres"). On PostgreSQL
 * every call creates a fresh database on the server at DATABASE_URL, so runs and files never see each other's rows.
 * Both start from the migrated template of the run (test/db-template.ts) when there is one.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../src/db/client.js";
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
    await admin.query(`create database ${name} template ${opts.template}`);
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

/** A migrated, empty database on the engine under test. `close` also drops a scratch PostgreSQL database. */
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
  return openDatabase({ databaseUrl: null, dataDir: null, pgliteImage: pgliteTemplate() ?? undefined });
}
