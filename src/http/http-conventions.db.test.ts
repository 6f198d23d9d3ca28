/**
 * HTTP conventions of the API (http/caching.ts, compression.ts, cors.ts): strong ETags and 304s on public reads,
 * a Cache-Control per kind of answer (a year and immutable for a finalized week, revalidate for live data, never
 * stored for signed-in or failed answers), brotli / gzip above 1 KB but never for Server-Sent Events, and CORS for
 * the APP_ORIGINS only (preflights answered, credentials only for those origins, preflights not rate limited).
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, signIn, type TestApp, testKey } from "../../test/app.js";
import { buildEventBody, buildMarket } from "../../test/factories.js";
import { CACHE_CONTROL } from "./caching.js";
import { registerCompression } from "./compression.js";

const APP = "https://app.example.com";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { APP_ORIGINS: `${APP},http://localhost:3000`, RATE_LIMIT_WRITE_PER_MIN: "2" },
  });
  // The opening week (Mon 2026-11-02 .. Tue 2026-11-10) has one event and three players; the clock (Fri
  // 2026-11-20) is in week 2, so week 0 can be finalized.
  const ev = await call(t.app, {
    method: "PUT",
    url: "/api/admin/events/ev-w0",
    headers: ADMIN,
    payload: buildEventBody({ kickoffAt: "2026-11-05T18:00:00Z" }),
  });
  expect(ev.status).toBe(201);
  for (const i of [1, 2, 3]) {
    const sp = await call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      headers: ADMIN,
      payload: {
        wallet: `0x${(i + 0x1000).toString(16).padStart(40, "0")}`,
        type: "PREDICTION",
        amount: 100 * i,
        eventId: "ev-w0",
        externalId: `conventions-${i}`,
      },
    });
    expect(sp.status).toBe(201);
  }
  const fin = await call(t.app, {
    method: "POST",
    url: "/api/competition/finalize?week=0",
    headers: FINALIZE,
  });
  expect(fin.status).toBe(200);
  // An upcoming event with enough markets that its JSON passes 1 KB.
  const markets = Array.from({ length: 12 }, (_, m) => ({
    key: `market-${m}`,
    outcomes: [
      { key: "yes", label: `Market ${m}: yes, the long label of a long outcome`, odds: 1.9 },
      { key: "no", label: `Market ${m}: no, the long label of a long outcome`, odds: 1.9 },
    ],
  }));
  const big = await call(t.app, {
    method: "PUT",
    url: "/api/admin/events/ev-big",
    headers: ADMIN,
    payload: buildEventBody({ markets }),
  });
  expect(big.status).toBe(201);
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  call(t.app, { method: "GET", url, headers });

describe("ETag and If-None-Match", () => {
  it("gives an event a strong ETag, answers 304 while it is unchanged and 200 with a new tag once it changed", async () => {
    const first = await get("/api/events/ev-w0");
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(first.headers["cache-control"]).toBe("public, no-cache");
    // The tagged body is sent as the bytes that were hashed: still JSON, its length those bytes'.
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(first.headers["content-length"])).toBe(Buffer.byteLength(JSON.stringify(first.body)));

    const again = await get("/api/events/ev-w0", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["content-length"]).toBeUndefined();
    expect(again.headers["cache-control"]).toBe("public, no-cache");
    // Weak comparison (RFC 9110 §13.1.2), a list of tags, and "*" all match.
    expect((await get("/api/events/ev-w0", { "if-none-match": `W/${etag}` })).status).toBe(304);
    expect((await get("/api/events/ev-w0", { "if-none-match": `"other", ${etag}` })).status).toBe(304);
    expect((await get("/api/events/ev-w0", { "if-none-match": "*" })).status).toBe(304);
    expect((await get("/api/events/ev-w0", { "if-none-match": '"other"' })).status).toBe(200);

    // New odds: a new body, a new tag, and the old tag no longer matches.
    const update = await call(t.app, {
      method: "PUT",
      url: "/api/admin/events/ev-w0",
      headers: ADMIN,
      payload: buildEventBody({
        kickoffAt: "2026-11-05T18:00:00Z",
        markets: [
          buildMarket("1x2", ["home", "Arsenal", 2.2], ["draw", "Draw", 3.4], ["away", "Chelsea", 3.1]),
        ],
      }),
    });
    expect(update.status).toBe(200);
    const changed = await get("/api/events/ev-w0", { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.body.data.markets[0].outcomes[0].odds).toBe(2.2);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it("tags the other public reads: event odds, the event list, ladder pages, the all-time leaderboard", async () => {
    for (const url of [
      "/api/events/ev-big/odds",
      "/api/available-events?limit=5",
      "/api/competition/leaderboard",
      "/api/leaderboard?offset=0&limit=10",
      "/api/leaderboard/top-points",
    ]) {
      const first = await get(url);
      expect(first.status, url).toBe(200);
      expect(first.headers["cache-control"], url).toBe("public, no-cache");
      const again = await get(url, { "if-none-match": String(first.headers.etag) });
      expect(again.status, url).toBe(304);
    }
  });

  it("lets caches keep a finalized week's ladder page and prize pool for a year, but not a live week's", async () => {
    const final = await get("/api/competition/leaderboard?week=0&type=qualification");
    expect(final.status).toBe(200);
    expect(final.body.data.provisional).toBe(false);
    expect(final.body.data.rows.map((r: any) => r.competitiveSp)).toEqual([300, 200, 100]);
    expect(final.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const revalidated = await get("/api/competition/leaderboard?week=0&type=qualification", {
      "if-none-match": String(final.headers.etag),
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const live = await get("/api/competition/leaderboard?week=2");
    expect(live.body.data.provisional).toBe(true);
    expect(live.headers["cache-control"]).toBe("public, no-cache");

    const pool = await get("/api/competition/prize-pool-estimate?week=0");
    expect(pool.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await get("/api/competition/prize-pool-estimate")).headers["cache-control"]).toBe(
      "public, no-cache",
    );
    // The prize tree of a finalized week still changes (claims, awaiting prizes): revalidated, never immutable.
    const tree = await get("/api/competition/weeks/0/prize-tree");
    expect(tree.status).toBe(200);
    expect(tree.headers["cache-control"]).toBe("public, no-cache");
    expect(tree.headers.etag).toMatch(/^"/);
  });

  it("never lets a signed-in answer, a write or an error be stored, and gives them no ETag", async () => {
    const { cookie } = await signIn(t, testKey(7));
    const me = await get("/api/competition/me", { cookie });
    expect(me.status).toBe(200);
    expect(me.headers["cache-control"]).toBe(CACHE_CONTROL.private);
    expect(me.headers.etag).toBeUndefined();
    const missing = await get("/api/events/nope");
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).toBe("no-store");
    expect(missing.headers.etag).toBeUndefined();
    const meta = await get("/api/competition/meta");
    expect(meta.headers["cache-control"]).toBe("no-store");
    const nonce = await get("/api/auth/nonce");
    expect(nonce.headers["cache-control"]).toBe("no-store");
  });
});

describe("compression", () => {
  it("sends a JSON body above 1 KB as brotli or gzip as the client asks, and tags each coding's ETag", async () => {
    const plain = await t.app.inject({ method: "GET", url: "/api/events/ev-big" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const etag = String(plain.headers.etag);

    const br = await t.app.inject({
      method: "GET",
      url: "/api/events/ev-big",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(br.headers.etag).toBe(`${etag.slice(0, -1)}-br"`);

    const gzip = await t.app.inject({
      method: "GET",
      url: "/api/events/ev-big",
      headers: { "accept-encoding": "gzip" },
    });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(gzip.headers.etag).toBe(`${etag.slice(0, -1)}-gzip"`);

    // The brotli tag revalidates: 304, no body, the tag the client holds.
    const again = await t.app.inject({
      method: "GET",
      url: "/api/events/ev-big",
      headers: { "accept-encoding": "br", "if-none-match": String(br.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers["content-encoding"]).toBeUndefined();
  });

  it("leaves a body under 1 KB as it is", async () => {
    const small = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(small.statusCode).toBe(200);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.json()).toEqual({ success: true, data: { status: "ok" } });
  });

  it("compresses a JSON body of up to 64 KB in one call, sent with its encoded length, not as a stream", async () => {
    // A ladder page is ≈ 9 KB. Above @fastify/compress's default for two cores (8 KB), every such body went through
    // a brotli stream of its own: ≈ 1 ms of CPU a page against 0.1 ms in one call (docs/performance.md).
    const app = Fastify();
    await registerCompression(app);
    const rows = (n: number) =>
      JSON.stringify(Array.from({ length: n }, (_, i) => ({ rank: i + 1, name: `p${i}` })));
    app.get("/json/:n", async (request, reply) =>
      reply.type("application/json").send(rows(Number((request.params as { n: string }).n))),
    );
    try {
      for (const n of [400, 2_200]) {
        const body = rows(n);
        expect(body.length).toBeGreaterThan(n === 400 ? 8_192 : 60_000);
        expect(body.length).toBeLessThan(65_536);
        const res = await app.inject({
          method: "GET",
          url: `/json/${n}`,
          headers: { "accept-encoding": "br" },
        });
        expect(res.headers["content-encoding"]).toBe("br");
        expect(res.headers["transfer-encoding"]).toBeUndefined();
        expect(res.headers["content-length"]).toBe(String(res.rawPayload.length));
        expect(brotliDecompressSync(res.rawPayload).toString()).toBe(body);
      }
    } finally {
      await app.close();
    }
  });

  it("never compresses Server-Sent Events, whatever their size", async () => {
    const app = Fastify();
    await registerCompression(app);
    const events = "event: odds\ndata: {}\n\n".repeat(200);
    app.get("/stream", async (_request, reply) => reply.type("text/event-stream").send(events));
    app.get("/json", async (_request, reply) => reply.type("application/json").send(events));
    try {
      const sse = await app.inject({
        method: "GET",
        url: "/stream",
        headers: { "accept-encoding": "br, gzip" },
      });
      expect(sse.headers["content-encoding"]).toBeUndefined();
      expect(sse.body).toBe(events);
      const json = await app.inject({ method: "GET", url: "/json", headers: { "accept-encoding": "gzip" } });
      expect(json.headers["content-encoding"]).toBe("gzip");
    } finally {
      await app.close();
    }
  });
});

describe("CORS", () => {
  const preflight = (origin: string | undefined, method = "POST") =>
    call(t.app, {
      method: "OPTIONS",
      url: "/api/pred2earn/bet-placed",
      headers: {
        ...(origin ? { origin } : {}),
        "access-control-request-method": method,
        "access-control-request-headers": "content-type, idempotency-key",
      },
    });

  it("answers a preflight from an APP_ORIGINS origin with 204, the methods, headers and credentials", async () => {
    const res = await preflight(APP);
    expect(res.status).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe(APP);
    expect(res.headers["access-control-allow-credentials"]).toBe("true");
    expect(res.headers["access-control-allow-methods"]).toBe("GET, HEAD, POST, PUT, DELETE");
    expect(String(res.headers["access-control-allow-headers"]).split(", ")).toEqual(
      expect.arrayContaining(["content-type", "idempotency-key", "if-none-match"]),
    );
    expect(res.headers["access-control-max-age"]).toBe("600");
    expect(String(res.headers.vary)).toMatch(/origin/i);
  });

  it("refuses a preflight from any other origin with the 403 envelope and no CORS header", async () => {
    const res = await preflight("https://evil.example");
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, status: 403, code: "FORBIDDEN" });
    expect(res.body.error).toContain("https://evil.example");
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    expect(res.headers["access-control-allow-credentials"]).toBeUndefined();
  });

  it("lets an allowed origin read answers and their headers, and gives another origin nothing", async () => {
    const allowed = await get("/api/events/ev-w0", { origin: APP });
    expect(allowed.headers["access-control-allow-origin"]).toBe(APP);
    expect(allowed.headers["access-control-allow-credentials"]).toBe("true");
    expect(String(allowed.headers["access-control-expose-headers"]).split(", ")).toEqual(
      expect.arrayContaining(["etag", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining"]),
    );
    const foreign = await get("/api/events/ev-w0", { origin: "https://evil.example" });
    expect(foreign.status).toBe(200);
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    expect(foreign.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(foreign.headers["access-control-expose-headers"]).toBeUndefined();
  });

  it("answers an OPTIONS that is no preflight with the 404 envelope", async () => {
    const res = await call(t.app, { method: "OPTIONS", url: "/api/events/ev-w0" });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: "NOT_FOUND" });
  });

  it("does not count preflights against the rate limit (writes: 2 a minute here)", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await preflight(APP);
      expect(res.status).toBe(204);
      expect(res.headers["x-ratelimit-limit"]).toBeUndefined();
    }
  });
});
