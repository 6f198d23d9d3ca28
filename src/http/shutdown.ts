/**
 * Requests that arrive while the app is closing (on a keep-alive connection, or pipelined behind one in flight)
 * answer 503 SERVICE_UNAVAILABLE in the error envelope with `retry-after` and `connection: close`, instead of
 * Fastify's own 503 body (the app is built with `return503OnClosing: false`). Requests already running finish.
 */
import type { FastifyInstance } from "fastify";
import { errorBody } from "./envelope.js";

/** Seconds a client should wait before retrying, here or on another instance. */
const RETRY_AFTER_SECONDS = 1;

export function registerShutdownGate(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", async (_request, reply) => {
    if (!closing) return;
    return reply
      .code(503)
      .header("retry-after", String(RETRY_AFTER_SECONDS))
      .header("connection", "close")
      .send(errorBody("SERVICE_UNAVAILABLE", "The server is shutting down; retry shortly"));
  });
}
