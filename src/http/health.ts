/** GET /healthz (process alive) and GET /readyz (database reachable, 503 otherwise). */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { StringEnum } from "../shared/schema-types.js";
import { ErrorEnvelope, errorBody, ok, okSchema } from "./envelope.js";

export async function healthRoutes(app: FastifyInstance, opts: { ping: () => Promise<void> }) {
  const Status = (status: string, description: string) =>
    okSchema(Type.Object({ status: StringEnum([status]) }), { description });
  app.get(
    "/healthz",
    {
      schema: {
        summary: "The process is alive",
        tags: ["ops"],
        response: { 200: Status("ok", "OK: the process answers (it checks nothing else)") },
      },
      config: { auth: "public" },
    },
    async () => ok({ status: "ok" }),
  );
  app.get(
    "/readyz",
    {
      schema: {
        summary: "The database is reachable",
        tags: ["ops"],
        response: { 200: Status("ready", "OK: the database answered a ping"), 503: ErrorEnvelope },
      },
      config: { auth: "public", errors: ["NOT_READY"] },
    },
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
