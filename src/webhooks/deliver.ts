/**
 * Delivers due webhook messages, at least once each (SPEC §11). A message is leased (`locked_until`, claimed with
 * SKIP LOCKED) by one instance, POSTed with Standard Webhooks headers — `webhook-id` the message's id on every
 * attempt, `webhook-timestamp` the attempt's Unix time, `webhook-signature` over both and the body — and its
 * outcome stored: a 2xx within the timeout is delivered; anything else is retried after the backoff (backoff.ts),
 * the 7th failure is final. The schedule lives in the database, so it survives restarts; a crash between the POST
 * and its record sends the message again after the lease (same id: receivers deduplicate on it).
 *
 * Each attempt logs one line `{op: "webhook-delivery", messageId, type, outcome, statusCode, attempt, durationMs}`
 * and counts in `app_webhook_deliveries_total{outcome}` (delivered, retry, failed).
 */
import type { Db } from "../db/client.js";
import { webhookDeliveriesTotal } from "../metrics/app-metrics.js";
import { elapsedMs, type OpLog } from "../shared/op-log.js";
import { nextRetryDelayMs, RETRY_DELAYS_MS } from "./backoff.js";
import { postWebhook } from "./post-webhook.js";
import { signWebhook } from "./signing.js";
import { claimDueMessages, markAttemptFailed, markDelivered } from "./webhooks.repository.js";

export interface DeliveryDeps {
  db: Db;
  log: OpLog;
  requirePublicHttps: boolean;
  /** Bound of one attempt; default 15 s. */
  timeoutMs?: number;
  /** Delays after the 1st, 2nd, … failed attempt; default the SPEC's (backoff.ts). */
  retryDelaysMs?: readonly number[];
  /** Messages delivered concurrently; default 16. */
  concurrency?: number;
  /** Wall-clock seconds for `webhook-timestamp` (receivers compare it with their own clock). */
  nowSeconds?: () => number;
}

/** Claims and delivers due messages until none is due or `maxRounds` rounds ran; returns how many were attempted. */
export async function deliverDueMessages(
  deps: DeliveryDeps,
  opts: { maxRounds?: number } = {},
): Promise<number> {
  const timeoutMs = deps.timeoutMs ?? 15_000;
  const concurrency = deps.concurrency ?? 16;
  // The lease outlasts an attempt comfortably: no second instance takes a message still being sent.
  const leaseSeconds = Math.ceil(timeoutMs / 1000) * 2 + 30;
  let attempted = 0;
  for (let round = 0; round < (opts.maxRounds ?? 10); round++) {
    const claimed = await claimDueMessages(deps.db, concurrency, leaseSeconds);
    if (claimed.length === 0) break;
    await Promise.all(claimed.map((m) => deliverOne(deps, m, timeoutMs)));
    attempted += claimed.length;
  }
  return attempted;
}

async function deliverOne(
  deps: DeliveryDeps,
  m: Awaited<ReturnType<typeof claimDueMessages>>[number],
  timeoutMs: number,
): Promise<void> {
  const startedAt = performance.now();
  const timestamp = deps.nowSeconds?.() ?? Math.floor(Date.now() / 1000);
  const result = await postWebhook(
    m.url,
    {
      "webhook-id": m.messageId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(m.secret, m.messageId, timestamp, m.body),
    },
    m.body,
    { timeoutMs, requirePublicHttps: deps.requirePublicHttps },
  );
  const attempt = m.attempts + 1;
  let outcome: "delivered" | "retry" | "failed";
  if (result.ok) {
    await markDelivered(deps.db, m.id, result.status);
    outcome = "delivered";
  } else {
    const retryInMs = nextRetryDelayMs(attempt, deps.retryDelaysMs ?? RETRY_DELAYS_MS);
    await markAttemptFailed(deps.db, m.id, { statusCode: result.status, error: result.error, retryInMs });
    outcome = retryInMs === null ? "failed" : "retry";
  }
  webhookDeliveriesTotal.inc({ outcome });
  const line = {
    op: "webhook-delivery",
    messageId: m.messageId,
    type: m.type,
    outcome,
    statusCode: result.status,
    attempt,
    durationMs: elapsedMs(startedAt),
    ...(result.ok ? {} : { error: result.error }),
  };
  if (outcome === "delivered") deps.log.info(line, "webhook delivery");
  else deps.log.warn(line, "webhook delivery");
}
