/**
 * Fan-out across instances (SPEC §12): two apps, each with its own connections to one PostgreSQL database (and,
 * in the Redis case, its own Redis connection), as two instances are. A change made through A reaches a stream
 * client of B within 2 s, through PostgreSQL LISTEN/NOTIFY without Redis, and through Redis pub/sub with it. The
 * readers' fallback poll is set to a minute, so only the signal can carry the change in time. PostgreSQL only
 * (an embedded database belongs to one process); the Redis case runs when REDIS_URL is set.
 *
 * Clock: Fri 2026-11-20 12:00 UTC; the event kicks off Wed 2026-11-25 18:00.
 */
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, testConfig } from "../../test/app.js";
import { createScratchPostgres, testEngine } from "../../test/db.js";
import { buildEventBody, buildMarket } from "../../test/factories.js";
import { openStream, type SseClient } from "../../test/sse-client.js";
import { buildApp } from "../app.js";
import { AdjustableClock } from "../clock.js";
import { openDatabase } from "../db/client.js";
import { openRedis, waitForRedis } from "../http/redis-client.js";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One instance on the database at `url`: its own pool, reader and (when given) Redis connection. */
async function instance(
  url: string,
  redisUrl: string | null,
): Promise<{ app: FastifyInstance; base: string }> {
  const database = await openDatabase({ databaseUrl: url, dataDir: null, poolSize: 5 });
  cleanups.push(() => database.close());
  let redis: Redis | null = null;
  if (redisUrl) {
    const r = openRedis(redisUrl, 1000);
    await waitForRedis(r);
    cleanups.push(() => r.disconnect());
    redis = r;
  }
  const config = testConfig({ STREAM_POLL_MS: "60000", ...(redisUrl ? { REDIS_URL: redisUrl } : {}) });
  const clock = new AdjustableClock(new Date("2026-11-20T12:00:00.000Z"));
  const app = await buildApp({ config, database, clock, redis });
  cleanups.push(() => app.close());
  const base = await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, base };
}

async function oddsChangeCrosses(redisUrl: string | null): Promise<void> {
  const scratch = await createScratchPostgres({ fromTemplate: true });
  cleanups.push(() => scratch.drop());
  const a = await instance(scratch.url, redisUrl);
  const b = await instance(scratch.url, redisUrl);
  const put = (over: Record<string, unknown> = {}) =>
    a.app.inject({
      method: "PUT",
      url: "/api/admin/events/e1",
      headers: ADMIN,
      payload: buildEventBody(over),
    });
  expect((await put()).statusCode).toBe(201);
  const client: SseClient = await openStream(b.base);
  cleanups.push(() => client.close());
  expect(client.status).toBe(200);
  // B's reader is up once its first client is connected; give its LISTEN / SUBSCRIBE a moment to be in place.
  await new Promise((r) => setTimeout(r, 300));

  const changed = await put({
    markets: [buildMarket("1x2", ["home", "Arsenal", 2.4], ["draw", "Draw", 3.4], ["away", "Chelsea", 3.1])],
  });
  expect(changed.statusCode).toBe(200);
  const odds = await client.next((e) => e.event === "odds", 2000);
  expect(odds.data.eventId).toBe("e1");
  expect(odds.data.markets[0].outcomes[0]).toEqual({ key: "home", label: "Arsenal", odds: 2.4 });
}

describe.runIf(testEngine === "postgres")("the stream across two instances", { timeout: 60_000 }, () => {
  it("carries a change made through A to a client of B within 2 s by LISTEN/NOTIFY", async () => {
    await oddsChangeCrosses(null);
  });

  it.runIf(process.env.REDIS_URL)(
    "carries a change made through A to a client of B within 2 s by Redis pub/sub",
    async () => {
      await oddsChangeCrosses(process.env.REDIS_URL!);
    },
  );
});
