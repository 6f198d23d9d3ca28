/**
 * Issue 11, cases 5 and 6 replayed: inputs that gave a 500 (NUL bytes, amounts past 64 bits, instants whose
 * offset leaves years 1–9999, sums of accepted amounts past 64 bits) and framework errors outside the envelope.
 * Each answers a 4xx envelope now, or works.
 */
import { connect } from "node:net";
import { privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, signIn, type TestApp, testKey } from "../../test/app.js";
import { buildEventBody, buildMarket } from "../../test/factories.js";
import { betV2, dataOf, expectError, postResult, putEvent, txHash } from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: { CHAIN_VERIFIER: "trust" } });
  cookie = (await signIn(t, testKey(1))).cookie;
});
afterAll(async () => t.close());

const admin = (method: "PUT" | "POST", url: string, payload: object) =>
  call(t.app, { method, url, headers: ADMIN, payload });

let fees = 0;
const fee = (amountUsdc: string, occurredAt = "2026-11-03T10:00:00.000Z") =>
  admin("POST", "/api/admin/protocol-fees", {
    txHash: `0x${(++fees).toString(16).padStart(64, "0")}`,
    logIndex: 0,
    amountUsdc,
    occurredAt,
  });

describe("NUL bytes are refused with 400 in every part of a request", () => {
  it("in a query string", async () => {
    const res = await call(t.app, { method: "GET", url: "/api/available-events?sport=%00" });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.details).toEqual([{ field: "query.sport", message: "must not contain a NUL character" }]);
  });

  it("in a body field, nested or not, and changes nothing", async () => {
    const res = await admin(
      "PUT",
      "/api/admin/events/nul-1",
      buildEventBody({
        league: "L",
        homeTeam: "a\u0000b",
        awayTeam: "c",
        markets: [buildMarket("1x2", ["home", "H\u0000", 2])],
      }),
    );
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.details[0].field).toBe("body.homeTeam");
    expectError(await call(t.app, { method: "GET", url: "/api/events/nul-1" }), 404, "NOT_FOUND");
    const sp = await admin("POST", "/api/admin/sp-transactions", {
      wallet: "0x000000000000000000000000000000000000dEaD",
      type: "ADJUSTMENT",
      amount: 5,
      externalId: "\u0000",
    });
    expectError(sp, 400, "VALIDATION_FAILED");
    expect(sp.body.details[0].field).toBe("body.externalId");
  });

  it("in a path parameter", async () => {
    expectError(await call(t.app, { method: "GET", url: "/api/events/a%00b" }), 400, "VALIDATION_FAILED");
  });
});

