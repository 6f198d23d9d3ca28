/** The only SQL over the chain indexers' cursors. */
import { and, eq } from "drizzle-orm";
import type { Queryable, Tx } from "../db/client.js";
import { chainCursors } from "../db/schema.js";

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
