/**
 * HTTP edge of webhooks (SPEC §11), behind the admin bearer token: POST/GET /api/admin/webhooks,
 * DELETE /api/admin/webhooks/:id, GET /api/admin/webhooks/:id/deliveries.
 */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { AppError } from "../errors.js";
import { hasAdminToken } from "../http/admin-token.js";
import { ok, okSchema } from "../http/envelope.js";
import { presentCreatedWebhook, presentDelivery, presentWebhook } from "./presenters.js";
import {
  CreatedWebhookSchema,
  DeliveriesQuery,
  DeliveryListSchema,
  WebhookBody,
  WebhookListSchema,
  WebhookParams,
} from "./schema.js";
import {
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  registerWebhook,
  type WebhookDeps,
} from "./subscriptions.js";

export async function webhookRoutes(
  instance: FastifyInstance,
  opts: { deps: WebhookDeps; adminToken: string },
) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = opts;
  const tags = ["admin"];
  app.addHook("onRequest", async (request) => {
    if (!hasAdminToken(request.headers.authorization, opts.adminToken)) {
      throw new AppError("UNAUTHENTICATED", "Missing or wrong admin bearer token");
    }
  });

  app.post(
    "/api/admin/webhooks",
    {
      schema: {
        summary: "Subscribe a URL to domain events (Standard Webhooks); the secret is shown only here",
        description:
          "`events` omitted: every type (`events: null`). In production the URL must be https and resolve to " +
          "public addresses only (400 otherwise), checked again at every delivery.",
        tags,
        body: WebhookBody,
        response: { 201: okSchema(CreatedWebhookSchema) },
      },
      config: { auth: "admin" },
    },
    async (request, reply) => {
      const created = await registerWebhook(deps, request.body);
      reply.code(201);
      return ok(presentCreatedWebhook(created));
    },
  );

  app.get(
    "/api/admin/webhooks",
    {
      schema: { summary: "The webhook subscriptions", tags, response: { 200: okSchema(WebhookListSchema) } },
      config: { auth: "admin" },
    },
    async () => ok({ items: (await listWebhooks(deps)).map(presentWebhook) }),
  );

  app.delete(
    "/api/admin/webhooks/:id",
    {
      schema: {
        summary: "Delete a subscription and its pending messages",
        tags,
        params: WebhookParams,
        response: { 200: okSchema(Type.Object({})) },
      },
      config: { auth: "admin", errors: ["NOT_FOUND"] },
    },
    async (request) => {
      await deleteWebhook(deps, { id: request.params.id });
      return ok({});
    },
  );

  app.get(
    "/api/admin/webhooks/:id/deliveries",
    {
      schema: {
        summary: "A subscription's messages, newest first",
        tags,
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: { 200: okSchema(DeliveryListSchema) },
      },
      config: { auth: "admin", errors: ["NOT_FOUND"] },
    },
    async (request) => {
      const items = await listDeliveries(deps, { id: request.params.id, limit: request.query.limit ?? 20 });
      return ok({ items: items.map(presentDelivery) });
    },
  );
}
