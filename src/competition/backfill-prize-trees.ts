/**
 * One-time back-fill, run at start-up: every week finalized before prize trees were stored (migration 0009) gets
 * its tree, built from the week's stored prizes over the winners' accounts as they stand then (its own prizes
 * only: later weeks may already be stored). Reads of a prize tree never write (get-prize-tree.ts,
 * my-prize-claim.ts).
 *
 * Idempotent and safe with two instances starting together: a week that has a tree is skipped, and the first
 * tree stored stays (insertPrizeTree). The Merkle root is keccak-256, so this is code, not a SQL migration.
 */
import type { Db } from "../db/client.js";
import { insertPrizeTree, weeksWithoutPrizeTree } from "./prize-tree.repository.js";
import { ownPrizeTreeOf } from "./prize-tree-of.js";
import { findWeekResult } from "./snapshot.repository.js";

/** Stores the missing trees of finalized weeks; returns the weeks it stored one for. */
export async function backfillPrizeTrees(db: Db): Promise<number[]> {
  const stored: number[] = [];
  for (const week of await weeksWithoutPrizeTree(db)) {
    await db.transaction(async (tx) => {
      const result = await findWeekResult(tx, week);
      if (!result) return;
      await insertPrizeTree(tx, await ownPrizeTreeOf(tx, week, result.prizes));
    });
    stored.push(week);
  }
  return stored;
}
