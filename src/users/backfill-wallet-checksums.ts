/**
 * One-time back-fill, run at start-up: users stored before `wallet_checksum` existed (migration 0015), or inserted
 * by other code in bulk SQL, get their wallet's EIP-55 checksum. It is keccak-256, so this is code, not a SQL
 * migration. Idempotent and safe with two instances starting together (both write the same value). The table is
 * read in storage order, PAGES_PER_READ heap pages a query (a TID range scan: sequential, and its plan does not
 * depend on statistics a freshly loaded table lacks); the last read runs to the end, so rows added meanwhile are
 * met too, and a row rewritten by this back-fill is met again only with its checksum set. A row not reached yet is
 * checksummed when read (findLadderDisplay).
 *
 * Before, batches of 5,000 were taken `order by id limit 5000` from the first id each time: on a table without
 * statistics the planner read the whole table for each batch (quadratic: 341 s for 1,000,000 users on PostgreSQL,
 * more than 8 minutes on PGlite).
 */
import { sql } from "drizzle-orm";
import { intArray, type Queryable, rows, textArray } from "../db/client.js";
import { checksumWallet } from "./presenters.js";
import { displayExtent, inTablePages } from "./users.js";

const PAGES_PER_READ = 256;

/** Stores the missing checksums; returns how many users got one. */
export async function backfillWalletChecksums(q: Queryable, pagesPerRead = PAGES_PER_READ): Promise<number> {
  const { pages } = await displayExtent(q);
  let done = 0;
  for (let from = 0; ; from += pagesPerRead) {
    const last = from + pagesPerRead >= pages;
    const batch = await rows<{ id: string; wallet: string }>(
      q,
      sql`select id::text as id, wallet from users
          where ${inTablePages(from, last ? null : from + pagesPerRead)}
            and wallet is not null and wallet_checksum is null`,
    );
    if (batch.length > 0) {
      await q.execute(
        sql`update users u set wallet_checksum = t.k
            from unnest(${intArray(
              batch.map((r) => r.id),
              "bigint",
            )}, ${textArray(batch.map((r) => checksumWallet(r.wallet)!))}) as t(id, k)
            where u.id = t.id and u.wallet_checksum is null`,
      );
      done += batch.length;
    }
    if (last) return done;
  }
}
