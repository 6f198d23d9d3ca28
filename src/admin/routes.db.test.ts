import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, type TestApp } from "../../test/app.js";
import { buildEventBody, buildMarket } from "../../test/factories.js";
import { rows, sql } from "../db/client.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2 (Tue 2026-11-17 .. Tue 2026-11-24)

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(NOW));

/** A distinct, valid, mixed-case wallet per test. */
const wallet = (i: number) => `0xAbCdEf${i.toString(16).padStart(34, "0")}`;
const txHash = (i: number) => `0x${"Ab".repeat(30)}${i.toString(16).padStart(4, "0")}`; // 64 hex digits

/** The factory's event (kickoff Wed 2026-11-25, week 3) in league EPL with one market, "1x2" away at 3.333. */
const eventBody = (over: Record<string, unknown> = {}) =>
  buildEventBody({
    league: "EPL",
    markets: [
      buildMarket("1x2", ["home", "Arsenal", 2.15], ["draw", "Draw", 3.4], ["away", "Chelsea", 3.333]),
    ],
    ...over,
  });

const admin = (
  method: "PUT" | "POST",
  url: string,
  payload: unknown,
  headers: Record<string, string> = ADMIN,
) => call(t.app, { method, url, payload: payload as object, headers });

const putEvent = (id: string, payload: unknown) => admin("PUT", `/api/admin/events/${id}`, payload);
const postSp = (payload: unknown) => admin("POST", "/api/admin/sp-transactions", payload);
const postFee = (payload: unknown) => admin("POST", "/api/admin/protocol-fees", payload);

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, status, code });
  expect(typeof res.body.error).toBe("string");
}

