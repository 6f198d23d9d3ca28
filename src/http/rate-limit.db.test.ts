/**
 * Rate limits over HTTP (SPEC §6 Rate limits): reads per IP, writes per signed-in user (per IP signed out),
 * separate sign-in and finalize budgets, the x-ratelimit-* headers, the 429 envelope with retry-after, no limit
 * for the admin bearer nor outside /api. With REDIS_URL set, two instances share one budget.
 *
 * One limited app (`t`: reads 3, writes 2, sign-in 2, finalize 2 per minute) for the whole file. Sessions are
 * issued by a second, unlimited instance over the same database (as when several instances share one database),
 * so signing players in spends none of the budgets under test. Every test uses its own client IPs (inject's
 * `remoteAddress`), so budgets never carry over between tests.
 */
import { randomInt } from "node:crypto";
import type { FastifyInstance, InjectOptions } from "fastify";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { expectError } from "../../test/player-api.js";
import { buildApp } from "../app.js";
import { AdjustableClock } from "../clock.js";

const LIMITS = {
  RATE_LIMIT_READ_PER_MIN: "3",
  RATE_LIMIT_WRITE_PER_MIN: "2",
  RATE_LIMIT_AUTH_PER_MIN: "2",
  RATE_LIMIT_FINALIZE_PER_MIN: "2",
};

let t: TestApp;
let issuer: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: LIMITS });
  issuer = await createTestApp({ env: NO_RATE_LIMITS, database: t.database });
});
afterAll(async () => {
  await issuer?.close();
  await t?.close();
});

/** One request to `app` from client address `ip`. */
const from = (app: FastifyInstance, ip: string, opts: InjectOptions) =>
  call(app, { ...opts, remoteAddress: ip });
const read = (ip: string, url = "/api/leaderboard", headers: Record<string, string> = {}) =>
  from(t.app, ip, { method: "GET", url, headers });
const write = (ip: string, cookie?: string) =>
  from(t.app, ip, { method: "POST", url: "/api/referrals", headers: cookie ? { cookie } : {} });

/** The x-ratelimit-* headers as [limit, remaining]. */
const budget = (res: { headers: Record<string, unknown> }) => [
  res.headers["x-ratelimit-limit"],
  res.headers["x-ratelimit-remaining"],
];

function expectRateLimited(
  res: { status: number; body: any; headers: Record<string, unknown> },
  limit: string,
) {
  expectError(res, 429, "RATE_LIMITED");
  expect(budget(res)).toEqual([limit, "0"]);
  const retryAfter = Number(res.headers["retry-after"]);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter)).toBe(true);
}

describe("client address behind a proxy (TRUST_PROXY)", () => {
  it("counts each forwarded client on its own budget only when the proxy is trusted", async () => {
    const proxied = await createTestApp({
      env: { ...LIMITS, TRUST_PROXY: "10.9.0.1" },
      database: t.database,
    });
    try {
      const via = (remote: string, client: string) =>
        from(proxied.app, remote, {
          method: "GET",
          url: "/api/leaderboard",
          headers: { "x-forwarded-for": client },
        });
      for (let i = 0; i < 3; i++) expect((await via("10.9.0.1", "203.0.113.1")).status).toBe(200);
      expectRateLimited(await via("10.9.0.1", "203.0.113.1"), "3");
      // Another client behind the same proxy has its own budget.
      expect(budget(await via("10.9.0.1", "203.0.113.2"))).toEqual(["3", "2"]);
      // A header from an untrusted sender is ignored: all of its requests share its own address's budget.
      for (let i = 0; i < 3; i++) expect((await via("10.9.0.2", `198.51.100.${i}`)).status).toBe(200);
      expectRateLimited(await via("10.9.0.2", "198.51.100.9"), "3");
    } finally {
      await proxied.close();
    }
    // The default (TRUST_PROXY unset) ignores the header too.
    for (let i = 0; i < 3; i++)
      expect((await read("10.9.0.3", "/api/leaderboard", { "x-forwarded-for": `192.0.2.${i}` })).status).toBe(
        200,
      );
    expectRateLimited(await read("10.9.0.3", "/api/leaderboard", { "x-forwarded-for": "192.0.2.9" }), "3");
  });
});

