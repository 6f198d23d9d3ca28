/**
 * The webhook subscriptions of the admin API (SPEC §11): register (the secret is returned this once), list,
 * delete, and a subscription's recent deliveries. A URL is refused (400 VALIDATION_FAILED naming `body.url`) when
 * the policy refuses it (url-guard.ts: in production, https to public addresses only).
 */
import type { Db } from "../db/client.js";
import type { DomainEventType } from "../domain-events/domain-events.js";
import { AppError } from "../errors.js";
import { newWebhookSecret } from "./signing.js";
import { webhookUrlProblem } from "./url-guard.js";
import {
  deleteFinishedMessages,
  deleteSubscription,
  findSubscription,
  insertSubscription,
  listMessages,
  listSubscriptions,
  type MessageRow,
  type SubscriptionRow,
} from "./webhooks.repository.js";

export interface WebhookDeps {
  db: Db;
  /** Production: https only, to public addresses only. */
  requirePublicHttps: boolean;
}

export async function registerWebhook(
  deps: WebhookDeps,
  input: { url: string; events?: DomainEventType[] },
): Promise<SubscriptionRow> {
  const problem = await webhookUrlProblem(input.url, deps.requirePublicHttps);
  if (problem) {
    throw new AppError("VALIDATION_FAILED", `body.url ${problem}`, [{ field: "body.url", message: problem }]);
  }
  const events = input.events ? [...new Set(input.events)].sort() : null;
  return insertSubscription(deps.db, { url: input.url, events, secret: newWebhookSecret() });
}

export function listWebhooks(deps: Pick<WebhookDeps, "db">): Promise<SubscriptionRow[]> {
  return listSubscriptions(deps.db);
}

export async function deleteWebhook(deps: Pick<WebhookDeps, "db">, input: { id: string }): Promise<void> {
  if (!(await deleteSubscription(deps.db, BigInt(input.id)))) {
    throw new AppError("NOT_FOUND", `Webhook ${input.id} not found`);
  }
}

export async function listDeliveries(
  deps: Pick<WebhookDeps, "db">,
  input: { id: string; limit: number },
): Promise<MessageRow[]> {
  const id = BigInt(input.id);
  if (!(await findSubscription(deps.db, id)))
    throw new AppError("NOT_FOUND", `Webhook ${input.id} not found`);
  return listMessages(deps.db, id, input.limit);
}

/** How long delivered and failed messages stay listed. */
export const FINISHED_MESSAGE_RETENTION_MS = 7 * 24 * 3600_000;

/** Deletes delivered and failed messages past their retention; returns how many. */
export function pruneWebhookMessages(deps: Pick<WebhookDeps, "db">, now: Date): Promise<number> {
  return deleteFinishedMessages(deps.db, new Date(now.getTime() - FINISHED_MESSAGE_RETENTION_MS));
}
