/** HTTP edge of events: /api/available-events, /api/events/:id, /api/events/:id/odds. */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { ok, okSchema } from "../http/envelope.js";
import { Nullable } from "../shared/schema-types.js";
import { getEvent, listAvailableEvents } from "./list-events.js";
import { presentEvent, presentOdds } from "./presenters.js";
import { AvailableEventsQuery, EventIdParams, EventSchema, OddsSchema } from "./schema.js";

export async function eventRoutes(instance: FastifyInstance, opts: { deps: { db: Db; clock: Clock } }) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = opts;
  const tags = ["events"];

  app.get(
    "/api/available-events",
    {
      schema: {
        summary: "Open events by kickoff, filtered and paged",
        tags,
        querystring: AvailableEventsQuery,
        response: {
          200: okSchema(
            Type.Object(
              {
                items: Type.Array(EventSchema),
                nextCursor: Nullable(
                  Type.String({ description: "The `cursor` of the next page; null on the last page" }),
                ),
              },
              { title: "EventPage" },
            ),
          ),
        },
      },
      config: { auth: "public", cache: "revalidate" },
    },
    async (request) => {
      const page = await listAvailableEvents(deps, { ...request.query, limit: request.query.limit ?? 20 });
      return ok({ items: page.items.map(presentEvent), nextCursor: page.nextCursor });
    },
  );

  app.get(
    "/api/events/:id",
    {
      schema: { summary: "One event", tags, params: EventIdParams, response: { 200: okSchema(EventSchema) } },
      config: { auth: "public", errors: ["NOT_FOUND"], cache: "revalidate" },
    },
    async (request) => ok(presentEvent(await getEvent(deps, request.params.id))),
  );

  app.get(
    "/api/events/:id/odds",
    {
      schema: {
        summary: "An event's current odds",
        tags,
        params: EventIdParams,
        response: { 200: okSchema(OddsSchema) },
      },
      config: { auth: "public", errors: ["NOT_FOUND"], cache: "revalidate" },
    },
    async (request) => ok(presentOdds(await getEvent(deps, request.params.id))),
  );
}
