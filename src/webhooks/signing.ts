/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com/): a secret is `whsec_` + base64 of random bytes;
 * a message's `webhook-signature` is `v1,` + base64 of HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`
 * keyed with the secret's decoded bytes, so any Standard Webhooks library verifies it.
 */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new secret: `whsec_` + base64 of 32 random bytes (SPEC §11: at least 24). */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** The `webhook-signature` header value of one attempt. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}
