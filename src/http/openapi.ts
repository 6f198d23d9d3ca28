/** OpenAPI 3 generated from the route schemas, served at /docs (UI) and /docs/json. */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.0.3",
      info: {
        title: "SP prediction platform API",
        description:
          "Weekly Qualification and Champions ladders, predictions, rewards. Every response is enveloped.",
        version: "1.0.0",
      },
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "session" },
          admin: { type: "http", scheme: "bearer" },
          finalizeSecret: { type: "apiKey", in: "header", name: "x-competition-finalize-secret" },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
}
