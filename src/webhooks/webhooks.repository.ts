/** The only SQL of webhooks: subscriptions, their messages (the delivery queue), claiming and outcomes. */
import { and, desc, eq, sql } from "drizzle-orm";
import { intArray, type Queryable, rows, type Tx, textArray } from "../db/client.js";
import { webhookMessages, webhookSubscriptions } from "../db/schema.js";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type MessageRow = typeof webhookMessages.$inferSelect;

export async function insertSubscription(
  q: Queryable,
  values: { url: string; events: string[] | null; secret: string },
): Promise<SubscriptionRow> {
  const [row] = await q.insert(webhookSubscriptions).values(values).returning();
  return row!;
}

export async function listSubscriptions(q: Queryable): Promise<SubscriptionRow[]> {
  return q.select().from(webhookSubscriptions).orderBy(webhookSubscriptions.id);
}

/** True when any subscription exists. */
/**
 * Holds the subscriptions as they are until `tx` ends (SHARE: a subscription being created, changed or deleted waits
 * for it, and it waits for one already under way), so what `tx` decides from them stays true while it acts on it.
 */
export async function holdSubscriptions(tx: Tx): Promise<void> {
  await tx.execute(sql`lock table webhook_subscriptions in share mode`);
}

export async function hasSubscriptions(q: Queryable): Promise<boolean> {
  const [row] = await q.select({ id: webhookSubscriptions.id }).from(webhookSubscriptions).limit(1);
  return row !== undefined;
}

export async function findSubscription(q: Queryable, id: bigint): Promise<SubscriptionRow | null> {
  const [row] = await q.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id));
  return row ?? null;
}

/** Deletes a subscription and (cascade) its messages; false when there was none. */
export async function deleteSubscription(q: Queryable, id: bigint): Promise<boolean> {
  const deleted = await q
    .delete(webhookSubscriptions)
    .where(eq(webhookSubscriptions.id, id))
    .returning({ id: webhookSubscriptions.id });
  return deleted.length === 1;
}

/** A subscription's newest messages first. */
export async function listMessages(
  q: Queryable,
  subscriptionId: bigint,
  limit: number,
): Promise<MessageRow[]> {
  return q
    .select()
    .from(webhookMessages)
    .where(and(eq(webhookMessages.subscriptionId, subscriptionId)))
    .orderBy(desc(webhookMessages.id))
    .limit(limit);
}

/**
 * One message per (matching subscription, event): a subscription takes the events of its types (all when `events`
 * is null) recorded since it was created. Idempotent: an existing (subscription, event) pair is left alone.
 * Returns how many messages were created.
 */
export async function insertMessages(
  tx: Tx,
  events: ReadonlyArray<{ id: string; type: string; createdAt: Date; body: string }>,
): Promise<number> {
  if (events.length === 0) return 0;
  const created = await rows<{ id: string }>(
    tx,
    sql`insert into webhook_messages (message_id, subscription_id, event_id, type, body, next_attempt_at)
        select 'msg_' || replace(gen_random_uuid()::text, '-', ''), s.id, e.id, e.type, e.body, now()
        from unnest(${intArray(
          events.map((e) => e.id),
          "bigint",
        )}, ${textArray(events.map((e) => e.type))}, ${textArray(events.map((e) => e.createdAt.toISOString()))}::timestamptz[],
          ${textArray(events.map((e) => e.body))}) as e(id, type, created_at, body)
        join webhook_subscriptions s
          on (s.events is null or e.type = any(s.events)) and s.created_at <= e.created_at
        order by e.id, s.id
        on conflict (subscription_id, event_id) do nothing
        returning id::text as id`,
  );
  return created.length;
}

export interface ClaimedMessage {
  id: string;
  messageId: string;
  type: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/**
 * Leases up to `limit` due pending messages for `leaseSeconds` (SKIP LOCKED: instances claiming at once get
 * different messages; a message leased by an instance that died is due again when its lease ends).
 */
export async function claimDueMessages(
  q: Queryable,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedMessage[]> {
  return rows<ClaimedMessage>(
    q,
    sql`with due as (
          select id from webhook_messages
          where status = 'pending' and next_attempt_at <= now()
            and (locked_until is null or locked_until <= now())
          order by next_attempt_at, id
          limit ${limit}
          for update skip locked
        )
        update webhook_messages m
        set locked_until = now() + make_interval(secs => ${leaseSeconds})
        from due, webhook_subscriptions s
        where m.id = due.id and s.id = m.subscription_id
        returning m.id::text as id, m.message_id as "messageId", m.type, m.body, m.attempts, s.url, s.secret`,
  );
}

/** Records a delivered attempt. */
export async function markDelivered(q: Queryable, id: string, statusCode: number): Promise<void> {
  await q.execute(
    sql`update webhook_messages
        set status = 'delivered', attempts = attempts + 1, last_status_code = ${statusCode}, last_error = null,
            delivered_at = now(), next_attempt_at = null, locked_until = null
        where id = ${id}::bigint and status = 'pending'`,
  );
}

/** Records a failed attempt: due again after `retryInMs`, or `failed` when null. */
export async function markAttemptFailed(
  q: Queryable,
  id: string,
  outcome: { statusCode: number | null; error: string; retryInMs: number | null },
): Promise<void> {
  await q.execute(
    sql`update webhook_messages
        set attempts = attempts + 1, last_status_code = ${outcome.statusCode}, last_error = ${outcome.error.slice(0, 500)},
            status = ${outcome.retryInMs === null ? "failed" : "pending"},
            next_attempt_at = ${
              outcome.retryInMs === null
                ? sql`null`
                : sql`now() + make_interval(secs => ${outcome.retryInMs / 1000})`
            },
            locked_until = null
        where id = ${id}::bigint and status = 'pending'`,
  );
}

/** Deletes delivered or failed messages finished before `before`; returns how many. */
export async function deleteFinishedMessages(q: Queryable, before: Date): Promise<number> {
  const deleted = await rows<{ id: string }>(
    q,
    sql`delete from webhook_messages
        where status <> 'pending' and coalesce(delivered_at, created_at) < ${before}
        returning id::text as id`,
  );
  return deleted.length;
}
