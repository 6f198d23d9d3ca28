/** What goes out about webhook subscriptions and their messages; the secret only at creation. */
import type { WebhookEventType } from "./fan-out.js";
import type { MessageRow, SubscriptionRow } from "./webhooks.repository.js";

export function presentWebhook(s: SubscriptionRow) {
  return {
    id: String(s.id),
    url: s.url,
    events: (s.events as WebhookEventType[] | null) ?? null,
    createdAt: s.createdAt.toISOString(),
  };
}

export function presentCreatedWebhook(s: SubscriptionRow) {
  return { ...presentWebhook(s), secret: s.secret };
}

export function presentDelivery(m: MessageRow) {
  return {
    messageId: m.messageId,
    type: m.type as WebhookEventType,
    status: m.status as "pending" | "delivered" | "failed",
    attempts: m.attempts,
    lastStatusCode: m.lastStatusCode,
    nextAttemptAt: m.nextAttemptAt?.toISOString() ?? null,
  };
}