describe("reads (per IP)", () => {
  it("carries decreasing x-ratelimit headers, then answers 429 with retry-after and the error envelope", async () => {
    const ip = "10.1.0.1";
    for (const remaining of ["2", "1", "0"]) {
      const res = await read(ip);
      expect(res.status).toBe(200);
      expect(budget(res)).toEqual(["3", remaining]); // limit 3: 3 − 1, 3 − 2, 3 − 3
      const reset = Number(res.headers["x-ratelimit-reset"]);
      expect(reset >= 1 && reset <= 60, String(reset)).toBe(true); // seconds left in the one-minute window
    }
    expectRateLimited(await read(ip), "3");
    // The budget is the IP's, across read routes.
    expectRateLimited(await read(ip, "/api/competition/meta"), "3");
    // Another IP has its own.
    const other = await read("10.1.0.2");
    expect(other.status).toBe(200);
    expect(budget(other)).toEqual(["3", "2"]);
  });

  it("does not limit requests bearing the admin token, nor anything outside /api", async () => {
    const ip = "10.2.0.1";
    for (let i = 0; i < 3; i++) expect((await read(ip)).status).toBe(200);
    expectRateLimited(await read(ip), "3");

    // The admin bearer passes, without rate-limit headers, reads and writes alike.
    for (let i = 0; i < 5; i++) {
      const res = await read(ip, "/api/leaderboard", ADMIN);
      expect(res.status).toBe(200);
      expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
    }
    for (let i = 0; i < 5; i++) {
      const res = await from(t.app, ip, {
        method: "POST",
        url: "/api/admin/sp-transactions",
        headers: ADMIN,
        payload: { wallet: `0x${"5a".repeat(20)}`, type: "RAFFLE", amount: 1, externalId: `rl-admin-${i}` },
      });
      expect(res.status).toBe(201);
      expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
    }
    // A wrong token is no bypass.
    expectRateLimited(await read(ip, "/api/leaderboard", { authorization: "Bearer not-the-token" }), "3");

    // Outside /api: unlimited and without headers.
    for (let i = 0; i < 10; i++) {
      const res = await from(t.app, ip, { method: "GET", url: "/healthz" });
      expect(res.status).toBe(200);
      expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
    }
  });
});

