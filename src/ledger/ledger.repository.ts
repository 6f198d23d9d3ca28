/**
 * The SP ledger's SQL (private to src/ledger; others use ledger.ts): the only writer of ledger rows and of the totals
 * maintained from them (user_sp_totals and the per-week competitive SP in week_user_sp), always in the caller's
 * transaction so the totals never drift. Append an entry, move an event's competitive SP between weeks, reverse an
 * entry whose source vanished (a chain bet orphaned by a reorganisation).
 */
import { eq, type SQL, sql } from "drizzle-orm";
import { intArray, preparedRows, type Queryable, rows, type Tx, textArray } from "../db/client.js";
import { spLedger } from "../db/schema.js";
import { eventsInStatement, eventsRecordedIn } from "../domain-events/domain-events.js";
import { AppError } from "../errors.js";
import { spLedgerRowsTotal } from "../metrics/app-metrics.js";
import type { Season } from "../shared/season.js";
import { COMPETITIVE_SP_TYPES, type SpType } from "../shared/sp-types.js";
import { epochMsSql, weekIndexSql } from "../shared/week-index-sql.js";

/** One user's SP by ledger type (the profile's totals). */
export async function spByType(q: Queryable, userId: bigint): Promise<Map<string, number>> {
  const found = await rows<{ type: string; total: string }>(
    q,
    sql`select type, sum(amount)::text as total from sp_ledger where user_id = ${userId} group by type`,
  );
  return new Map(found.map((r) => [r.type, Number(r.total)]));
}

/** Those of `externalIds` the SP ledger holds an entry for (an entry already granted). */
export async function existingSpEntries(q: Queryable, externalIds: readonly string[]): Promise<Set<string>> {
  if (externalIds.length === 0) return new Set();
  const found = await rows<{ external_id: string }>(
    q,
    sql`select external_id from sp_ledger where external_id = any(${textArray(externalIds)})`,
  );
  return new Set(found.map((r) => r.external_id));
}

export type SpLedgerRow = typeof spLedger.$inferSelect;

/** Namespace (first key) of the per-event advisory lock that keeps an event's SP in its kickoff week. */
const EVENT_WEEK_LOCK = 727_100;

export interface NewSpEntry {
  userId: bigint;
  type: SpType;
  amount: number;
  eventId: string | null;
  externalId: string;
  /** Set only by `reverseSpEntry`: the row this one compensates. */
  reversesId?: bigint | null;
}

/**
 * Appends one ledger row unless its externalId was seen before (then returns the first row, `created: false`).
 * See `appendSpEntries`.
 */
export async function appendSpEntry(
  tx: Tx,
  season: Season,
  entry: NewSpEntry,
): Promise<{ row: SpLedgerRow; created: boolean }> {
  const [result] = await appendSpEntries(tx, season, [entry]);
  return result!;
}

/**
 * Appends ledger rows set-based, each unless its externalId was seen before (then its result is the first row,
 * `created: false`; a later entry of the same call with the same externalId gets the earlier one's row), and
 * keeps the maintained totals (user_sp_totals, week_user_sp with its rank-feed xid) in the same statement. Results
 * are in the order given. An unknown user or event throws NOT_FOUND and writes nothing.
 *
 * Locks, always in this order so concurrent appends cannot deadlock: the events' shared advisory locks (sorted),
 * the users' rows (sorted by id), the ledger's external ids (inserted sorted), the user_sp_totals rows (sorted),
 * the week_user_sp rows (sorted). The users' rows stand for everything of a user the append writes: two appends
 * for one user meet there first.
 * The shared per-event lock keeps a concurrent kickoff change (moveEventSp) from moving an event between weeks
 * mid-way; it is taken in its own statement so the kickoffs are read (by the next statement) after it is held.
 */
