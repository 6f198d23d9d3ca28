/**
 * Operations (SPEC §11, issue 23) through HTTP on the engine under test: /metrics behind METRICS_TOKEN with the
 * business metrics moving as bets, settlements, ledger rows and a finalize happen; indexer lag in /metrics and
 * /readyz (degraded past INDEXER_MAX_LAG_SECONDS = 300); /readyz naming Redis; request ids and the log lines.
 *
 * Clock: Fri 2026-11-20 12:00 (week 1); week 0 (ended Tue 2026-11-10) can be finalized. The event kicks off Wed
 * 2026-11-25. Player A stakes 100 credits on home at 2.15 and wins: 215 credits back and 215 SP (PREDICTION).
 */
import { once } from "node:events";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  ADMIN,
  call,
  createTestApp,
  FINALIZE,
  signIn,
  type TestApp,
  testConfig,
  testKey,
} from "../../test/app.js";
import { createScratchPostgres, createTestDatabase, testEngine } from "../../test/db.js";
import { buildBetBody } from "../../test/factories.js";
import { bet, dataOf, expectError, postResult, putEvent } from "../../test/player-api.js";
import { buildApp } from "../app.js";
import { recordIndexerCheck } from "../chain/indexer-health.js";
import { AdjustableClock } from "../clock.js";
import { openDatabase, sql } from "../db/client.js";
import { openRedis } from "./redis-client.js";

const TOKEN = "metrics-token-0123456789";
const NOW = new Date("2026-11-20T12:00:00.000Z");
const FEE_CONTRACT = "0x00000000000000000000000000000000000000fe";
const CHAIN = {
  FEE_INDEXER: "on",
  CHAIN_ID: "8453",
  CHAIN_RPC_URL: "http://127.0.0.1:9",
  FEE_CONTRACT_ADDRESSES: FEE_CONTRACT,
};

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** The samples of a Prometheus text exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (!m) throw new Error(`not a valid exposition line: ${line}`);
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}

async function scrape(t: TestApp): Promise<Map<string, number>> {
  const res = await t.app.inject({
    method: "GET",
    url: "/metrics",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toContain("text/plain");
  return samples(res.body);
}

describe("metrics", () => {
  it("requires METRICS_TOKEN, serves SPEC §11's names, and moves them", async () => {
    const t = await createTestApp({ now: NOW, env: { METRICS_TOKEN: TOKEN } });
    open.push(t);
    for (const authorization of [undefined, "Bearer wrong-token-000000000", TOKEN]) {
      const res = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization ? { authorization } : {},
      });
      expectError({ status: res.statusCode, body: res.json() }, 401, "UNAUTHENTICATED");
    }
    const text = (
      await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })
    ).body;
    for (const [name, type] of [
      ["app_bets_total", "counter"],
      ["app_settlements_total", "counter"],
      ["app_sp_ledger_rows_total", "counter"],
      ["app_finalize_duration_seconds", "histogram"],
      ["app_last_finalized_week", "gauge"],
      ["app_finalize_failures_total", "counter"],
      ["app_indexer_lag_blocks", "gauge"],
      ["app_indexer_lag_seconds", "gauge"],
      ["app_webhook_deliveries_total", "counter"],
      ["app_stream_clients", "gauge"],
      ["app_display_store_users", "gauge"],
    ]) {
      expect(text).toContain(`# TYPE ${name} ${type}\n`);
    }
    const before = await scrape(t);
    expect(before.get("app_last_finalized_week")).toBe(-1);
    const v = (m: Map<string, number>, k: string) => m.get(k) ?? 0;

    await putEvent(t, "ops-1");
    const a = await signIn(t, testKey(1));
    dataOf(await bet(t, a.cookie, buildBetBody("ops-1", { stake: 100 })), 201);
    const afterBet = await scrape(t);
    expect(v(afterBet, 'app_bets_total{version="1",status="open"}')).toBe(
      v(before, 'app_bets_total{version="1",status="open"}') + 1,
    );

    dataOf(await postResult(t, "ops-1", { status: "finished", winningOutcome: "home" }));
    const afterSettle = await scrape(t);
    expect(v(afterSettle, "app_settlements_total")).toBe(v(before, "app_settlements_total") + 1);
    expect(v(afterSettle, 'app_sp_ledger_rows_total{type="PREDICTION"}')).toBe(
      v(before, 'app_sp_ledger_rows_total{type="PREDICTION"}') + 1,
    );

    const fin = await call(t.app, {
      method: "POST",
      url: "/api/competition/finalize?week=0",
      headers: FINALIZE,
    });
    expect(fin.status).toBe(200);
    const afterFinalize = await scrape(t);
    expect(afterFinalize.get("app_last_finalized_week")).toBe(0);
    expect(v(afterFinalize, "app_finalize_duration_seconds_count")).toBe(
      v(before, "app_finalize_duration_seconds_count") + 1,
    );
    // A repeated finalize finalizes nothing: no new duration sample.
    await call(t.app, { method: "POST", url: "/api/competition/finalize?week=0", headers: FINALIZE });
    expect(v(await scrape(t), "app_finalize_duration_seconds_count")).toBe(
      v(afterFinalize, "app_finalize_duration_seconds_count"),
    );
  });
});

