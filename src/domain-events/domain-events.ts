/**
 * The domain-event outbox: what happened in the domain (an event settled, a prediction settled, a week finalized),
 * written by the use case that made the change, in ITS transaction, so an event exists if and only if its change
 * committed (nothing lost on a crash, nothing announced that rolled back). Webhooks (src/webhooks/) and the live
 * stream read it; nothing else writes it.
 *
 * Writing: `recordDomainEvent(tx, {type, payload, userId?})` / `recordDomainEvents(tx, [...])` inside the use case's
 * transaction, or `recordDomainEventsFrom(tx, type, query)` for many events built from rows in the database. `payload` is the public JSON of the event (SPEC §11's webhook `data`), `userId` marks an event
 * private to one player (a stream shows it to that player only; webhooks carry every event). Each write also sends
 * `NOTIFY domain_events` (delivered at commit, on PostgreSQL and PGlite alike) so a listener can read at once
 * instead of polling, and marks the transaction so its commit is signalled in this process
 * (`Database.onEventsCommitted`, db/commit-signal.ts).
 *
 * Reading (a consumer): ids are allocated when rows are inserted, not when they commit, so a transaction that
 * started earlier can commit a SMALLER id after a reader has gone past it. Reading "id > last id" would skip it.
 * Consumers therefore read by position = (xid, id), where xid is the writing transaction's id, and only rows of
 * transactions older than the reading statement's snapshot xmin: every such transaction has ended, so no row can
 * later appear at or before the position returned. `readDomainEvents(q, {after, limit})` returns the next events in
 * that order and the position to continue from. Ordering is total and the same for every reader on every instance.
 * The price: a transaction that runs long (finalize of a very large week) holds the watermark back, so events
 * committed meanwhile wait until it ends.
 *
 * - A consumer that keeps its place across restarts and instances (webhook fan-out) stores its position in
 *   `domain_event_cursors` with `withConsumerCursor(db, name, work)`: one instance at a time (row lock, SKIP
 *   LOCKED), position saved in the same transaction as the consumer's own writes.
 * - A consumer that only follows live (a stream) starts at `headPosition(db)` and keeps its position in memory; a
 *   client reconnecting with Last-Event-ID = an event id resumes from `positionOf(db, id)` (null when that event
 *   was pruned: send a reset).
 * - Events are kept at least 24 hours (`pruneDomainEvents`), and never before every stored cursor has passed them.
 */
import type { SQL } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../db/client.js";
import { markTransactionForSignal } from "../db/commit-signal.js";
import {
  committedPositionsAfter,
  deleteEventsBefore,
  EVENTS_NOTIFIED,
  type EventRow,
  eventsAfter,
  headPosition as headPositionSql,
  insertEvents,
  insertSelectedEvents,
  lockCursor,
  positionOfEvent,
  readableHeadAfter,
  saveCursor,
  selectedEventsCtes,
} from "./domain-events.repository.js";

/** The PostgreSQL NOTIFY channel signalled at the commit of every transaction that recorded events. */
export const DOMAIN_EVENTS_CHANNEL = "domain_events";

/** How long events are kept at least (stream replay needs 5 minutes; fan-out needs seconds). */
export const DOMAIN_EVENT_RETENTION_MS = 24 * 3600_000;

/**
 * - `event.settled` `{eventId, status, winningOutcome, settledAt}`; `prediction.settled` `{predictionId, userId,
 *   eventId, status, payout | payoutUsdc}` (private); `week.finalized` (the finalize result): SPEC §11, webhooks too.
 * - Live stream only (SPEC §12): `event.odds_changed` `{eventId, markets}` (markets as the events API presents
 *   them); `event.status_changed` `{eventId, status, winningOutcome}` (a new event, or its status changed without a
 *   result); `balance.changed` `{credits}` (private: the new credits balance); `ladder.changed` `{week}` (the
 *   competitive SP of week `week` changed: its ladders may have moved).
 */
export const DOMAIN_EVENT_TYPES = [
  "event.settled",
  "prediction.settled",
  "week.finalized",
  "event.odds_changed",
  "event.status_changed",
  "balance.changed",
  "ladder.changed",
] as const;
export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export interface NewDomainEvent {
  type: DomainEventType;
  /** The event's public JSON (the webhook `data`). */
  payload: Record<string, unknown>;
  /** The player the event is private to, if any. */
  userId?: string | bigint | null;
}

/** A place in the outbox's total order: the writing transaction, then the id. */
export interface EventPosition {
  xid: string;
  id: string;
}

export interface DomainEvent {
  id: string;
  type: DomainEventType;
  payload: Record<string, unknown>;
  userId: string | null;
  createdAt: Date;
  position: EventPosition;
}

/**
 * Records, in the caller's transaction, one event of `type` per row of `source`: a query of the capability that
 * owns the rows, selecting `(user_id bigint, payload jsonb)` (null user id: a public event). For many events at
 * once (a settle of 100,000 predictions) built in the database, without sending them from the process.
 */
export async function recordDomainEventsFrom(tx: Tx, type: DomainEventType, source: SQL): Promise<void> {
  await insertSelectedEvents(tx, type, source, DOMAIN_EVENTS_CHANNEL);
  markTransactionForSignal(tx);
}