describe("lone UTF-16 surrogates are refused with 400, never stored", () => {
  // JSON.stringify writes a lone surrogate as the escape "\ud800": valid JSON, but no Unicode text.
  const raw = (method: "PUT" | "POST", url: string, body: unknown) =>
    call(t.app, {
      method,
      url,
      headers: { ...ADMIN, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });

  it("in an externalId (a 500 before)", async () => {
    const sp = await raw("POST", "/api/admin/sp-transactions", {
      wallet: "0x000000000000000000000000000000000000dEaD",
      type: "ADJUSTMENT",
      amount: 5,
      externalId: "x\ud800",
    });
    expectError(sp, 400, "VALIDATION_FAILED");
    expect(sp.body.details).toEqual([
      { field: "body.externalId", message: "must not contain a lone UTF-16 surrogate" },
    ]);
  });

  it("in an event's team or league (stored as is before), high or low, value or key", async () => {
    for (const [over, field] of [
      [{ homeTeam: "Arsenal \ud83d" }, "body.homeTeam"],
      [{ league: "\udc00Premier" }, "body.league"],
      [{ awayTeam: "b\udfff\ud800" }, "body.awayTeam"],
    ] as const) {
      const res = await raw(
        "PUT",
        "/api/admin/events/surrogate-1",
        buildEventBody({
          league: "L",
          homeTeam: "a",
          awayTeam: "c",
          markets: [buildMarket("1x2", ["home", "H", 2])],
          ...over,
        }),
      );
      expectError(res, 400, "VALIDATION_FAILED");
      expect(res.body.details[0]).toEqual({ field, message: "must not contain a lone UTF-16 surrogate" });
    }
    const key = await raw("POST", "/api/admin/sp-transactions/batch", { rows: [], "k\ud800": 1 });
    expectError(key, 400, "VALIDATION_FAILED");
    expect(key.body.details[0].field).toBe("body.k\ud800");
    expectError(await call(t.app, { method: "GET", url: "/api/events/surrogate-1" }), 404, "NOT_FOUND");
  });

  it("accepts a whole pair (an emoji) and stores it as sent", async () => {
    const res = await raw("PUT", "/api/admin/events/surrogate-2", {
      ...buildEventBody({ kickoffAt: "2026-11-25T18:00:00.000Z" }),
      league: "League \ud83c\udfc6",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(dataOf(await call(t.app, { method: "GET", url: "/api/events/surrogate-2" })).league).toBe(
      "League 🏆",
    );
  });
});

describe("USDC amounts always fit storage", () => {
  it("refuses a fee or a stake past what a 64-bit micro-USDC column holds", async () => {
    expectError(await fee("9223372036854.775808"), 400, "VALIDATION_FAILED");
    expectError(await fee("1000000000000"), 400, "VALIDATION_FAILED");
    await putEvent(t, "big-1");
    const res = await betV2(t, cookie, {
      eventId: "big-1",
      market: "1x2",
      outcome: "home",
      stakeUsdc: "9223372036854.775808",
      odds: 2.15,
      txHash: txHash(1),
      chainId: 1,
    });
    expectError(res, 400, "VALIDATION_FAILED");
  });

  it("finalizes weeks whose accepted fees sum past 2^63 micro-USDC, and publishes their prize tree", async () => {
    // Five winners: SP in week 0 (Qualification top 25 → Champions week 1) and in week 1 (ranks 1..5).
    await putEvent(t, "sum-w0", { kickoffAt: "2026-11-05T18:00:00.000Z" });
    await putEvent(t, "sum-w1", { kickoffAt: "2026-11-12T18:00:00.000Z" });
    for (let i = 1; i <= 5; i++) {
      for (const eventId of ["sum-w0", "sum-w1"]) {
        const sp = await admin("POST", "/api/admin/sp-transactions", {
          wallet: privateKeyToAddress(testKey(500 + i)),
          type: "PREDICTION",
          amount: 100 - i,
          eventId,
          externalId: `sum-${eventId}-${i}`,
        });
        expect(sp.status, JSON.stringify(sp.body)).toBe(201);
      }
    }
    // Ten fees at the largest accepted amount (10^18 − 1 micro-USDC each) in week 0's window fund week 1's pool.
    for (let i = 0; i < 10; i++) expect((await fee("999999999999.999999")).status).toBe(201);
    const estimate = dataOf(
      await call(t.app, { method: "GET", url: "/api/competition/prize-pool-estimate?week=1" }),
    );
    expect(estimate.estimatedUsdc).toBe("9999999999999.999990");
    for (const week of [0, 1]) {
      const res = await call(t.app, {
        method: "POST",
        url: `/api/competition/finalize?week=${week}`,
        headers: FINALIZE,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const week1 = dataOf(
      await call(t.app, { method: "GET", url: "/api/competition/prize-pool-estimate?week=1" }),
    );
    expect(week1.estimatedUsdc).toBe("9999999999999.999990");
    // Pool 9,999,999,999,999,999,990 micro: 35/30/20/10/5 % floored = 3,499,999,999,999,999,996 +
    // 2,999,999,999,999,999,997 + 1,999,999,999,999,999,998 + 999,999,999,999,999,999 + 499,999,999,999,999,999
    // = 9,999,999,999,999,999,989 micro to fund, past 2^63 − 1 = 9,223,372,036,854,775,807.
    const tree = dataOf(await call(t.app, { method: "GET", url: "/api/competition/weeks/1/prize-tree" }));
    expect(tree.leaves.map((l: { amountUsdc: string }) => l.amountUsdc)).toEqual([
      "3499999999999.999996",
      "2999999999999.999997",
      "1999999999999.999998",
      "999999999999.999999",
      "499999999999.999999",
    ]);
    expect(tree.totalUsdc).toBe("9999999999999.999989");
  });

  it("refuses a v2 stake whose win could not be stored, and settles the largest one it accepts", async () => {
    await putEvent(t, "big-2");
    const report = (stakeUsdc: string, odds: number, i: number) =>
      betV2(t, cookie, {
        eventId: "big-2",
        market: "1x2",
        outcome: "home",
        stakeUsdc,
        odds,
        txHash: txHash(100 + i),
        chainId: 1,
      });
    expectError(await report("999999999999.999999", 2.15, 1), 400, "VALIDATION_FAILED");
    expectError(await report("1000000.000001", 2.15, 2), 400, "VALIDATION_FAILED");
    // 1,000,000 USDC × 100 SP × 20,000 odds = 2·10^12 SP > the 10^12 one bet may earn.
    expectError(await report("1000000", 20000, 3), 400, "VALIDATION_FAILED");
    const ok = dataOf(await report("1000000", 2.15, 4), 201);
    expect(ok.prediction.status).toBe("open");
    const settled = await postResult(t, "big-2", { status: "finished", winningOutcome: "home" });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  });
});

describe("instants are checked after their offset is applied", () => {
  it("refuses instants whose UTC year leaves 1–9999", async () => {
    for (const instant of ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+01:00"]) {
      const q = await call(t.app, {
        method: "GET",
        url: `/api/available-events?from=${encodeURIComponent(instant)}`,
      });
      expectError(q, 400, "VALIDATION_FAILED");
      expect(q.body.details[0].field).toBe("query.from");
      const ev = await admin(
        "PUT",
        "/api/admin/events/far-1",
        buildEventBody({
          league: "L",
          homeTeam: "a",
          awayTeam: "b",
          kickoffAt: instant,
          markets: [buildMarket("1x2", ["home", "H", 2])],
        }),
      );
      expectError(ev, 400, "VALIDATION_FAILED");
      expectError(await fee("1", instant), 400, "VALIDATION_FAILED");
    }
    // The last instant of year 9999 in UTC, written with an offset, is accepted.
    const edge = await call(t.app, {
      method: "GET",
      url: `/api/available-events?from=${encodeURIComponent("9999-12-31T23:59:59+14:00")}`,
    });
    expect(edge.status).toBe(200);
  });
});

describe("framework errors answer the envelope", () => {
  it("a malformed percent-encoding in the path is a 400 envelope", async () => {
    const res = await call(t.app, { method: "GET", url: "/api/events/%ZZ" });
    expectError(res, 400, "VALIDATION_FAILED");
  });

  it("a 5,000-character path id is a 400 envelope", async () => {
    const res = await call(t.app, { method: "GET", url: `/api/events/${"a".repeat(5000)}` });
    expectError(res, 400, "VALIDATION_FAILED");
  });

  describe("over real HTTP (what Node's parser refuses never reaches Fastify)", () => {
    let base: { port: number; close: () => Promise<void> };
    beforeAll(async () => {
      const served = await createTestApp({ now: NOW, database: t.database });
      await served.app.listen({ port: 0, host: "127.0.0.1" });
      base = { port: (served.app.server.address() as { port: number }).port, close: served.close };
    });
    afterAll(async () => base.close());

    /** Sends `raw` on a new connection and returns everything the server wrote before closing it. */
    const exchange = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(base.port, "127.0.0.1");
        let got = "";
        socket.on("data", (d) => {
          got += d.toString();
        });
        socket.on("error", reject);
        socket.on("close", () => resolve(got));
        socket.write(raw);
      });
    const parse = (response: string) => ({
      status: Number(response.split(" ")[1]),
      body: JSON.parse(response.split("\r\n\r\n")[1]!),
    });

    it("oversized headers: a 431 envelope (Fastify's own body before)", async () => {
      const res = parse(
        await exchange(`GET /api/events HTTP/1.1\r\nHost: t\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`),
      );
      expect(res).toEqual({
        status: 431,
        body: {
          success: false,
          error: "The request headers are too large",
          status: 431,
          code: "HEADERS_TOO_LARGE",
        },
      });
    });

    it("a malformed request: a 400 envelope", async () => {
      const res = parse(await exchange("GET /api/events HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n"));
      expect(res).toEqual({
        status: 400,
        body: { success: false, error: "Malformed HTTP request", status: 400, code: "VALIDATION_FAILED" },
      });
    });
  });
});