describe.skipIf(testEngine !== "postgres")("the database pools in /metrics", () => {
  it("counts busy, idle and waiting connections of each pool, so a saturated or wedged pool shows", async () => {
    const scratch = await createScratchPostgres({ fromTemplate: true });
    // A pool of 2; a query waits 2 s for a connection before it gives up.
    const database = await openDatabase({
      databaseUrl: scratch.url,
      dataDir: null,
      poolSize: 2,
      connectTimeoutMs: 2000,
    });
    open.push({ close: () => database.close().then(scratch.drop) });
    const t = await createTestApp({ now: NOW, env: { METRICS_TOKEN: TOKEN }, database });
    open.push(t);
    const pools = (m: Map<string, number>, pool: string) =>
      Object.fromEntries(
        ["busy", "idle", "waiting"].map((state) => [
          state,
          m.get(`app_db_pool_connections{pool="${pool}",state="${state}"}`),
        ]),
      );
    // The scrape's own read of the last finalized week has come and gone: one connection, idle.
    await scrape(t);
    const idle = await scrape(t);
    expect(idle.get('app_db_pool_size{pool="requests"}')).toBe(2);
    expect(idle.get('app_db_pool_size{pool="bulk"}')).toBe(2);
    expect(pools(idle, "requests")).toEqual({ busy: 0, idle: 1, waiting: 0 });
    expect(pools(idle, "bulk")).toEqual({ busy: 0, idle: 0, waiting: 0 });

    // Both connections held by open transactions, and one more query waiting for a connection.
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const held = [1, 2].map(() => database.db.transaction(() => gate));
    await new Promise((r) => setTimeout(r, 200));
    const waiting = database.db.execute(sql`select 1`).catch(() => null);
    const saturated = await scrape(t);
    expect(pools(saturated, "requests").busy).toBe(2);
    expect(pools(saturated, "requests").idle).toBe(0);
    // The waiting query, and the scrape's own read when it asked before this gauge was read.
    expect(pools(saturated, "requests").waiting).toBeGreaterThanOrEqual(1);
    release();
    await Promise.all([...held, waiting]);
    const after = await scrape(t);
    expect(pools(after, "requests")).toEqual({ busy: 0, idle: 2, waiting: 0 });
  });
});

describe("indexer lag in /metrics and /readyz", () => {
  it("reports each configured indexer's lag, degraded past INDEXER_MAX_LAG_SECONDS", async () => {
    const t = await createTestApp({ now: NOW, env: { ...CHAIN, METRICS_TOKEN: TOKEN } });
    open.push(t);
    // Not checked yet: unknown, degraded.
    let ready = dataOf(await call(t.app, { method: "GET", url: "/readyz" }));
    expect(ready).toEqual({
      status: "degraded",
      dependencies: [{ name: "database", status: "ok" }],
      indexers: [{ indexer: "fees", lagBlocks: null, lagSeconds: null, status: "unknown" }],
    });
    expect((await scrape(t)).has('app_indexer_lag_seconds{indexer="fees"}')).toBe(false);

    // The indexer stored blocks up to 989, stamped 400 s ago, and saw final block 1000: 11 blocks, 400 s behind.
    const cursor = `fees:test`;
    await t.database.db.execute(
      sql`insert into chain_blocks (name, number, hash, block_time)
          values (${cursor}, 989, '0xaa', ${new Date(NOW.getTime() - 400_000)})`,
    );
    const run = { ranges: 1, created: 0, rolledBack: 0, cursor };
    await recordIndexerCheck(
      t.database.db,
      "fees",
      { ...run, status: "indexed", nextBlock: 990n, head: 1000n },
      NOW,
    );
    ready = dataOf(await call(t.app, { method: "GET", url: "/readyz" }));
    expect(ready.status).toBe("degraded");
    expect(ready.indexers).toEqual([{ indexer: "fees", lagBlocks: 11, lagSeconds: 400, status: "lagging" }]);
    let m = await scrape(t);
    expect(m.get('app_indexer_lag_blocks{indexer="fees"}')).toBe(11);
    expect(m.get('app_indexer_lag_seconds{indexer="fees"}')).toBe(400);

    // Caught up 30 s ago (final block 1000 read): 0 blocks, 30 s.
    await recordIndexerCheck(
      t.database.db,
      "fees",
      { ...run, status: "caught-up", nextBlock: 1001n, head: 1000n },
      new Date(NOW.getTime() - 30_000),
    );
    ready = dataOf(await call(t.app, { method: "GET", url: "/readyz" }));
    expect(ready).toEqual({
      status: "ready",
      dependencies: [{ name: "database", status: "ok" }],
      indexers: [{ indexer: "fees", lagBlocks: 0, lagSeconds: 30, status: "ok" }],
    });
    m = await scrape(t);
    expect(m.get('app_indexer_lag_blocks{indexer="fees"}')).toBe(0);
    expect(m.get('app_indexer_lag_seconds{indexer="fees"}')).toBe(30);
    // An indexer that stops checking falls behind with the clock: 301 s after its last check, degraded.
    t.clock.set(new Date(NOW.getTime() + 271_000));
    ready = dataOf(await call(t.app, { method: "GET", url: "/readyz" }));
    expect(ready.status).toBe("degraded");
    expect(ready.indexers[0]).toMatchObject({ lagSeconds: 301, status: "lagging" });
  });
});

