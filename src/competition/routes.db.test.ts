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

describe("the read path under test", () => {
  it("is the rank cache, or SQL alone in the RANK_CACHE=off projects", () => {
    expect(t.config.rankCache).toBe(process.env.TEST_RANK_CACHE !== "off");
  });
});