/**
 * Events recorded by the statement that writes what they report, one round trip instead of two (the ledger's
 * append and its `ladder.changed`): `ctes` are two CTEs to put in that statement's WITH list, inserting one event
 * of `type` per row of `source` (a query selecting `(user_id bigint, payload jsonb)`, which may read the
 * statement's other CTEs) and signalling them at commit; `notified` is a condition (always true) the statement
 * must evaluate once, which sends the signal when any event was inserted. The CTEs' names are fixed: one use per
 * statement. Afterwards, when the statement may have recorded events, `eventsRecordedIn(tx)`: the in-process
 * commit signal, as `recordDomainEventsFrom` gives it.
 */
export function eventsInStatement(type: DomainEventType, source: SQL): { ctes: SQL; notified: SQL } {
  return { ctes: selectedEventsCtes(type, source, DOMAIN_EVENTS_CHANNEL), notified: EVENTS_NOTIFIED };
}

/** The transaction `tx` recorded events through `eventsInStatement`: signal its commit in this process. */
export function eventsRecordedIn(tx: Tx): void {
  markTransactionForSignal(tx);
}

/** Records one event in the caller's transaction. */
export function recordDomainEvent(tx: Tx, event: NewDomainEvent): Promise<void> {
  return recordDomainEvents(tx, [event]);
}

/** Records events in the caller's transaction, in one statement however many (a settle may write 100,000). */
export async function recordDomainEvents(tx: Tx, events: readonly NewDomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  markTransactionForSignal(tx);
  await insertEvents(
    tx,
    events.map((e) => ({
      type: e.type,
      payload: JSON.stringify(e.payload),
      userId: e.userId == null ? null : String(e.userId),
    })),
    DOMAIN_EVENTS_CHANNEL,
  );
}

function toEvent(r: EventRow): DomainEvent {
  return {
    id: r.id,
    type: r.type as DomainEventType,
    payload: (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    userId: r.user_id,
    createdAt: new Date(r.created_at),
    position: { xid: r.xid, id: r.id },
  };
}

/**
 * The next committed events after `after` (null: from the first), at most `limit`, in (xid, id) order, the
 * position to read from next time (`after` itself when there is nothing new), and `held`: true when committed
 * events exist that the watermark still holds back (a transaction older than theirs is running): they become
 * readable as soon as it ends, so a live consumer should look again shortly rather than at its next poll.
 */
export async function readDomainEvents(
  q: Queryable,
  opts: { after: EventPosition | null; limit: number },
): Promise<{ events: DomainEvent[]; next: EventPosition | null; held: boolean }> {
  const { events, held } = await eventsAfter(q, opts.after, opts.limit);
  const mapped = events.map(toEvent);
  return { events: mapped, next: mapped.at(-1)?.position ?? opts.after, held };
}

/**
 * Skips every event readable now after `after` (a consumer with nothing to do for any of them): the position to
 * continue from and how many events it passed, without reading them.
 */
export async function skipDomainEvents(
  q: Queryable,
  after: EventPosition,
): Promise<{ next: EventPosition; passed: number }> {
  const head = await readableHeadAfter(q, after);
  return head ? { next: head.position, passed: head.passed } : { next: after, passed: 0 };
}

/**
 * The position of the newest event below the watermark (xid 0, id 0 when there is none): "from now on" for a
 * reader. Events committed after it by transactions younger than a still-running one are not behind it: see
 * `committedAfter`.
 */
export function headPosition(q: Queryable): Promise<EventPosition> {
  return headPositionSql(q);
}

/** Positions of the events committed now after `after` (at most `limit`), whatever the watermark holds back. */
export function committedAfter(q: Queryable, after: EventPosition, limit: number): Promise<EventPosition[]> {
  return committedPositionsAfter(q, after, limit);
}

/**
 * The position of event `id` when it was recorded less than `windowMs` ago by the database's clock (a stream's
 * replay window); null when it is older, unknown or pruned.
 */
export function recentPositionOf(q: Queryable, id: string, windowMs: number): Promise<EventPosition | null> {
  if (!/^\d{1,19}$/.test(id)) return Promise.resolve(null);
  return positionOfEvent(q, id, windowMs);
}

/** The position of event `id`, to resume after it; null when it is not (or no longer) stored. */
export function positionOf(q: Queryable, id: string): Promise<EventPosition | null> {
  if (!/^\d{1,19}$/.test(id)) return Promise.resolve(null);
  return positionOfEvent(q, id);
}

/**
 * Runs `work` with consumer `name`'s stored position, in one transaction that holds the cursor (another instance
 * running the same consumer skips: returns null). `work` returns the new position, saved in that transaction with
 * everything `work` wrote.
 */
export async function withConsumerCursor<T>(
  db: Db,
  name: string,
  work: (tx: Tx, after: EventPosition) => Promise<{ next: EventPosition; result: T }>,
): Promise<T | null> {
  return db.transaction(async (tx) => {
    const cursor = await lockCursor(tx, name);
    if (!cursor.held) return null;
    const { next, result } = await work(tx, cursor.position);
    if (next.xid !== cursor.position.xid || next.id !== cursor.position.id) await saveCursor(tx, name, next);
    return result;
  });
}

/** Deletes events older than the retention that every stored cursor has passed; returns how many. */
export function pruneDomainEvents(q: Queryable, now: Date): Promise<number> {
  return deleteEventsBefore(q, new Date(now.getTime() - DOMAIN_EVENT_RETENTION_MS));
}