describe("/readyz and Redis", () => {
  it("names Redis when configured, and answers 503 naming it when it does not answer", async () => {
    const database = await createTestDatabase();
    open.push(database);
    const redis = openRedis("redis://127.0.0.1:9", 200);
    redis.on("error", () => {});
    open.push({ close: async () => redis.disconnect() });
    const app = await buildApp({ config: testConfig(), database, clock: new AdjustableClock(NOW), redis });
    open.push(app);
    const res = await app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      success: false,
      error: "Redis not reachable",
      status: 503,
      code: "NOT_READY",
    });

    if (process.env.REDIS_URL) {
      const live = openRedis(process.env.REDIS_URL, 1000);
      open.push({ close: async () => live.disconnect() });
      // As at a server's start: not ready until connected.
      await once(live, "ready");
      const app2 = await buildApp({
        config: testConfig(),
        database,
        clock: new AdjustableClock(NOW),
        redis: live,
      });
      open.push(app2);
      const ok = await app2.inject({ method: "GET", url: "/readyz" });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.dependencies).toEqual([
        { name: "database", status: "ok" },
        { name: "redis", status: "ok" },
      ]);
    }
  });
});

describe("request ids and log lines", () => {
  it("echoes a safe x-request-id, replaces an unsafe one, and logs requests, settle and finalize with outcomes", async () => {
    const lines: Array<Record<string, any>> = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split("\n")) if (l) lines.push(JSON.parse(l));
        done();
      },
    });
    const database = await createTestDatabase();
    open.push(database);
    const config = testConfig({ LOG_LEVEL: "info" });
    const clock = new AdjustableClock(NOW);
    const app = await buildApp({ config, database, clock, logStream: stream });
    open.push(app);
    const t = { app, database, clock, config, close: async () => {} } as TestApp;

    const safe = await app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "edge-42.a_b" },
    });
    expect(safe.headers["x-request-id"]).toBe("edge-42.a_b");
    const unsafe = await app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "a b<script>" },
    });
    expect(unsafe.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const long = await app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "x".repeat(65) },
    });
    expect(long.headers["x-request-id"]).not.toBe("x".repeat(65));
    expect(lines.find((l) => l.reqId === "edge-42.a_b" && l.msg === "request")).toMatchObject({
      method: "GET",
      route: "/healthz",
      statusCode: 200,
    });

    await putEvent(t, "ops-log");
    const a = await signIn(t, testKey(3));
    const placed = await app.inject({
      method: "POST",
      url: "/api/pred2earn/bet-placed",
      headers: { cookie: a.cookie, "x-request-id": "bet-req-1" },
      payload: buildBetBody("ops-log", { stake: 100 }),
    });
    expect(placed.statusCode).toBe(201);
    expect(lines.find((l) => l.reqId === "bet-req-1" && l.msg === "request")).toMatchObject({
      userId: a.userId,
      statusCode: 201,
    });

    await app.inject({
      method: "POST",
      url: "/api/admin/events/ops-log/result",
      headers: { ...ADMIN, "x-request-id": "settle-req-1" },
      payload: { status: "finished", winningOutcome: "home" },
    });
    const settle = lines.find((l) => l.op === "settle");
    expect(settle).toMatchObject({
      reqId: "settle-req-1",
      eventId: "ops-log",
      outcome: "settled",
      settled: 1,
    });
    expect(typeof settle!.durationMs).toBe("number");

    await app.inject({ method: "POST", url: "/api/competition/finalize?week=5", headers: FINALIZE });
    await app.inject({ method: "POST", url: "/api/competition/finalize?week=0", headers: FINALIZE });
    const finalizeLines = lines.filter((l) => l.op === "finalize");
    expect(finalizeLines.map((l) => [l.week, l.outcome])).toEqual([
      [5, "WEEK_NOT_ENDED"],
      [0, "finalized"],
    ]);
    for (const l of finalizeLines) expect(typeof l.durationMs).toBe("number");
  });
});
