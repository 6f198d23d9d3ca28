/**
 * The events module: the only SQL over events, and what other capabilities may use of them: the event record and
 * its stored markets, lookups, the row locks a bet or a settlement takes on its event, and the update settlement
 * makes. When betting on an event closes is betting-window.ts.
 */
import { and, asc, eq, gt, gte, inArray, isNull, lt, sql } from "drizzle-orm";
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

/** Open events (scheduled, never closed, kickoff after `now`) by (kickoff, id), after an optional keyset position. */
export async function listOpenEvents(
  q: Queryable,
  f: {
    now: Date;
    sport?: string;
    league?: string;
    from?: Date;
    to?: Date;
    after?: { kickoffAt: Date; id: string };
    limit: number;
  },
): Promise<EventRow[]> {
  const conditions = [eq(events.status, "scheduled"), isNull(events.closedAt), gt(events.kickoffAt, f.now)];
  if (f.sport) conditions.push(eq(events.sport, f.sport));
  if (f.league) conditions.push(eq(events.league, f.league));
  if (f.from) conditions.push(gte(events.kickoffAt, f.from));
  if (f.to) conditions.push(lt(events.kickoffAt, f.to));
  if (f.after) {
    conditions.push(sql`(${events.kickoffAt}, ${events.id}) > (${f.after.kickoffAt}, ${f.after.id})`);
  }
  return q
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(asc(events.kickoffAt), asc(events.id))
    .limit(f.limit);
}

/** Reads the event share-locked: bets may run side by side, settlement (FOR UPDATE) waits for them. */
export async function lockEventForBet(tx: Tx, id: string): Promise<EventRow | null> {
  const [row] = await tx.select().from(events).where(eq(events.id, id)).for("share");
  return row ?? null;
}

export async function findEvents(q: Queryable, ids: string[]): Promise<Map<string, EventRow>> {
  if (ids.length === 0) return new Map();
  const found = await q.select().from(events).where(inArray(events.id, ids));
  return new Map(found.map((e) => [e.id, e]));
}