/** A 400 VALIDATION_FAILED whose message and details name `field`. */
function expectInvalid(res: { status: number; body: any }, field: string) {
  expectError(res, 400, "VALIDATION_FAILED");
  expect(res.body.error).toContain(field);
  expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

async function tableCounts() {
  const [c] = await rows<Record<string, string>>(
    t.database.db,
    sql`select (select count(*) from events)::text as events, (select count(*) from sp_ledger)::text as ledger,
               (select count(*) from protocol_fees)::text as fees, (select count(*) from users)::text as users`,
  );
  return c;
}

async function totalSp(userId: string): Promise<number> {
  const [r] = await rows<{ total_sp: string }>(
    t.database.db,
    sql`select coalesce((select total_sp from user_sp_totals where user_id = ${userId}), 0)::text as total_sp`,
  );
  return Number(r!.total_sp);
}

async function storedOddsMilli(id: string): Promise<number[]> {
  const [r] = await rows<{ markets: Array<{ outcomes: Array<{ oddsMilli: number }> }> }>(
    t.database.db,
    sql`select markets from events where id = ${id}`,
  );
  return r!.markets.flatMap((m) => m.outcomes.map((o) => o.oddsMilli));
}

describe("admin bearer token", () => {
  const requests: Array<[string, "PUT" | "POST", string, unknown]> = [
    ["event upsert", "PUT", "/api/admin/events/ev-auth", eventBody()],
    ["event result", "POST", "/api/admin/events/ev-auth/result", { status: "cancelled" }],
    [
      "sp-transaction",
      "POST",
      "/api/admin/sp-transactions",
      { wallet: wallet(900), type: "REFERRAL", amount: 5, externalId: "auth-sp" },
    ],
    [
      "protocol fee",
      "POST",
      "/api/admin/protocol-fees",
      { txHash: txHash(900), logIndex: 0, amountUsdc: "1", occurredAt: "2026-11-18T00:00:00Z" },
    ],
    ["clock", "PUT", "/api/admin/clock", { now: "2030-01-01T00:00:00Z" }],
  ];
  const badHeaders: Array<[string, Record<string, string>]> = [
    ["missing", {}],
    ["wrong token", { authorization: "Bearer wrong-token" }],
    ["token with a suffix", { authorization: "Bearer test-admin-token-x" }],
    ["token prefix", { authorization: "Bearer test-admin-toke" }],
    ["token without scheme", { authorization: "test-admin-token" }],
    ["Basic scheme", { authorization: `Basic ${Buffer.from("admin:test-admin-token").toString("base64")}` }],
    ["empty bearer", { authorization: "Bearer " }],
    ["other scheme", { authorization: "Token test-admin-token" }],
  ];

  it("answers 401 UNAUTHENTICATED on every admin route and writes nothing", async () => {
    const before = await tableCounts();
    for (const [, method, url, payload] of requests) {
      for (const [label, headers] of badHeaders) {
        const res = await admin(method, url, payload, headers);
        expect({ url, label, status: res.status, code: res.body.code }).toEqual({
          url,
          label,
          status: 401,
          code: "UNAUTHENTICATED",
        });
        expect(res.body.success).toBe(false);
      }
    }
    expect(await tableCounts()).toEqual(before);
    expect(t.clock.now()).toEqual(NOW);
  });

  it("checks the token before the body: a bad body without a token is still a 401", async () => {
    const res = await admin("PUT", "/api/admin/events/ev-auth", { nonsense: true }, {});
    expectError(res, 401, "UNAUTHENTICATED");
  });
});

describe("PUT /api/admin/events/:id", () => {
  it("creates (201) then updates (200), with odds back exactly as decimal numbers", async () => {
    const created = await putEvent("ev-odds", eventBody());
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: {
        id: "ev-odds",
        sport: "football",
        league: "EPL",
        homeTeam: "Arsenal",
        awayTeam: "Chelsea",
        kickoffAt: "2026-11-25T18:00:00.000Z",
        status: "scheduled",
        warmup: false,
        markets: [
          {
            key: "1x2",
            outcomes: [
              { key: "home", label: "Arsenal", odds: 2.15 },
              { key: "draw", label: "Draw", odds: 3.4 },
              { key: "away", label: "Chelsea", odds: 3.333 },
            ],
          },
        ],
      },
    });
    expect(await storedOddsMilli("ev-odds")).toEqual([2150, 3400, 3333]);

    const updated = await putEvent(
      "ev-odds",
      eventBody({
        homeTeam: "Arsenal FC",
        warmup: true,
        status: "live",
        markets: [
          {
            key: "1x2",
            outcomes: [
              { key: "home", label: "Arsenal FC", odds: 1.15 }, // 1.15 × 1000 is 1149.999… in floats
              { key: "draw", label: "Draw", odds: 1.001 },
              { key: "away", label: "Chelsea", odds: 999999.999 },
            ],
          },
        ],
      }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id: "ev-odds",
      homeTeam: "Arsenal FC",
      warmup: true,
      status: "live",
    });
    expect(updated.body.data.markets[0].outcomes.map((o: { odds: number }) => o.odds)).toEqual([
      1.15, 1.001, 999999.999,
    ]);
    expect(await storedOddsMilli("ev-odds")).toEqual([1150, 1001, 999_999_999]);

    // Same body again: still an update
    expect((await putEvent("ev-odds", eventBody())).status).toBe(200);
    expect(await storedOddsMilli("ev-odds")).toEqual([2150, 3400, 3333]);
  });

  it.each([
    [1, "body.markets.0.outcomes.1.odds"],
    [0.5, "body.markets.0.outcomes.1.odds"],
    [2.1234, "body.markets.0.outcomes.1.odds"],
    [1.0005, "body.markets.0.outcomes.1.odds"],
    [-2, "body.markets.0.outcomes.1.odds"],
    [1_000_001, "body.markets.0.outcomes.1.odds"],
  ])("refuses odds %s with 400 naming %s, and writes nothing", async (odds, field) => {
    const body = eventBody({
      markets: [
        {
          key: "1x2",
          outcomes: [
            { key: "home", label: "A", odds: 2 },
            { key: "away", label: "B", odds },
          ],
        },
      ],
    });
    expectInvalid(await putEvent("ev-bad-odds", body), field);
    const [row] = await rows(t.database.db, sql`select id from events where id = 'ev-bad-odds'`);
    expect(row).toBeUndefined();
  });

  it("refuses a repeated outcome key or market key (400 naming it)", async () => {
    const outcomes = [
      { key: "home", label: "A", odds: 2 },
      { key: "home", label: "B", odds: 3 },
    ];
    expectInvalid(
      await putEvent("ev-dup", eventBody({ markets: [{ key: "1x2", outcomes }] })),
      "body.markets.0.outcomes.1.key",
    );
    const market = { key: "1x2", outcomes: [outcomes[0], { key: "away", label: "B", odds: 3 }] };
    expectInvalid(await putEvent("ev-dup", eventBody({ markets: [market, market] })), "body.markets.1.key");
  });

  it("refuses unknown fields, at the top and inside an outcome (400)", async () => {
    expectInvalid(await putEvent("ev-extra", eventBody({ venue: "Emirates" })), "body.venue");
    const markets = [
      {
        key: "1x2",
        outcomes: [
          { key: "home", label: "A", odds: 2, price: 2 },
          { key: "away", label: "B", odds: 3 },
        ],
      },
    ];
    expectInvalid(await putEvent("ev-extra", eventBody({ markets })), "body.markets.0.outcomes.0.price");
  });

  it("refuses missing or malformed fields (400 naming them)", async () => {
    const { markets: _, ...withoutMarkets } = eventBody();
    expectInvalid(await putEvent("ev-miss", withoutMarkets), "body.markets");
    expectInvalid(await putEvent("ev-miss", eventBody({ kickoffAt: "next friday" })), "body.kickoffAt");
    expectInvalid(await putEvent("ev-miss", eventBody({ status: "postponed" })), "body.status");
    expectInvalid(await putEvent("ev-miss", eventBody({ markets: [] })), "body.markets");
  });

  it.each([
    ["with a space", "bad%20id"],
    ["of 65 characters", "e".repeat(65)],
    ["with a quote", "ev%27x"],
  ])("refuses an id %s (400 naming params.id)", async (_, id) => {
    expectInvalid(await putEvent(id, eventBody()), "params.id");
  });

  it("accepts an id of 64 characters", async () => {
    const id = `ev:${"a".repeat(61)}`;
    const res = await putEvent(id, eventBody());
    expect(res.status).toBe(201);
    expect(res.body.data.id).toBe(id);
  });
});

