/**
 * HTTP edge of the live stream: GET /api/stream (SPEC §12), Server-Sent Events, signed in or not (the `session`
 * cookie, resolved as every route does: a signed-in player also gets his own `balance` and `prediction` events).
 *
 * One StreamHub per app (stream-hub.ts) holds every connection of the instance; at STREAM_MAX_CLIENTS a new one
 * answers 503 SERVICE_UNAVAILABLE in the error envelope. The answer is never compressed (http/compression.ts
 * leaves `text/event-stream` out) nor cached (`cache-control: no-cache`), and `x-accel-buffering: no` asks a
 * reverse proxy (nginx) not to buffer it. Rate limits count the connect as one read; a connection held open counts
 * nothing more. On close (graceful shutdown) every stream is ended at once, before the server waits for requests in
 * flight, so streams never hold a shutdown up.
 */
import type { OutgoingHttpHeaders } from "node:http";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { STREAM_EVENTS_DESCRIPTION, StreamHeaders, StreamQuery } from "./schema.js";
import { StreamHub } from "./stream-hub.js";
import { announceCommits, listenForEvents } from "./stream-signals.js";

/** How long EventSource waits before reconnecting after a drop (the SSE `retry:` field), in ms. */
const RETRY_MS = 2000;

export async function streamRoutes(
  instance: FastifyInstance,
  opts: { database: Database; redis: Redis | null; config: Config },
) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { database, redis, config } = opts;
  const hub = new StreamHub({
    db: database.db,
    listen: (wake) => listenForEvents({ database, redis }, wake),
    maxClients: config.streamMaxClients,
    pingMs: config.streamPingMs,
    pollMs: config.streamPollMs,
    log: app.log,
  });
  const stopAnnouncing = announceCommits(database, redis);
  app.addHook("preClose", async () => {
    stopAnnouncing();
    await hub.stop();
  });

  app.get(
    "/api/stream",
    {
      schema: {
        summary: "Live updates (Server-Sent Events): odds, events, ladders, weeks, and the player's own",
        description: STREAM_EVENTS_DESCRIPTION,
        tags: ["stream"],
        headers: StreamHeaders,
        querystring: StreamQuery,
        response: {
          200: {
            description: "An endless `text/event-stream` (see the operation's description)",
            content: { "text/event-stream": { schema: { type: "string" } } },
          },
        },
      },
      config: { auth: "session-optional" },
    },
    async (request, reply) => {
      const session = await request.sessionUserId();
      const lastEventId = request.headers["last-event-id"] ?? request.query.lastEventId ?? null;
      const res = reply.raw;
      // Until the answer's head is written (after connect, which may still refuse with the 503 envelope), what the
      // hub sends (a replay) waits here; the first bytes tell EventSource how soon to reconnect.
      let pending: string[] | null = [`retry: ${RETRY_MS}\n: connected\n\n`];
      let endedEarly = false;
      const remove = await hub.connect(
        {
          userId: session?.userId ?? null,
          write: (chunk) => {
            if (pending) pending.push(chunk);
            else if (!res.writableEnded && !res.destroyed) res.write(chunk);
          },
          backlogBytes: () => res.writableLength,
          end: () => {
            if (pending) endedEarly = true;
            else res.end();
          },
          drop: () => {
            pending = null;
            res.destroy();
          },
        },
        lastEventId,
      );
      // Written straight to the socket, not through a reply stream: a settle writes to thousands of clients at
      // once. The headers set by the hooks so far (security, CORS, rate limit, request id) go out with it.
      reply.hijack();
      if (pending === null) return; // dropped as too slow while its replay was written
      res.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        "x-accel-buffering": "no",
      });
      // A write to a connection the client closed meanwhile fails with an 'error' event: nothing to do about it
      // ('close' removes the client), and unheard it would end the process.
      res.on("error", () => {});
      res.write(pending.join(""));
      pending = null;
      if (endedEarly) res.end();
      res.once("close", remove);
      if (res.destroyed) remove();
    },
  );
}
