/** The only SQL over the chain indexers' cursors and the blocks they have read. */
import { and, desc, eq, gt, lt } from "drizzle-orm";
import type { Queryable, Tx } from "../db/client.js";
import { chainBlocks, chainCursors, indexerChecks } from "../db/schema.js";

/** The first block not yet indexed under `name`; null before the first range is stored. */
export async function readCursor(q: Queryable, name: string): Promise<bigint | null> {
  const [row] = await q.select().from(chainCursors).where(eq(chainCursors.name, name));
  return row?.nextBlock ?? null;
}

/**
 * Moves the cursor from `from` (null: no cursor yet) to `to`, only if it still stands at `from`; false when
 * another indexer moved it first. Run it in the transaction that stores what was indexed below `to`.
 */
export async function advanceCursor(
  tx: Tx,
  name: string,
  from: bigint | null,
  to: bigint,
  now: Date,
): Promise<boolean> {
  if (from === null) {
    const inserted = await tx
      .insert(chainCursors)
      .values({ name, nextBlock: to, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    return inserted.length === 1;
  }
  const updated = await tx
    .update(chainCursors)
    .set({ nextBlock: to, updatedAt: now })
    .where(and(eq(chainCursors.name, name), eq(chainCursors.nextBlock, from)))
    .returning();
  return updated.length === 1;
}

export type StoredBlock = typeof chainBlocks.$inferSelect;

/** The blocks read under `name`, newest first, at most `limit` (below `below` when given). */
export async function storedBlocks(
  q: Queryable,
  name: string,
  limit: number,
  /** Only blocks below this height (the next batch of a walk back). */
  below?: bigint,
): Promise<StoredBlock[]> {
  return q
    .select()
    .from(chainBlocks)
    .where(
      below === undefined
        ? eq(chainBlocks.name, name)
        : and(eq(chainBlocks.name, name), lt(chainBlocks.number, below)),
    )
    .orderBy(desc(chainBlocks.number))
    .limit(limit);
}

/** Records a block read under `name` (its hash and time), replacing what was stored at that height. */
export async function recordBlock(tx: Tx, block: StoredBlock): Promise<void> {
  await tx
    .insert(chainBlocks)
    .values(block)
    .onConflictDoUpdate({
      target: [chainBlocks.name, chainBlocks.number],
      set: { hash: block.hash, blockTime: block.blockTime },
    });
}

/** Forgets the blocks read under `name` above `after` (they are being read again). */
export async function forgetBlocksAbove(tx: Tx, name: string, after: bigint): Promise<void> {
  await tx.delete(chainBlocks).where(and(eq(chainBlocks.name, name), gt(chainBlocks.number, after)));
}

/** Forgets the blocks read under `name` below `below`: too deep to be re-checked any more. */
export async function pruneBlocks(tx: Tx, name: string, below: bigint): Promise<void> {
  await tx.delete(chainBlocks).where(and(eq(chainBlocks.name, name), lt(chainBlocks.number, below)));
}

/** Stores what an indexer saw on a run, with the time of the newest block its stream has stored. */
export async function upsertIndexerCheck(
  q: Queryable,
  check: {
    indexer: string;
    cursor: string;
    finalHead: bigint | null;
    nextBlock: bigint | null;
    checkedAt: Date;
  },
): Promise<void> {
  const [newest] = await storedBlocks(q, check.cursor, 1);
  const values = {
    indexer: check.indexer,
    finalHead: check.finalHead,
    nextBlock: check.nextBlock,
    indexedThrough: newest?.blockTime ?? null,
    checkedAt: check.checkedAt,
  };
  await q
    .insert(indexerChecks)
    .values(values)
    .onConflictDoUpdate({ target: indexerChecks.indexer, set: values });
}

export type IndexerCheck = typeof indexerChecks.$inferSelect;

export async function findIndexerChecks(q: Queryable): Promise<IndexerCheck[]> {
  return q.select().from(indexerChecks);
}
