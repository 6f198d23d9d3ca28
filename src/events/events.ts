/**
 * The events module: the only SQL over events, and what other capabilities may use of them: the event record and
 * its stored markets, lookups, the row locks a bet or a settlement takes on its event, and the update settlement
 * makes. When betting on an event closes is betting-window.ts.
 */
import { and, asc, eq, gt, gte, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import { type Queryable, type Tx, textArray } from "../db/client.js";
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

/** Inserts a new event; null when one with its id exists (created meanwhile by another transaction). */
export async function insertEvent(tx: Tx, values: NewEvent): Promise<EventRow | null> {
  const [row] = await tx.insert(events).values(values).onConflictDoNothing({ target: events.id }).returning();
  return row ?? null;
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

/** Namespace (first key) of the per-event advisory lock between bets and the event's settlement. */
const EVENT_BETS_LOCK = 0x62657473; // "bets"

/**
 * Takes the event's bet lock shared, then reads the event (no row lock). The bet lock is a transaction-scoped
 * advisory lock (PostgreSQL's lock manager: no row lock, so no multixact on a hot event row): bets on one event
 * run side by side; settlement takes it exclusive (`lockEventAgainstBets`), so it waits for every bet in flight
 * to commit, and a bet arriving meanwhile waits for the settlement to commit. On READ COMMITTED each statement
 * reads a new snapshot, so the read after the lock sees a settlement that committed before the lock was granted.
 */
export async function lockEventForBet(tx: Tx, id: string): Promise<EventRow | null> {
  return (await lockEventsForBets(tx, [id])).get(id) ?? null;
}

/**
 * `lockEventForBet` for the bets of a group commit (several events at once): the bet locks of `ids` shared, taken
 * in id order in one statement (two groups cannot deadlock), then the events read in the next statement (after the
 * locks are held, so a settlement that committed before is seen). The events found, by id.
 */
export async function lockEventsForBets(tx: Tx, ids: readonly string[]): Promise<Map<string, EventRow>> {
  const sorted = [...new Set(ids)].sort();
  if (sorted.length === 0) return new Map();
  await tx.execute(
    sql`select count(pg_advisory_xact_lock_shared(${EVENT_BETS_LOCK}, hashtext(e)))
        from (select e from unnest(${textArray(sorted)}) e order by e) s`,
  );
  return findEvents(tx, sorted);
}

/**
 * Settlement's side of the bet lock: exclusive, taken before anything else of the settlement so that it holds
 * nothing while it waits for the bets in flight (and they wait for nothing it holds).
 */
export async function lockEventAgainstBets(tx: Tx, id: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${EVENT_BETS_LOCK}, hashtext(${id}))`);
}

/**
 * The SQL form of `isOpenForBets` (betting-window.ts) at `now`: scheduled, never closed, no result, kickoff after
 * now (`id`: the event's id, or the SQL naming it in a join). A bet's insert selects from the event row under it, so
 * the check and the insert are one statement.
 */
export function eventOpenForBets(id: string | SQL, now: Date) {
  return and(
    eq(events.id, id),
    eq(events.status, "scheduled"),
    isNull(events.closedAt),
    isNull(events.result),
    gt(events.kickoffAt, now),
  );
}

export async function findEvents(q: Queryable, ids: string[]): Promise<Map<string, EventRow>> {
  if (ids.length === 0) return new Map();
  const found = await q.select().from(events).where(inArray(events.id, ids));
  return new Map(found.map((e) => [e.id, e]));
}
