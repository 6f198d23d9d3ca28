/** The only SQL over events. */
import { eq } from "drizzle-orm";
import type { Queryable, Tx } from "../db/client.js";
import { events } from "../db/schema.js";

export type EventRow = typeof events.$inferSelect;
export type NewEvent = typeof events.$inferInsert;

/** Stored market shape: odds in integer thousandths. */
export interface StoredMarket {
  key: string;
  outcomes: Array<{ key: string; label: string; oddsMilli: number }>;
}

export async function findEvent(q: Queryable, id: string): Promise<EventRow | null> {
  const [row] = await q.select().from(events).where(eq(events.id, id));
  return row ?? null;
}

/** Reads the event and locks its row for the rest of the transaction. */
export async function lockEvent(tx: Tx, id: string): Promise<EventRow | null> {
  const [row] = await tx.select().from(events).where(eq(events.id, id)).for("update");
  return row ?? null;
}

export async function insertEvent(tx: Tx, values: NewEvent): Promise<EventRow> {
  const [row] = await tx.insert(events).values(values).returning();
  return row!;
}

export async function updateEvent(tx: Tx, id: string, values: Partial<NewEvent>): Promise<EventRow> {
  const [row] = await tx.update(events).set(values).where(eq(events.id, id)).returning();
  return row!;
}
