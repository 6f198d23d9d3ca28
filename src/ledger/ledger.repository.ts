/**
 * The SP ledger: the only writer of ledger rows and of the totals maintained from them (users.total_sp and the
 * per-week competitive SP in week_user_sp), always in the caller's transaction so the totals never drift.
 */
import { eq, sql } from "drizzle-orm";
import { type Season, weekIndexAt } from "../competition/calendar.js";
import { COMPETITIVE_SP_TYPES, isCompetitiveType, type SpType } from "../competition/competitive-sp.js";
import { rows, type Tx } from "../db/client.js";
import { spLedger } from "../db/schema.js";
import { AppError } from "../errors.js";

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
 * A shared per-event lock keeps a concurrent kickoff change from moving the event between weeks mid-way.
 */
export async function appendSpEntry(
  tx: Tx,
  season: Season,
  entry: NewSpEntry,
): Promise<{ row: SpLedgerRow; created: boolean }> {
  let week: number | null = null;
  if (entry.eventId !== null) {
    // Shared with every other ledger write of the event, exclusive with a kickoff move (moveEventSp): an
    // advisory lock, not a row lock, because many concurrent share locks on one hot event row are slow.
    // Taken in its own statement so the kickoff below is read after the lock is held.
    await tx.execute(
      sql`select pg_advisory_xact_lock_shared(${EVENT_WEEK_LOCK}, hashtext(${entry.eventId}))`,
    );
    const [event] = await rows<{ kickoff_at: Date }>(
      tx,
      sql`select kickoff_at from events where id = ${entry.eventId}`,
    );
    if (!event) throw new AppError("NOT_FOUND", `Event ${entry.eventId} not found`);
    week = weekIndexAt(season, new Date(event.kickoff_at));
  }
  const [inserted] = await tx
    .insert(spLedger)
    .values(entry)
    .onConflictDoNothing({ target: spLedger.externalId })
    .returning();
  if (!inserted) {
    const [first] = await tx.select().from(spLedger).where(eq(spLedger.externalId, entry.externalId));
    if (!first) throw new Error(`ledger row ${entry.externalId} vanished`);
    return { row: first, created: false };
  }
  await tx.execute(sql`update users set total_sp = total_sp + ${entry.amount} where id = ${entry.userId}`);
  if (week !== null && isCompetitiveType(entry.type)) {
    await addWeekSp(tx, week, [{ userId: entry.userId, amount: entry.amount }]);
  }
  return { row: inserted, created: true };
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
