/**
 * Storage for drill servers on either engine: a fresh DATA_DIR for the embedded engine, a fresh database on a
 * private PostgreSQL cluster (private-postgres.ts, started once per run) for PostgreSQL. `storedExternalIds`
 * reads what the ledger holds afterwards, with no server running.
 */
import { rmSync } from "node:fs";
import pg from "pg";
import { openDatabase, rows, sql } from "../../src/db/client.js";
import { migratedDataDir } from "../db-template.js";
import { type PrivatePostgres, startPrivatePostgres } from "./private-postgres.js";

export type Engine = "pglite" | "postgres";

export interface DrillStorage {
  engine: Engine;
  /** The server's environment for this storage (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  storedExternalIds(): Promise<Set<string>>;
  drop(): Promise<void>;
}

let cluster: PrivatePostgres | null = null;
let databases = 0;

/** Fresh storage on `engine`. */
export async function drillStorage(engine: Engine): Promise<DrillStorage> {
  if (engine === "pglite") {
    const dir = migratedDataDir("sp-drill-");
    return {
      engine,
      env: { DATA_DIR: dir },
      async storedExternalIds() {
        const database = await openDatabase({ databaseUrl: null, dataDir: dir });
        try {
          const found = await rows<{ external_id: string }>(
            database.db,
            sql`select external_id from sp_ledger`,
          );
          return new Set(found.map((r) => r.external_id));
        } finally {
          await database.close();
        }
      },
      async drop() {
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  cluster ??= await startPrivatePostgres();
  const name = `drill_${process.pid}_${++databases}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = cluster.url.replace(/\/postgres$/, `/${name}`);
  return {
    engine,
    env: { DATABASE_URL: url },
    async storedExternalIds() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const found = await c.query<{ external_id: string }>("select external_id from sp_ledger");
        return new Set(found.rows.map((r) => r.external_id));
      } finally {
        await c.end();
      }
    },
    async drop() {},
  };
}

/** Stops the private cluster, if one was started. */
export function stopDrillClusters(): void {
  cluster?.destroy();
  cluster = null;
}
