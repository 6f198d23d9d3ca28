/** Request and response schemas of the webhook admin API (SPEC §11). */
import { type Static, Type } from "typebox";
import { IdString, Nullable, StringEnum } from "../shared/schema-types.js";
import { WEBHOOK_EVENT_TYPES } from "./fan-out.js";

const EventTypes = Type.Array(StringEnum(WEBHOOK_EVENT_TYPES), { minItems: 1, maxItems: 16 });

export const WebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: "Where messages are POSTed" }),
    events: Type.Optional(EventTypes),
  },
  { additionalProperties: false },
);
export type WebhookInput = Static<typeof WebhookBody>;

export const WebhookParams = Type.Object(
  { id: IdString({ description: "The webhook subscription's id, as its creation answered it" }) },
  { additionalProperties: false },
);

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "How many messages, newest first" }),
    ),
  },
  { additionalProperties: false },
);

const Subscription = {
  id: Type.String(),
  url: Type.String(),
  events: Nullable(
    Type.Array(StringEnum(WEBHOOK_EVENT_TYPES), { description: "The event types sent; null: every type" }),
  ),
  createdAt: Type.String({ format: "date-time" }),
};

export const WebhookSchema = Type.Object(Subscription, { title: "Webhook" });
export const CreatedWebhookSchema = Type.Object(
  {
    ...Subscription,
    secret: Type.String({ description: "whsec_ + base64: the signing secret, shown only in this answer" }),
  },
  { title: "CreatedWebhook" },
);
export const WebhookListSchema = Type.Object({ items: Type.Array(WebhookSchema) }, { title: "WebhookList" });

export const DeliveryListSchema = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        messageId: Type.String(),
        type: StringEnum(WEBHOOK_EVENT_TYPES),
        status: StringEnum(["pending", "delivered", "failed"] as const),
        attempts: Type.Integer(),
        lastStatusCode: Nullable(Type.Integer()),
        nextAttemptAt: Nullable(Type.String({ format: "date-time" })),
      }),
    ),
  },
  { title: "WebhookDeliveries" },
);
