import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, signIn, type TestApp, testKey } from "../../test/app.js";
import { buildEventBody } from "../../test/factories.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const wallet = (i: number) => `0x${(i + 0x1000).toString(16).padStart(40, "0")}`;

describe("competition smoke", () => {
  it("ranks SP added through the admin API and finalizes the opening week", async () => {
    // Fri 2026-11-20 12:00 UTC is in week 2 (Tue 2026-11-17 .. Tue 2026-11-24).
    const ev = await call(t.app, {
      method: "PUT",
      url: "/api/admin/events/ev-w0",
      headers: ADMIN,
      payload: buildEventBody({ kickoffAt: "2026-11-05T18:00:00Z" }), // Thu, opening week
    });
    expect(ev.status).toBe(201);
    for (const [i, sp] of [
      [1, 300],
      [2, 500],
      [3, 300],
    ] as const) {
      const r = await call(t.app, {
        method: "POST",
        url: "/api/admin/sp-transactions",
        headers: ADMIN,
        payload: { wallet: wallet(i), type: "PREDICTION", amount: sp, eventId: "ev-w0", externalId: `x${i}` },
      });
      expect(r.status).toBe(201);
    }
    const replay = await call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      headers: ADMIN,
      payload: { wallet: wallet(1), type: "PREDICTION", amount: 999, eventId: "ev-w0", externalId: "x1" },
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data.amount).toBe(300);

    const lb = await call(t.app, { method: "GET", url: "/api/competition/leaderboard?week=0" });
    expect(lb.status).toBe(200);
    expect(lb.body.data.rows.map((r: any) => [r.rank, r.competitiveSp])).toEqual([
      [1, 500],
      [2, 300],
      [2, 300],
    ]);
    const fin = await call(t.app, {
      method: "POST",
      url: "/api/competition/finalize?week=0",
      headers: FINALIZE,
    });
    expect(fin.status).toBe(200);
    expect(fin.body.data.qualification).toEqual({ participants: 3, cutoffSp: null, qualifiers: 3 });
    expect(fin.body.data.nextWeekEligible).toBe(3);
    const me = await signIn(t, testKey(5));
    const status = await call(t.app, {
      method: "GET",
      url: "/api/competition/me?week=1",
      headers: { cookie: me.cookie },
    });
    expect(status.status).toBe(200);
    expect(status.body.data.champions.eligible).toBe(false);
  });
});

describe("a live ladder page's bytes", () => {
  const url = "/api/competition/leaderboard?week=2&limit=20";
  const add = async (i: number, amount: number, externalId: string) => {
    const r = await call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      headers: ADMIN,
      payload: { wallet: wallet(i), type: "PREDICTION", amount, eventId: "ev-bytes", externalId },
    });
    expect(r.status).toBe(201);
  };

  it("are the same for each request until a rank changes, plain or compressed, and new after", async () => {
    const ev = await call(t.app, {
      method: "PUT",
      url: "/api/admin/events/ev-bytes",
      headers: ADMIN,
      payload: buildEventBody({ kickoffAt: "2026-11-18T18:00:00Z" }), // Wed, week 2 (the clock's week)
    });
    expect(ev.status).toBe(201);
    for (let i = 0; i < 12; i++) await add(100 + i, 100 + 10 * i, `bytes-${i}`);

    const plain = await t.app.inject({ method: "GET", url });
    const again = await t.app.inject({ method: "GET", url });
    expect(plain.statusCode).toBe(200);
    expect(again.rawPayload.equals(plain.rawPayload)).toBe(true);
    expect(again.headers.etag).toBe(plain.headers.etag);
    const rows = plain.json().data.rows;
    expect(rows.map((r: { competitiveSp: number }) => r.competitiveSp)).toEqual(
      Array.from({ length: 12 }, (_, i) => 210 - 10 * i),
    );
    const br = await t.app.inject({
      method: "GET",
      url,
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-br"`);

    // 100 more SP for the last player (100 SP): 200, second behind 210.
    await add(100, 100, "bytes-more");
    const after = await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
    expect(after.headers.etag).not.toBe(br.headers.etag);
    const changed = JSON.parse(brotliDecompressSync(after.rawPayload).toString()).data.rows;
    expect(changed.slice(0, 3).map((r: { competitiveSp: number }) => r.competitiveSp)).toEqual([
      210, 200, 200,
    ]);
    expect(changed[1].displayName).not.toBe(rows[1].displayName);
  });
});

describe("the read path under test", () => {
  it("is the rank cache, or SQL alone in the RANK_CACHE=off projects", () => {
    expect(t.config.rankCache).toBe(process.env.TEST_RANK_CACHE !== "off");
  });
});
