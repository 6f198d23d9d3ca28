/**
 * One-time back-fill, run at start-up: users stored before `wallet_checksum` existed (migration 0015), or inserted
 * by other code in bulk SQL, get their wallet's EIP-55 checksum. It is keccak-256, so this is code, not a SQL
 * migration. Idempotent and safe with two instances starting together (both write the same value), in batches
 * of BATCH users walked by id (each batch starts after the last one's highest id: restarting from the first id
 * re-read every filled row, quadratic in users: 341 s at 1,000,000); a row not reached yet is checksummed when read
 * (findLadderDisplay).
 */
import { sql } from "drizzle-orm";
import { intArray, type Queryable, rows, textArray } from "../db/client.js";
import { checksumWallet } from "./presenters.js";

const BATCH = 5_000;

/** Stores the missing checksums; returns how many users got one. */
export async function backfillWalletChecksums(q: Queryable, batchSize = BATCH): Promise<number> {
  let done = 0;
  let after = "0";
  for (;;) {
    const batch = await rows<{ id: string; wallet: string }>(
      q,
      sql`select id::text as id, wallet from users
          where id > ${after}::bigint and wallet is not null and wallet_checksum is null
          order by users.id limit ${batchSize}`,
    );
    if (batch.length === 0) return done;
    after = batch[batch.length - 1]!.id;
    await q.execute(
      sql`update users u set wallet_checksum = t.k
          from unnest(${intArray(
            batch.map((r) => r.id),
            "bigint",
          )},
                      ${textArray(batch.map((r) => checksumWallet(r.wallet)!))}::text[]) as t(id, k)
          where u.id = t.id and u.wallet_checksum is null`,
    );
    done += batch.length;
  }
}