describe("writes (per user)", () => {
  it("gives each signed-in user their own budget from one IP, and signed-out writes the IP's", async () => {
    const a = await signIn(issuer, testKey(1));
    const b = await signIn(issuer, testKey(2));
    const ip = "10.3.0.1";

    for (const [user, label] of [
      [a, "A"],
      [b, "B"],
    ] as const) {
      for (const remaining of ["1", "0"]) {
        const res = await write(ip, user.cookie);
        expect(res.status, label).toBe(200);
        expect(budget(res)).toEqual(["2", remaining]);
      }
      expectRateLimited(await write(ip, user.cookie), "2");
    }
    // The budget follows the user, not the address.
    expectRateLimited(await write("10.3.0.2", a.cookie), "2");

    // Signed out, the same IP has a write budget of its own (401s count too).
    for (const remaining of ["1", "0"]) {
      const res = await write(ip);
      expectError(res, 401, "UNAUTHENTICATED");
      expect(budget(res)).toEqual(["2", remaining]);
    }
    expectRateLimited(await write(ip), "2");

    // Reads from that IP are untouched by all of it.
    const res = await read(ip, "/api/leaderboard", { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(budget(res)).toEqual(["3", "2"]);
  });
});

describe("sign-in and finalize (per IP, own budgets)", () => {
  it("limits sign-in separately from reads", async () => {
    const ip = "10.4.0.1";
    for (let i = 0; i < 3; i++) expect((await read(ip)).status).toBe(200);
    expectRateLimited(await read(ip), "3");

    // GET /api/auth/nonce is a GET but counts on the sign-in budget (2), still whole.
    for (const remaining of ["1", "0"]) {
      const res = await from(t.app, ip, { method: "GET", url: "/api/auth/nonce" });
      expect(res.status).toBe(200);
      expect(budget(res)).toEqual(["2", remaining]);
    }
    expectRateLimited(await from(t.app, ip, { method: "GET", url: "/api/auth/nonce" }), "2");
    // POST /api/auth/wallet shares that budget.
    expectRateLimited(
      await from(t.app, ip, {
        method: "POST",
        url: "/api/auth/wallet",
        payload: { message: "x", signature: "0x00" },
      }),
      "2",
    );
    // Sign-in from another IP is unaffected.
    const other = await from(t.app, "10.4.0.2", { method: "GET", url: "/api/auth/nonce" });
    expect(budget(other)).toEqual(["2", "1"]);
  });

  it("limits finalize calls on a budget of their own", async () => {
    const ip = "10.5.0.1";
    // Week 9 has not ended: 409, but each call counts.
    for (const remaining of ["1", "0"]) {
      const res = await from(t.app, ip, {
        method: "POST",
        url: "/api/competition/finalize?week=9",
        headers: FINALIZE,
      });
      expectError(res, 409, "WEEK_NOT_ENDED");
      expect(budget(res)).toEqual(["2", remaining]);
    }
    expectRateLimited(
      await from(t.app, ip, { method: "POST", url: "/api/competition/finalize?week=9", headers: FINALIZE }),
      "2",
    );
    // Reads from the same IP still have their whole budget.
    expect(budget(await read(ip))).toEqual(["3", "2"]);
  });
});

describe("guessing secrets", () => {
  it("counts requests with a wrong finalize secret on the finalize budget", async () => {
    const ip = "10.6.0.1";
    const guess = () =>
      from(t.app, ip, {
        method: "POST",
        url: "/api/competition/finalize?week=0",
        headers: { "x-competition-finalize-secret": "guess" },
      });
    for (const remaining of ["1", "0"]) {
      const res = await guess();
      expectError(res, 401, "UNAUTHENTICATED");
      expect(budget(res)).toEqual(["2", remaining]);
    }
    expectRateLimited(await guess(), "2");
  });

  it("counts a path spelled with percent escapes on the budget of the route it reaches", async () => {
    // Before: `/%61pi/…` reaches `/api/…` (the router decodes the path) but was judged by its raw spelling: not
    // counted, no x-ratelimit headers, so the finalize secret could be guessed without limit. Its answers also lost
    // their cache-control.
    const ip = "10.6.0.3";
    const guess = (url: string) =>
      from(t.app, ip, { method: "POST", url, headers: { "x-competition-finalize-secret": "guess" } });
    for (const [url, remaining] of [
      ["/%61pi/competition/finalize?week=0", "1"],
      ["/api/competition/%66inalize?week=0", "0"],
    ] as const) {
      const res = await guess(url);
      expectError(res, 401, "UNAUTHENTICATED");
      expect(budget(res)).toEqual(["2", remaining]);
    }
    expectRateLimited(await guess("/%61pi/competition/finalize?week=0"), "2");
    // A read reached through escapes answers with the same cache-control as the plain path, on the read budget.
    const plain = await read("10.6.0.4", "/api/leaderboard");
    const escaped = await read("10.6.0.5", "/%61pi/leaderboard");
    expect(escaped.status).toBe(200);
    expect(plain.headers["cache-control"]).toEqual(expect.any(String));
    expect(escaped.headers["cache-control"]).toBe(plain.headers["cache-control"]);
    expect(budget(escaped)).toEqual(["3", "2"]);
  });

  it("counts admin calls with a wrong bearer token like any other request", async () => {
    const ip = "10.6.0.2";
    const guess = () =>
      from(t.app, ip, {
        method: "POST",
        url: "/api/admin/sp-transactions",
        headers: { authorization: "Bearer guess" },
        payload: { wallet: `0x${"5b".repeat(20)}`, type: "RAFFLE", amount: 1, externalId: "rl-guess" },
      });
    for (const remaining of ["1", "0"]) {
      const res = await guess();
      expectError(res, 401, "UNAUTHENTICATED");
      expect(budget(res)).toEqual(["2", remaining]); // a write, signed out: the IP's write budget
    }
    expectRateLimited(await guess(), "2");
  });
});

describe.skipIf(!process.env.REDIS_URL)("with Redis (REDIS_URL)", () => {
  const redisClients: Redis[] = [];
  const apps: FastifyInstance[] = [];

  /** A second and third instance over the same database, each with its own Redis connection. */
  async function instance(): Promise<FastifyInstance> {
    const redis = new Redis(process.env.REDIS_URL!);
    redisClients.push(redis);
    await redis.ping(); // connected before the first counted request
    const app = await buildApp({
      config: testConfig(LIMITS),
      database: t.database,
      clock: new AdjustableClock(new Date("2026-11-20T12:00:00.000Z")),
      redis,
    });
    apps.push(app);
    await app.ready();
    return app;
  }

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const r of redisClients) await r.quit();
  });

  it("shares one budget between instances: 2 reads on A + 2 on B with limit 3 → the 4th is 429", async () => {
    const [a, b] = [await instance(), await instance()];
    // A client address no earlier run used: counters live in Redis for a minute and are never flushed here.
    const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    const get = (app: FastifyInstance) => from(app, ip, { method: "GET", url: "/api/leaderboard" });

    expect(budget(await get(a))).toEqual(["3", "2"]);
    expect(budget(await get(a))).toEqual(["3", "1"]);
    const third = await get(b);
    expect(third.status).toBe(200);
    expect(budget(third)).toEqual(["3", "0"]); // B sees A's two requests
    expectRateLimited(await get(b), "3");
    expectRateLimited(await get(a), "3");
  });
});
