/**
 * Turns domain events (src/domain-events/) into webhook messages, one per matching subscription, as the outbox
 * consumer "webhooks": the messages and the consumer's new position are written in one transaction, by one
 * instance at a time (the cursor's row lock), so every event becomes its messages exactly once, across restarts.
 * The message body is fixed here and sent unchanged on every attempt: `{"type", "timestamp", "data"}`.
 */
import type { Db } from "../db/client.js";
import { readDomainEvents, skipDomainEvents, withConsumerCursor } from "../domain-events/domain-events.js";
import { hasSubscriptions, holdSubscriptions, insertMessages } from "./webhooks.repository.js";

export const WEBHOOK_CONSUMER = "webhooks";

/**
 * The domain events partners may subscribe to (SPEC §11). Other types the outbox may carry (e.g. private ones
 * for a player's live stream) are never sent by webhook.
 */
export const WEBHOOK_EVENT_TYPES = ["event.settled", "prediction.settled", "week.finalized"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
const SENT: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);
const BATCH = 1000;

/** Fans out up to `maxBatches` batches of events; returns how many events and messages, or null (not our turn). */
export async function fanOutDomainEvents(
  db: Db,
  opts: { maxBatches?: number } = {},
): Promise<{ events: number; messages: number } | null> {
  const total = { events: 0, messages: 0 };
  for (let i = 0; i < (opts.maxBatches ?? 20); i++) {
    const done = await withConsumerCursor(db, WEBHOOK_CONSUMER, async (tx, after) => {
      // No subscription: no event so far makes a message (a subscription receives only events recorded after it
      // was created), so the cursor passes them all in one statement instead of reading them in batches (a
      // settle of 100,000 predictions records 100,000 events). The subscriptions are held first: without it, a
      // subscription created and then an event committed between the check and the skip made that event pass
      // unsent, for good.
      await holdSubscriptions(tx);
      if (!(await hasSubscriptions(tx))) {
        const { next, passed } = await skipDomainEvents(tx, after);
        return { next, result: { events: passed, messages: 0 } };
      }
      const { events, next } = await readDomainEvents(tx, { after, limit: BATCH });
      const messages = await insertMessages(
        tx,
        events
          .filter((e) => SENT.has(e.type))
          .map((e) => ({
            id: e.id,
            type: e.type,
            createdAt: e.createdAt,
            body: JSON.stringify({ type: e.type, timestamp: e.createdAt.toISOString(), data: e.payload }),
          })),
      );
      return { next: next ?? after, result: { events: events.length, messages } };
    });
    if (done === null) return i === 0 ? null : total;
    total.events += done.events;
    total.messages += done.messages;
    if (done.events < BATCH) break;
  }
  return total;
}
