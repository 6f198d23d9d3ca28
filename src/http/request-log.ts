/**
 * Request ids and the one log line per request. Every request gets an id: the caller's `x-request-id` when it is a
 * safe short token (letters, digits, `.`, `_`, `-`, at most 64), a fresh UUID otherwise; it is sent back as
 * `x-request-id` and carried by every log line of the request (`reqId`, pino JSON lines). When the request ends,
 * one line `{reqId, method, route, statusCode, durationMs, userId}` (`userId` once the session named one).
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user's id once a session lookup found one (for the request's log line). */
    knownUserId?: string;
  }
}

/** Fastify's `genReqId`: the caller's id when safe, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? "unmatched",
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        ...(request.knownUserId ? { userId: request.knownUserId } : {}),
      },
      "request",
    );
  });
}