describe("PUT /api/admin/events/:id, concurrently", () => {
  it("creates a new event once under 10 concurrent PUTs: one 201, nine 200, no 500", async () => {
    // Before, on PostgreSQL: every PUT found no row to lock and inserted; all but one failed on the primary key
    // with a 500 (two feed instances, or a feed's retry, importing the same new event).
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(t.app, {
          method: "PUT",
          url: "/api/admin/events/concurrent-new",
          headers: ADMIN,
          payload: buildEventBody(),
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const [stored] = await rows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from events where id = 'concurrent-new'`,
    );
    expect(stored!.n).toBe("1");
  });
});

describe("POST /api/admin/sp-transactions", () => {
  it("creates the user of an unknown wallet and matches the wallet case-insensitively", async () => {
    const before = Number((await tableCounts())!.users);
    const first = await postSp({ wallet: wallet(1), type: "REFERRAL", amount: 500, externalId: "sp-new-1" });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      id: expect.stringMatching(/^\d+$/),
      userId: expect.stringMatching(/^\d+$/),
      type: "REFERRAL",
      amount: 500,
      eventId: null,
      externalId: "sp-new-1",
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(Number((await tableCounts())!.users)).toBe(before + 1);
    const [u] = await rows<{ wallet: string }>(
      t.database.db,
      sql`select wallet from users where id = ${first.body.data.userId}`,
    );
    expect(u!.wallet).toBe(wallet(1).toLowerCase());

    const second = await postSp({
      wallet: wallet(1).toUpperCase().replace("0X", "0x"),
      type: "RAFFLE",
      amount: 20,
      externalId: "sp-new-2",
    });
    expect(second.status).toBe(201);
    expect(second.body.data.userId).toBe(first.body.data.userId);
    expect(Number((await tableCounts())!.users)).toBe(before + 1);
    expect(await totalSp(first.body.data.userId)).toBe(520);
  });

  it("answers 404 for the userId of an unknown user", async () => {
    const res = await postSp({ userId: "987654321", type: "REFERRAL", amount: 5, externalId: "sp-404-user" });
    expectError(res, 404, "NOT_FOUND");
  });

  it("requires exactly one of wallet and userId (400)", async () => {
    const userId = (await postSp({ wallet: wallet(2), type: "RAFFLE", amount: 1, externalId: "sp-one-of" }))
      .body.data.userId;
    const both = await postSp({
      wallet: wallet(2),
      userId,
      type: "RAFFLE",
      amount: 1,
      externalId: "sp-both",
    });
    expectError(both, 400, "VALIDATION_FAILED");
    const neither = await postSp({ type: "RAFFLE", amount: 1, externalId: "sp-neither" });
    expectError(neither, 400, "VALIDATION_FAILED");
    const [row] = await rows(
      t.database.db,
      sql`select id from sp_ledger where external_id in ('sp-both', 'sp-neither')`,
    );
    expect(row).toBeUndefined();
  });

  it.each([
    [{ userId: "abc" }, "body.userId"],
    [{ userId: "0" }, "body.userId"],
    [{ wallet: "0x1234" }, "body.wallet"],
    [{ type: "BONUS" }, "body.type"],
    [{ amount: 1.5 }, "body.amount"],
    [{ externalId: "" }, "body.externalId"],
    [{ eventId: "bad id" }, "body.eventId"],
    [{ note: "hi" }, "body.note"],
  ])("refuses %j (400 naming %s)", async (over, field) => {
    const body = { wallet: wallet(3), type: "RAFFLE", amount: 1, externalId: "sp-invalid", ...over };
    expectInvalid(await postSp(body), field);
  });

  it("refuses a negative amount except for ADJUSTMENT", async () => {
    for (const type of [
      "PREDICTION",
      "WARMUP_PREDICTION",
      "ONCHAIN_PREDICTION",
      "ONCHAIN_SP",
      "REFERRAL",
      "RAFFLE",
    ]) {
      const res = await postSp({ wallet: wallet(4), type, amount: -1, externalId: `sp-neg-${type}` });
      expectInvalid(res, "body.amount");
    }
    const plus = await postSp({ wallet: wallet(4), type: "RAFFLE", amount: 100, externalId: "sp-adj-base" });
    const userId = plus.body.data.userId;
    const minus = await postSp({ userId, type: "ADJUSTMENT", amount: -30, externalId: "sp-adj-1" });
    expect(minus.status).toBe(201);
    expect(minus.body.data).toMatchObject({ userId, type: "ADJUSTMENT", amount: -30 });
    expect(await totalSp(userId)).toBe(70); // 100 − 30
  });

  it("answers 404 for an unknown eventId and creates neither the row nor the wallet's user", async () => {
    const before = await tableCounts();
    const res = await postSp({
      wallet: wallet(5),
      type: "PREDICTION",
      amount: 10,
      eventId: "no-such-event",
      externalId: "sp-404-event",
    });
    expectError(res, 404, "NOT_FOUND");
    expect(await tableCounts()).toEqual(before);
  });

  it("answers a replayed externalId with 200 and the first row, unchanged", async () => {
    const first = await postSp({ wallet: wallet(6), type: "RAFFLE", amount: 40, externalId: "sp-replay" });
    expect(first.status).toBe(201);
    const replay = await postSp({
      wallet: wallet(7),
      type: "REFERRAL",
      amount: 999,
      externalId: "sp-replay",
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual(first.body.data);
    expect(await totalSp(first.body.data.userId)).toBe(40);
  });

  it("writes one row for 20 concurrent identical posts", async () => {
    expect((await putEvent("ev-conc", eventBody({ kickoffAt: "2026-11-18T18:00:00Z" }))).status).toBe(201); // Wed, week 2
    const body = {
      wallet: wallet(8),
      type: "PREDICTION",
      amount: 250,
      eventId: "ev-conc",
      externalId: "sp-concurrent",
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => postSp(body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(18).fill(200), 201].sort());
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    const userId = results[0]!.body.data.userId as string;

    const replay = await postSp(body);
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe([...ids][0]);

    const [count] = await rows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from sp_ledger where external_id = 'sp-concurrent'`,
    );
    expect(count!.n).toBe("1");
    expect(await totalSp(userId)).toBe(250);
    const [users] = await rows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from users where wallet = ${wallet(8).toLowerCase()}`,
    );
    expect(users!.n).toBe("1");

    const lb = await call(t.app, { method: "GET", url: "/api/competition/leaderboard?week=2&limit=100" });
    expect(lb.status).toBe(200);
    const mine = lb.body.data.rows.filter((r: { userId: string }) => r.userId === userId);
    expect(mine).toHaveLength(1);
    expect(mine[0].competitiveSp).toBe(250);
  });
});

describe("POST /api/admin/protocol-fees", () => {
  it("creates a fee (201) and answers a replay with 200 and the first amount", async () => {
    const created = await postFee({
      txHash: txHash(1),
      logIndex: 0,
      amountUsdc: "12.5",
      occurredAt: "2026-11-18T10:00:00Z",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      data: {
        txHash: txHash(1).toLowerCase(),
        logIndex: 0,
        amountUsdc: "12.500000",
        occurredAt: "2026-11-18T10:00:00.000Z",
      },
    });

    // Same (txHash, logIndex), hash in another case, different amount: the first record stands.
    const replay = await postFee({
      txHash: txHash(1).toLowerCase(),
      logIndex: 0,
      amountUsdc: "99",
      occurredAt: "2026-11-19T10:00:00Z",
    });
    expect(replay.status).toBe(200);
    expect(replay.body.data).toEqual(created.body.data);

    const nextLog = await postFee({
      txHash: txHash(1),
      logIndex: 1,
      amountUsdc: "0.000001",
      occurredAt: "2026-11-18T10:00:00Z",
    });
    expect(nextLog.status).toBe(201);
    expect(nextLog.body.data.amountUsdc).toBe("0.000001");

    const [sum] = await rows<{ n: string; micro: string }>(
      t.database.db,
      sql`select count(*)::text as n, sum(amount_micro)::text as micro from protocol_fees
          where tx_hash = ${txHash(1).toLowerCase()}`,
    );
    expect(sum).toEqual({ n: "2", micro: "12500001" }); // 12.500000 + 0.000001 USDC
  });

  it.each([
    [{ amountUsdc: "1.1234567" }, "body.amountUsdc"],
    [{ amountUsdc: "-1" }, "body.amountUsdc"],
    [{ amountUsdc: "1e3" }, "body.amountUsdc"],
    [{ amountUsdc: "" }, "body.amountUsdc"],
    [{ txHash: "0x1234" }, "body.txHash"],
    [{ txHash: `0x${"g".repeat(64)}` }, "body.txHash"],
    [{ txHash: "ab".repeat(32) }, "body.txHash"],
    [{ logIndex: -1 }, "body.logIndex"],
    [{ occurredAt: "yesterday" }, "body.occurredAt"],
    [{ fee: "1" }, "body.fee"],
  ])("refuses %j (400 naming %s) and writes nothing", async (over, field) => {
    const before = await tableCounts();
    const body = {
      txHash: txHash(2),
      logIndex: 0,
      amountUsdc: "1",
      occurredAt: "2026-11-18T10:00:00Z",
      ...over,
    };
    expectInvalid(await postFee(body), field);
    expect(await tableCounts()).toEqual(before);
  });
});

describe("PUT /api/admin/clock", () => {
  it("pins the clock with TEST_CLOCK=1 and returns to real time with null", async () => {
    const res = await admin("PUT", "/api/admin/clock", { now: "2026-12-01T08:00:00Z" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { now: "2026-12-01T08:00:00.000Z" } });
    expect(t.clock.now().toISOString()).toBe("2026-12-01T08:00:00.000Z");
    const meta = await call(t.app, { method: "GET", url: "/api/competition/meta" });
    expect(meta.body.data.now).toBe("2026-12-01T08:00:00.000Z");
    expect(meta.body.data.currentWeek).toBe(4); // Tue 2026-12-01 starts week 4

    const before = Date.now();
    const real = await admin("PUT", "/api/admin/clock", { now: null });
    expect(real.status).toBe(200);
    const reported = new Date(real.body.data.now).getTime();
    expect(reported).toBeGreaterThanOrEqual(before);
    expect(reported).toBeLessThanOrEqual(Date.now());
  });

  it.each([[{ now: "tomorrow" }], [{}], [{ now: 5 }], [{ now: null, extra: 1 }]])(
    "refuses %j (400) and leaves the clock alone",
    async (payload) => {
      expectError(await admin("PUT", "/api/admin/clock", payload), 400, "VALIDATION_FAILED");
      expect(t.clock.now()).toEqual(NOW);
    },
  );

  it.each([
    "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "1999-12-31T23:59:59.999Z",
    "2101-01-01T00:00:00Z",
    "2100-12-31T23:00:00-01:00",
  ])(
    "refuses %s, outside the UTC years 2000–2100 (400 naming body.now), and leaves the clock alone",
    async (now) => {
      // Before, year 9999 or 0001 was accepted and every read then answered 500.
      const res = await admin("PUT", "/api/admin/clock", { now });
      expectError(res, 400, "VALIDATION_FAILED");
      expect(res.body.details).toEqual([
        { field: "body.now", message: "must be in the UTC years 2000–2100" },
      ]);
      expect(t.clock.now()).toEqual(NOW);
    },
  );

  it.each(["2000-01-01T00:00:00Z", "2100-12-31T23:59:59.999Z"])("accepts %s, at the edges", async (now) => {
    const res = await admin("PUT", "/api/admin/clock", { now });
    expect(res.status).toBe(200);
    expect(res.body.data.now).toBe(new Date(now).toISOString());
    t.clock.set(NOW);
  });

  it("does not exist without TEST_CLOCK (404)", async () => {
    // A second app on the same database; the empty TEST_CLOCK overrides the test default "1".
    const off = await createTestApp({ now: NOW, database: t.database, env: { TEST_CLOCK: "" } });
    try {
      expect(off.config.testClock).toBe(false);
      const res = await call(off.app, {
        method: "PUT",
        url: "/api/admin/clock",
        headers: ADMIN,
        payload: { now: "2030-01-01T00:00:00Z" },
      });
      expectError(res, 404, "NOT_FOUND");
      expect(off.clock.now()).toEqual(NOW);
    } finally {
      await off.close();
    }
  });
});