export async function appendSpEntries(
  tx: Tx,
  season: Season,
  entries: NewSpEntry[],
): Promise<Array<{ row: SpLedgerRow; created: boolean }>> {
  if (entries.length === 0) return [];
  const unique = new Map<string, NewSpEntry>();
  for (const e of entries) if (!unique.has(e.externalId)) unique.set(e.externalId, e);
  const list = [...unique.values()];
  const eventIds = [...new Set(list.flatMap((e) => (e.eventId === null ? [] : [e.eventId])))].sort();
  const userIds = [...new Set(list.map((e) => e.userId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // Shared with every other ledger write of the event, exclusive with a kickoff move (moveEventSp): an advisory
  // lock, not a row lock, because many concurrent share locks on one hot event row are slow. The users' rows are
  // locked here too, in id order (the update below would lock them in plan order).
  const [locked] = await preparedRows<{ users: string }>(
    tx,
    "sp_append_lock",
    sql`select (select count(pg_advisory_xact_lock_shared(${EVENT_WEEK_LOCK}, hashtext(e)))
                from (select e from unnest(${textArray(eventIds)}) e order by e) s) as events,
               (select count(*) from (select id from users where id = any(${intArray(userIds, "bigint")})
                order by id for no key update) u)::text as users`,
  );
  if (Number(locked!.users) !== userIds.length) {
    const known = new Set(
      (
        await rows<{ id: string }>(
          tx,
          sql`select id::text as id from users where id = any(${intArray(userIds, "bigint")})`,
        )
      ).map((r) => r.id),
    );
    throw new AppError("NOT_FOUND", `User ${userIds.find((id) => !known.has(String(id)))} not found`);
  }
  // Prepared: for the few rows of a group commit, planning this statement cost as much as running it.
  const found = await preparedRows<RawLedgerRow & { events_found: string }>(
    tx,
    "sp_append_rows",
    appendRowsSql(
      season,
      sql`select * from unnest(${intArray(
        list.map((e) => e.userId),
        "bigint",
      )}, ${textArray(list.map((e) => e.type))}, ${intArray(
        list.map((e) => e.amount),
        "bigint",
      )}, ${textArray(list.map((e) => e.eventId))}, ${textArray(list.map((e) => e.externalId))},
            ${textArray(list.map((e) => (e.reversesId == null ? null : String(e.reversesId))))}::bigint[])
            as i(user_id, type, amount, event_id, external_id, reverses_id)`,
      textArray(eventIds),
      sql`select (select count(*) from ev)::text as events_found, ${LEDGER_COLUMNS} from ins
        union all
        select (select count(*) from ev)::text, null, null, null, null, null, null, null, null`,
    ),
  );
  if (Number(found[found.length - 1]!.events_found) !== eventIds.length) {
    const known = new Set(
      (await rows<{ id: string }>(tx, sql`select id from events where id = any(${textArray(eventIds)})`)).map(
        (r) => r.id,
      ),
    );
    const missing = eventIds.find((id) => !known.has(id));
    throw new AppError("NOT_FOUND", `Event ${missing} not found`);
  }
  const created = new Map(found.filter((r) => r.id !== null).map((r) => [r.external_id, toLedgerRow(r)]));
  for (const row of created.values()) spLedgerRowsTotal.inc({ type: row.type });
  if (created.size > 0) eventsRecordedIn(tx);
  const firstRows = new Map(created);
  const replayed = list.filter((e) => !created.has(e.externalId)).map((e) => e.externalId);
  if (replayed.length > 0) {
    // Rows that existed before (or were committed by a concurrent append this statement waited for).
    const existing = await rows<RawLedgerRow>(
      tx,
      sql`select ${LEDGER_COLUMNS} from sp_ledger where external_id = any(${textArray(replayed)})`,
    );
    for (const r of existing) firstRows.set(r.external_id, toLedgerRow(r));
  }
  const seen = new Set<string>();
  return entries.map((e) => {
    const row = firstRows.get(e.externalId);
    if (!row) throw new Error(`ledger row ${e.externalId} vanished`);
    const isNew = created.has(e.externalId) && !seen.has(e.externalId);
    seen.add(e.externalId);
    return { row, created: isNew };
  });
}

/**
 * The append statement of `inp` (rows `(user_id, type, amount, event_id, external_id, reverses_id)`, at most one
 * per external id) whose events are `eventIds` (a text[] expression), ending with `final` (a select over the
 * CTEs `ev` — the events found — and `ins` — the rows inserted): the rows inserted in external-id order unless the
 * external id exists, user_sp_totals and week_user_sp in the same statement, nothing when an event is missing,
 * and the `ladder.changed` event of each week whose ladder changed (`LADDER_EVENTS`).
 */
function appendRowsSql(season: Season, inp: SQL, eventIds: SQL, final: SQL): SQL {
  const competitive = `{${COMPETITIVE_SP_TYPES.join(",")}}`;
  return sql`with inp as (${inp}),
        ev as (
          select e.id, ${weekIndexSql(season, epochMsSql(sql`e.kickoff_at`))} as week
          from events e where e.id = any(${eventIds})
        ),
        ok as (select count(*) = cardinality(${eventIds}) as all_found from ev),
        ins as (
          insert into sp_ledger (user_id, type, amount, event_id, external_id, reverses_id)
          select user_id, type, amount, event_id, external_id, reverses_id from inp
          where (select all_found from ok) order by external_id
          on conflict (external_id) do nothing
          returning *
        ),
        tot as (
          insert into user_sp_totals (user_id, total_sp)
          select user_id, sum(amount) from ins group by user_id order by user_id
          on conflict (user_id) do update set total_sp = user_sp_totals.total_sp + excluded.total_sp
        ),
        wsp as (
          insert into week_user_sp (week, user_id, sp)
          select ev.week, ins.user_id, sum(ins.amount) from ins join ev on ev.id = ins.event_id
          where ev.week is not null and ins.type = any(${competitive}::text[])
          group by ev.week, ins.user_id order by ev.week, ins.user_id
          on conflict (week, user_id) do update
            set sp = week_user_sp.sp + excluded.sp, changed_xid = pg_current_xact_id()
          returning week
        ),
        ${LADDER_EVENTS.ctes}
        select f.* from (${final}) f where ${LADDER_EVENTS.notified}`;
}

/**
 * The live stream's `ladder.changed` `{week}`, one per week whose competitive SP the append statement changed,
 * recorded by that statement (a statement of its own after it was one more round trip per append).
 */
const LADDER_EVENTS = eventsInStatement(
  "ladder.changed",
  sql`select null::bigint as user_id, jsonb_build_object('week', w.week) as payload
      from (select distinct week from wsp) w order by w.week`,
);

/**
 * Appends the ledger rows `source` selects, set-based and in the database (a settle's 50,000 awards never reach the
 * process): `source` is a query of the capability that owns the rows, selecting `(user_id bigint, type text,
 * amount bigint, event_id text, external_id text)` with distinct external ids, the same rows each time it is run
 * in this transaction (it runs twice: once for the locks, once for the insert). Otherwise as `appendSpEntries`:
 * each row unless its external id exists, the same locks in the same order, the totals in the same statement, an
 * unknown user or event throws NOT_FOUND and writes nothing. Returns how many rows were created.
 */
export async function appendSpEntriesFrom(tx: Tx, season: Season, source: SQL): Promise<number> {
  // The users are looked up by a sorted array: the primary key is walked in id order and the users' pages read in
  // the order they were written, where a join in hash order read them at random and sorted afterwards (a settle's
  // 50,000 users of 1,000,000: 0.50 → 0.27 s; docs/performance.md, "Session 22").
  const [locked] = await rows<{ events: string[]; users: string; wanted: string }>(
    tx,
    sql`with src as materialized (select user_id, event_id from (${source}) s)
        select array(select distinct event_id from src where event_id is not null order by 1) as events,
               (select count(pg_advisory_xact_lock_shared(${EVENT_WEEK_LOCK}, hashtext(e)))
                from (select distinct event_id e from src where event_id is not null order by e) s)::text as locks,
               (select count(*) from (select id from users
                where id = any(array(select distinct user_id from src order by 1))
                order by id for no key update) u)::text as users,
               (select count(distinct user_id) from src)::text as wanted`,
  );
  const eventIds = locked!.events;
  if (locked!.users !== locked!.wanted) {
    const [missing] = await rows<{ id: string }>(
      tx,
      sql`select s.user_id::text as id from (${source}) s where not exists (select 1 from users u where u.id = s.user_id)
          order by s.user_id limit 1`,
    );
    throw new AppError("NOT_FOUND", `User ${missing?.id} not found`);
  }
  const created = await rows<{ events_found: string; type: string | null; created: string }>(
    tx,
    appendRowsSql(
      season,
      sql`select user_id, type, amount, event_id, external_id, null::bigint as reverses_id from (${source}) s`,
      textArray(eventIds),
      sql`select (select count(*) from ev)::text as events_found, type, count(*)::text as created
          from ins group by type
          union all
          select (select count(*) from ev)::text, null, '0'`,
    ),
  );
  if (Number(created[0]!.events_found) !== eventIds.length) {
    const known = new Set(
      (await rows<{ id: string }>(tx, sql`select id from events where id = any(${textArray(eventIds)})`)).map(
        (r) => r.id,
      ),
    );
    throw new AppError("NOT_FOUND", `Event ${eventIds.find((id) => !known.has(id))} not found`);
  }
  let total = 0;
  for (const c of created) {
    if (c.type === null) continue;
    spLedgerRowsTotal.inc({ type: c.type }, Number(c.created));
    total += Number(c.created);
  }
  if (total > 0) eventsRecordedIn(tx);
  return total;
}

const LEDGER_COLUMNS = sql.raw(
  "id::text as id, user_id::text as user_id, type, amount::text as amount, event_id, external_id, reverses_id::text as reverses_id, created_at",
);

interface RawLedgerRow {
  id: string;
  user_id: string;
  type: string;
  amount: string;
  event_id: string | null;
  external_id: string;
  reverses_id: string | null;
  created_at: Date | string;
}

function toLedgerRow(r: RawLedgerRow): SpLedgerRow {
  return {
    id: BigInt(r.id),
    userId: BigInt(r.user_id),
    type: r.type,
    amount: Number(r.amount),
    eventId: r.event_id,
    externalId: r.external_id,
    reversesId: r.reverses_id === null ? null : BigInt(r.reverses_id),
    createdAt: new Date(r.created_at),
  };
}

/**
 * Undoes the row whose external id is `externalId` with its compensating row: same user, type and event, the
 * opposite amount, `reverses_id` set, external id `reversal:<externalId>`. The totals follow as for any row, so a
 * reversed competitive row leaves its week's ladder. At most once per row (a replay returns the first reversal);
 * null when no row has that external id.
 */
export async function reverseSpEntry(
  tx: Tx,
  season: Season,
  externalId: string,
): Promise<{ row: SpLedgerRow; created: boolean } | null> {
  const [original] = await tx.select().from(spLedger).where(eq(spLedger.externalId, externalId));
  if (!original) return null;
  const reversal = await appendSpEntry(tx, season, {
    userId: original.userId,
    type: original.type as SpType,
    amount: -original.amount,
    eventId: original.eventId,
    externalId: `reversal:${externalId}`,
    reversesId: original.id,
  });
  if (reversal.row.reversesId !== original.id) {
    throw new Error(`ledger row reversal:${externalId} exists but does not reverse row ${original.id}`);
  }
  return reversal;
}

async function addWeekSp(
  tx: Tx,
  week: number,
  deltas: Array<{ userId: bigint; amount: number }>,
): Promise<void> {
  for (const d of deltas) {
    await tx.execute(sql`
      insert into week_user_sp (week, user_id, sp) values (${week}, ${d.userId}, ${d.amount})
      on conflict (week, user_id) do update
        set sp = week_user_sp.sp + excluded.sp, changed_xid = pg_current_xact_id()`);
  }
}

/**
 * Moves an event's competitive SP from one week to another after its kickoff changed weeks. Called with the
 * event row locked for update, in the same transaction as the kickoff change.
 */
export async function moveEventSp(tx: Tx, eventId: string, fromWeek: number | null, toWeek: number | null) {
  if (fromWeek === toWeek) return;
  // Waits for in-flight ledger writes of this event and holds new ones until we commit (see appendSpEntry).
  await tx.execute(sql`select pg_advisory_xact_lock(${EVENT_WEEK_LOCK}, hashtext(${eventId}))`);
  const sums = await rows<{ user_id: string; amount: string }>(
    tx,
    sql`select user_id::text as user_id, sum(amount)::text as amount from sp_ledger
        where event_id = ${eventId} and type = any(${`{${COMPETITIVE_SP_TYPES.join(",")}}`}::text[]) group by user_id`,
  );
  const deltas = sums.map((s) => ({ userId: BigInt(s.user_id), amount: Number(s.amount) }));
  if (fromWeek !== null)
    await addWeekSp(
      tx,
      fromWeek,
      deltas.map((d) => ({ ...d, amount: -d.amount })),
    );
  if (toWeek !== null) await addWeekSp(tx, toWeek, deltas);
}

/**
 * The weeks whose competitive SP this transaction changed, as `(user_id, payload)` rows of `ladder.changed` domain
 * events (`{week}`, public): what the live stream turns into `ladder` events.
 */
export function ladderChangesOfThisTransaction(): SQL {
  return sql`select null::bigint as user_id, jsonb_build_object('week', w.week) as payload
             from (select distinct week from week_user_sp where changed_xid = pg_current_xact_id()) w
             order by w.week`;
}
