/**
 * The bulk-load ceiling of the ingest measurements: the same rows written with COPY (pg-copy-streams on
 * PostgreSQL; `COPY … FROM '/dev/blob'` on PGlite) into scratch tables shaped like the real ones (`LIKE … INCLUDING
 * DEFAULTS INCLUDING INDEXES`: the same unique indexes, no triggers, no aggregates). For rows of new wallets the
 * users are copied first (ids given by the bench), then their ledger rows. Run while the service is stopped (the
 * embedded database has one owner). Returns rows per second.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Database } from "../src/db/client.js";

export interface CopyRow {
  userId?: string;
  wallet?: string;
  type: string;
  amount: number;
  eventId: string;
  externalId: string;
}

const csv = (cells: Array<string | number>) => `${cells.join(",")}\n`;

/** COPY rates (rows/s) of `existing` (rows of known user ids) and `newWallets` (a new user each). */
export async function copyRates(
  database: Database,
  databaseUrl: string | null,
  existing: CopyRow[],
  newWallets: CopyRow[],
): Promise<{ existingRowsPerSec: number; newWalletRowsPerSec: number }> {
  const client = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
  await client?.connect();
  const pglite = (
    database.db as unknown as {
      $client: {
        query(q: string, params: unknown[], opts: { blob: Blob }): Promise<unknown>;
        exec(q: string): Promise<unknown>;
      };
    }
  ).$client;
  const exec = (q: string) => (client ? client.query(q) : pglite.exec(q));
  const copy = async (table: string, columns: string, lines: string[]) => {
    const statement = `copy ${table} (${columns}) from stdin with (format csv)`;
    if (client) await pipeline(Readable.from(lines), client.query(copyFrom(statement)));
    else
      await pglite.query(statement.replace("stdin", "'/dev/blob'"), [], { blob: new Blob([lines.join("")]) });
  };
  try {
    await exec(`create table bench_copy_ledger (like sp_ledger including defaults including indexes);
                create table bench_copy_users (like users including defaults including indexes)`);
    let t = Date.now();
    await copy(
      "bench_copy_ledger",
      "id, user_id, type, amount, event_id, external_id",
      existing.map((r, i) => csv([i + 1, r.userId!, r.type, r.amount, r.eventId, r.externalId])),
    );
    const existingRowsPerSec = Math.round(existing.length / Math.max(0.001, (Date.now() - t) / 1000));
    t = Date.now();
    await copy(
      "bench_copy_users",
      "id, wallet, display_name, referral_code",
      newWallets.map((r, i) =>
        csv([
          1e12 + i,
          r.wallet!,
          `${r.wallet!.slice(0, 6)}…${r.wallet!.slice(-4)}`,
          `C${(1e9 + i).toString(36)}`,
        ]),
      ),
    );
    await copy(
      "bench_copy_ledger",
      "id, user_id, type, amount, event_id, external_id",
      newWallets.map((r, i) => csv([1e9 + i, 1e12 + i, r.type, r.amount, r.eventId, r.externalId])),
    );
    const newWalletRowsPerSec = Math.round(newWallets.length / Math.max(0.001, (Date.now() - t) / 1000));
    return { existingRowsPerSec, newWalletRowsPerSec };
  } finally {
    await exec("drop table if exists bench_copy_ledger; drop table if exists bench_copy_users");
    await client?.end();
  }
}
