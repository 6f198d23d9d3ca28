/** The only SQL over the domain-event outbox and its consumers' cursors. */
import { eq, type SQL, sql } from "drizzle-orm";
import { type Queryable, rows, type Tx, textArray } from "../db/client.js";
import { domainEventCursors } from "../db/schema.js";

export interface EventRow {
  id: string;
  xid: string;
  type: string;
  payload: unknown;
  user_id: string | null;
  created_at: Date | string;
}

/**
 * The outbox's watermark, as `select … as xmin`: every transaction that can still commit rows in this database's
 * `domain_events` has an id at or above it, and every row below it that committed is visible to the statement. It
 * is the snapshot's oldest running transaction, leaving out the transactions known to belong to another database
 * of the server (`pg_stat_activity`: a backend is connected to one database for its life, so an id it showed is of
 * that database), else the snapshot's xmax. An id not found there (a transaction that ended since, a prepared one)
 * counts as this database's: the watermark can only be too low, never too high. `pg_snapshot_xmin` alone let any
 * transaction anywhere on the server hold every reader back (another service's, another test file's).
 */
const OUTBOX_WATERMARK = sql`select coalesce(
    (select min(x) from pg_snapshot_xip(pg_current_snapshot()) as x
     where not exists (
       select 1 from pg_stat_activity a
       where a.backend_xid is not null and a.datname <> current_database()
         and a.backend_xid::text::bigint = x::text::bigint % 4294967296)),
    pg_snapshot_xmax(pg_current_snapshot())) as xmin`;

/** Appends events in one statement (one array parameter per column, so any number of rows). */
export async function insertEvents(
  tx: Tx,
  events: ReadonlyArray<{ type: string; payload: string; userId: string | null }>,
  channel: string,
): Promise<void> {
  if (events.length === 0) return;
  // The NOTIFY is delivered at commit, once per transaction whatever the number of events: listeners then read
  // the table. In the insert's statement: one round trip per write instead of two.
  await tx.execute(sql`
    with ins as (
      insert into domain_events (type, payload, user_id)
      select v.type, v.payload::jsonb, v.user_id::bigint
      from unnest(${textArray(events.map((e) => e.type))}, ${textArray(events.map((e) => e.payload))},
                  ${textArray(events.map((e) => e.userId))}) as v(type, payload, user_id)
    )
    select pg_notify(${channel}, '')`);
}

/**
 * Appends one event of `type` per row of `source`, a query selecting `(user_id bigint, payload jsonb)` written by
 * the capability owning those rows: the events are built where the rows are, nothing crosses the wire.
 */
export async function insertSelectedEvents(
  tx: Tx,
  type: string,
  source: SQL,
  channel: string,
): Promise<void> {
  await tx.execute(sql`
    with ins as (${selectedEventsInsert(type, source)})
    select pg_notify(${channel}, '')`);
}

/** The insert of one event of `type` per row of `source` (`(user_id bigint, payload jsonb)`). */
function selectedEventsInsert(type: string, source: SQL): SQL {
  return sql`insert into domain_events (type, payload, user_id)
      select ${type}, s.payload, s.user_id from (${source}) as s`;
}

/**
 * Two CTEs for a statement of another capability that writes rows and the events reporting them at once:
 * `domain_events_written` inserts one event of `type` per row of `source` (as `insertSelectedEvents`; `source` may
 * read the statement's other CTEs), and `domain_events_notified` NOTIFYs `channel` once if it inserted any. The
 * statement must read `domain_events_notified` (`EVENTS_NOTIFIED`): a CTE that only reads runs only when read.
 */
export function selectedEventsCtes(type: string, source: SQL, channel: string): SQL {
  return sql`domain_events_written as (${selectedEventsInsert(type, source)} returning 1),
        domain_events_notified as (
          select pg_notify(${channel}, '') from (select 1 from domain_events_written limit 1) w
        )`;
}

/** The condition (always true) whose evaluation runs `domain_events_notified` (see `selectedEventsCtes`). */
export const EVENTS_NOTIFIED = sql`(select count(*) from domain_events_notified) >= 0`;

/**
 * Events after `after` in (xid, id) order, only those of transactions older than this statement's snapshot xmin
 * (every such transaction has ended: no row can still appear before them), that watermark, and whether committed
 * events wait behind it (`held`: visible rows of transactions at or past the xmin, held back by an older
 * transaction still running, on this database or another of the server).
 */
