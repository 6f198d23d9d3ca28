/** The SQL of rewards: drawn raffles. */
import { eq } from "drizzle-orm";
import type { Queryable, Tx } from "../db/client.js";
import { dailyRaffles } from "../db/schema.js";

export type RaffleRow = typeof dailyRaffles.$inferSelect;

export async function findRaffle(q: Queryable, day: string): Promise<RaffleRow | null> {
  const [row] = await q.select().from(dailyRaffles).where(eq(dailyRaffles.day, day));
  return row ?? null;
}

/** Records a draw unless the day was drawn already (then null: the first draw stands). */
export async function insertRaffle(tx: Tx, row: typeof dailyRaffles.$inferInsert): Promise<RaffleRow | null> {
  const [inserted] = await tx.insert(dailyRaffles).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}
