/**
 * Shutting the HTTP side down, bounded (`closeWithin`), and what clients see meanwhile (`registerShutdownGate`).
 *
 * Once the app starts closing:
 * - no new connection is accepted;
 * - idle keep-alive connections, and connections opened but never used (Node counts those as busy and would wait
 *   on them until the client goes), are closed at once;
 * - requests in flight run on; once a response is sent, its connection is closed if it has gone idle (a
 *   keep-alive connection would otherwise idle on until its keep-alive timeout, 72 s);
 * - a request that still arrives (on a keep-alive connection, or pipelined behind one in flight) answers 503
 *   SERVICE_UNAVAILABLE in the error envelope with `retry-after` instead of Fastify's own 503 body (the app is
 *   built with `return503OnClosing: false`);
 * - at the budget (`closeWithin`), every connection still open (a slow body, a request outliving it) is destroyed.
 */
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { errorBody } from "./envelope.js";

/** Seconds a client should wait before retrying, here or on another instance. */
const RETRY_AFTER_SECONDS = 1;

export function registerShutdownGate(app: FastifyInstance): void {
  let closing = false;
  // Requests in flight per connection; a connection absent here has never carried a request.
  const inFlight = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();
  app.server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  app.server.on("request", (req, res) => {
    const socket = req.socket as Socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once("close", () => {
      inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
      // A request pipelined behind this one keeps the connection busy: it is still answered (the 503 below).
      if (closing) setImmediate(() => app.server.closeIdleConnections());
    });
  });
  app.addHook("preClose", async () => {
    closing = true;
    for (const socket of sockets) {
      // Opened but silent so far (not a byte read): nothing is lost by closing it. A connection that has sent part
      // of a request counts as in flight, and gets the budget.
      if ((inFlight.get(socket) ?? 0) === 0 && socket.bytesRead === 0) socket.destroy();
    }
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

/**
 * Closes `app` (its server and its onClose hooks) and resolves when that is done, destroying every connection
 * still open once `budgetMs` has passed. Resolves `true` when everything finished within the budget.
 */
export async function closeWithin(app: FastifyInstance, budgetMs: number): Promise<boolean> {
  let forced = false;
  const timer = setTimeout(() => {
    forced = true;
    app.server.closeAllConnections();
  }, budgetMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
  return !forced;
}
