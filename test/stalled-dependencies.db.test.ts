/**
 * Fault drills of issue 11, cases 2–4: a PostgreSQL or a Redis that stops answering (a TCP proxy in front of the
 * machine's server stops forwarding, as under SIGSTOP). Requests never wait past the configured timeouts: a
 * stalled database answers 503 SERVICE_UNAVAILABLE (with retry-after) in the envelope and recovers with no
 * restart; a stalled Redis only turns rate limiting off (fail open) and requests are still served.
 */
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { AdjustableClock } from "../src/clock.js";
import { type Database, openDatabase, pgErrorCode, sql } from "../src/db/client.js";
import { openRedis } from "../src/http/redis-client.js";
import { call, FINALIZE, testConfig } from "./app.js";
import { createScratchPostgres, createTestDatabase, testEngine } from "./db.js";
import { checkResponsesAgainstDocument } from "./response-contract.js";
import { proxyTo, type TcpProxy } from "./tcp-proxy.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

async function appOver(database: Database, redis: Parameters<typeof buildApp>[0]["redis"] = null) {
  const app = await buildApp({ config: testConfig(), database, clock: new AdjustableClock(), redis });
  checkResponsesAgainstDocument(app);
  await app.ready();
  cleanups.push(() => app.close());
  return app;
}

/** Status, body, headers and how long the request took, in ms. */
async function timed(app: FastifyInstance, url: string) {
  const started = performance.now();
  const res = await call(app, { method: "GET", url });
  return { ...res, ms: performance.now() - started };
}

describe.skipIf(testEngine !== "postgres")("a stalled PostgreSQL", () => {
  let proxy: TcpProxy;
  it("answers 503 within the statement timeout, and recovers when the server answers again", async () => {
    const scratch = await createScratchPostgres();
    cleanups.push(scratch.drop);
    const proxied = await proxyTo(scratch.url, 5432);
    proxy = proxied.proxy;
    cleanups.push(() => proxy.close());
    const database = await openDatabase({
      databaseUrl: proxied.url,
      dataDir: null,
      poolSize: 4,
      statementTimeoutMs: 1000,
      connectTimeoutMs: 1000,
    });
    cleanups.push(() => database.close());
    const app = await appOver(database);
    // A warm pool: every connection open.
    const warm = await Promise.all([1, 2, 3, 4].map(() => timed(app, "/api/leaderboard")));
    expect(warm.map((r) => r.status)).toEqual([200, 200, 200, 200]);

    proxy.stall();
    const urls = ["/api/leaderboard", "/api/competition/meta", "/api/available-events", "/readyz"];
    const stalled = await Promise.all([...urls, ...urls].map((u) => timed(app, u)));
    for (const [i, r] of stalled.entries()) {
      const readyz = urls[i % urls.length] === "/readyz";
      expect(r.status, JSON.stringify(r.body)).toBe(503);
      expect(r.body).toMatchObject({
        success: false,
        status: 503,
        code: readyz ? "NOT_READY" : "SERVICE_UNAVAILABLE",
      });
      if (!readyz) expect(r.headers["retry-after"]).toBe("5");
      // statement timeout 1000 ms + 500 ms client grace, or the 1000 ms wait for a connection, plus slack.
      expect(r.ms).toBeLessThan(3000);
    }
    console.log(
      `stalled PostgreSQL: 503 after at most ${Math.round(Math.max(...stalled.map((r) => r.ms)))} ms`,
    );

    proxy.resume();
    const started = performance.now();
    let status = 0;
    while (performance.now() - started < 10_000) {
      status = (await timed(app, "/api/leaderboard")).status;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    console.log(
      `stalled PostgreSQL: served again ${Math.round(performance.now() - started)} ms after resuming`,
    );
    expect((await timed(app, "/readyz")).status).toBe(200);

    // The server gone (connections refused, pooled ones cut): 503 too, not 500.
    await proxy.close();
    for (const url of ["/api/leaderboard", "/api/leaderboard"]) {
      const down = await timed(app, url);
      expect(down.status, JSON.stringify(down.body)).toBe(503);
      expect(down.body.code).toBe("SERVICE_UNAVAILABLE");
      expect(down.ms).toBeLessThan(3000);
    }
  });
});

describe.skipIf(testEngine !== "postgres")("work long by nature at scale", () => {
  it("finalize waits out a statement past a request's bound (the bulk pool); a request's statement does not", async () => {
    const scratch = await createScratchPostgres();
    cleanups.push(scratch.drop);
    const database = await openDatabase({
      databaseUrl: scratch.url,
      dataDir: null,
      poolSize: 4,
      statementTimeoutMs: 300,
      bulkStatementTimeoutMs: 10_000,
      connectTimeoutMs: 1000,
    });
    cleanups.push(() => database.close());
    const app = await appOver(database);
    // Another session blocks writes to competition_weeks (reads go on) for 1.5 s: finalize's first write waits, as
    // its million-row snapshot statement would run.
    const holder = new pg.Client({ connectionString: scratch.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query("begin");
    await holder.query("lock table competition_weeks in exclusive mode");
    const started = performance.now();
    const finalizing = call(app, {
      method: "POST",
      url: "/api/competition/finalize?week=0",
      headers: FINALIZE,
    });
    // A request's statement of that length gives up at its 300 ms bound (57014: canceled by statement_timeout).
    const slow = await database.db.execute(sql`select pg_sleep(1)`).catch((err) => err);
    expect(pgErrorCode(slow)).toBe("57014");
    await new Promise((resolve) => setTimeout(resolve, 1500 - (performance.now() - started)));
    await holder.query("commit");
    const res = await finalizing;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ week: 0, alreadyFinalized: false });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1500);
  });
});

describe.skipIf(!process.env.REDIS_URL)("a stalled Redis", () => {
  it("serves requests within seconds, rate limits failing open", async () => {
    const { proxy, url: proxiedUrl } = await proxyTo(process.env.REDIS_URL!, 6379);
    cleanups.push(() => proxy.close());
    const redis = openRedis(proxiedUrl, 500);
    cleanups.push(async () => redis.disconnect());
    if (redis.status !== "ready") await new Promise((r) => redis.once("ready", r));
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const app = await appOver(database, redis);
    const before = await timed(app, "/api/leaderboard");
    expect(before.status).toBe(200);
    expect(before.headers["x-ratelimit-limit"]).toBeDefined();

    proxy.stall();
    const stalled = await Promise.all([1, 2, 3, 4, 5].map(() => timed(app, "/api/leaderboard")));
    for (const r of stalled) {
      expect(r.status).toBe(200);
      expect(r.ms).toBeLessThan(2000);
    }
    console.log(`stalled Redis: served in at most ${Math.round(Math.max(...stalled.map((r) => r.ms)))} ms`);
    proxy.resume();
  });
});
