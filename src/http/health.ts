/** GET /healthz (process alive) and GET /readyz (database reachable, 503 otherwise). */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { ErrorEnvelope, errorBody, ok, okSchema } from "./envelope.js";

export async function healthRoutes(app: FastifyInstance, opts: { ping: () => Promise<void> }) {
  const Status = okSchema(Type.Object({ status: Type.String() }));
  app.get("/healthz", { schema: { tags: ["ops"], response: { 200: Status } } }, async () =>
    ok({ status: "ok" }),
  );
  app.get(
    "/readyz",
    { schema: { tags: ["ops"], response: { 200: Status, 503: ErrorEnvelope } } },
    async (request, reply) => {
      try {
        await opts.ping();
        return ok({ status: "ready" });
      } catch (err) {
        request.log.warn({ err }, "database not reachable");
        return reply.code(503).send(errorBody("NOT_READY", "Database not reachable"));
      }
    },
  );
}