export async function eventsAfter(
  q: Queryable,
  after: { xid: string; id: string } | null,
  limit: number,
): Promise<{ xmin: string; held: boolean; events: EventRow[] }> {
  const found = await rows<EventRow & { xmin: string; held: boolean }>(
    q,
    sql`with w as (${OUTBOX_WATERMARK})
        select e.id::text as id, e.xid::text as xid, e.type, e.payload, e.user_id::text as user_id,
               e.created_at, w.xmin::text as xmin,
               exists (select 1 from domain_events h where h.xid >= w.xmin) as held
        from w left join lateral (
          select * from domain_events d
          where d.xid < w.xmin
            ${after ? sql`and (d.xid, d.id) > (${after.xid}::xid8, ${after.id}::bigint)` : sql``}
          order by d.xid, d.id
          limit ${limit}
        ) e on true`,
  );
  const xmin = found[0]!.xmin;
  return { xmin, held: found[0]!.held === true, events: found.filter((r) => r.id !== null) };
}

/**
 * The position of event `id` (null when it is no longer, or never was, in the table, or, with `withinMs`, when it
 * was recorded longer ago than that).
 */
export async function positionOfEvent(
  q: Queryable,
  id: string,
  withinMs?: number,
): Promise<{ xid: string; id: string } | null> {
  const [row] = await rows<{ xid: string; id: string }>(
    q,
    sql`select xid::text as xid, id::text as id from domain_events where id = ${id}::bigint
        ${withinMs === undefined ? sql`` : sql`and created_at > now() - make_interval(secs => ${withinMs / 1000}::double precision)`}`,
  );
  return row ?? null;
}

/**
 * Positions of the events already committed after `after` (at most `limit`, in order), whatever the watermark: what a
 * client that connects now has already seen the effect of (its page was read after those commits).
 */
export async function committedPositionsAfter(
  q: Queryable,
  after: { xid: string; id: string },
  limit: number,
): Promise<Array<{ xid: string; id: string }>> {
  return rows<{ xid: string; id: string }>(
    q,
    sql`select xid::text as xid, id::text as id from domain_events
        where (xid, id) > (${after.xid}::xid8, ${after.id}::bigint)
        order by xid, id
        limit ${limit}`,
  );
}

/** The newest position below the watermark: where a consumer that wants only what comes next starts. */
export async function headPosition(q: Queryable): Promise<{ xid: string; id: string }> {
  const [row] = await rows<{ xid: string; id: string }>(
    q,
    sql`with w as (${OUTBOX_WATERMARK})
        select coalesce((select d.xid::text from domain_events d, w where d.xid < w.xmin order by d.xid desc, d.id desc limit 1), '0') as xid,
               coalesce((select d.id::text from domain_events d, w where d.xid < w.xmin order by d.xid desc, d.id desc limit 1), '0') as id`,
  );
  return row!;
}

/**
 * The position of the newest event readable now (as `eventsAfter` reads: transactions older than the snapshot
 * xmin) and how many readable events lie after `after` up to it; null when none does.
 */
export async function readableHeadAfter(
  q: Queryable,
  after: { xid: string; id: string },
): Promise<{ position: { xid: string; id: string }; passed: number } | null> {
  const [row] = await rows<{ xid: string; id: string; passed: string }>(
    q,
    sql`with w as (${OUTBOX_WATERMARK}),
        readable as (
          select d.xid, d.id from domain_events d, w
          where d.xid < w.xmin and (d.xid, d.id) > (${after.xid}::xid8, ${after.id}::bigint)
        )
        select r.xid::text as xid, r.id::text as id, (select count(*) from readable)::text as passed
        from readable r order by r.xid desc, r.id desc limit 1`,
  );
  return row ? { position: { xid: row.xid, id: row.id }, passed: Number(row.passed) } : null;
}

/**
 * A consumer's cursor, locked for this transaction; `held: false` when another instance holds it now. A new
 * cursor starts before every event (xid 0, id 0).
 */
export async function lockCursor(
  tx: Tx,
  name: string,
): Promise<{ held: boolean; position: { xid: string; id: string } }> {
  await tx.insert(domainEventCursors).values({ name, xid: "0", eventId: 0n }).onConflictDoNothing();
  const [row] = await rows<{ xid: string; id: string }>(
    tx,
    sql`select xid::text as xid, event_id::text as id from domain_event_cursors
        where name = ${name} for update skip locked`,
  );
  return row ? { held: true, position: row } : { held: false, position: { xid: "0", id: "0" } };
}

export async function saveCursor(tx: Tx, name: string, position: { xid: string; id: string }): Promise<void> {
  await tx
    .update(domainEventCursors)
    .set({ xid: position.xid, eventId: BigInt(position.id), updatedAt: sql`now()` })
    .where(eq(domainEventCursors.name, name));
}

/** Deletes events created before `before` that every stored cursor has passed; returns how many. */
export async function deleteEventsBefore(q: Queryable, before: Date): Promise<number> {
  const deleted = await rows<{ id: string }>(
    q,
    sql`delete from domain_events d
        where d.created_at < ${before}
          and not exists (select 1 from domain_event_cursors c where (c.xid, c.event_id) < (d.xid, d.id))
        returning d.id::text as id`,
  );
  return deleted.length;
}
