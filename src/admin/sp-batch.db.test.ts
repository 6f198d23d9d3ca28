/** POST /api/admin/sp-transactions/batch: set-based feed ingest, idempotent per row, all or nothing. */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN, call, createTestApp, type TestApp } from "../../test/app.js";
import { buildEventBody } from "../../test/factories.js";
import { rows, sql, textArray } from "../db/client.js";
import { DOMAIN_EVENTS_CHANNEL } from "../domain-events/domain-events.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2 (Tue 2026-11-17 .. Tue 2026-11-24)

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  // Wed 2026-11-18 18:00 UTC: week 2. Thu 2026-11-26: week 3.
  for (const [id, kickoffAt] of [
    ["ev-b2", "2026-11-18T18:00:00Z"],
    ["ev-b3", "2026-11-26T18:00:00Z"],
  ] as const) {
    const res = await call(t.app, {
      method: "PUT",
      url: `/api/admin/events/${id}`,
      payload: buildEventBody({ kickoffAt }) as object,
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => t.close());

const wallet = (i: number) => `0xBaBa${i.toString(16).padStart(36, "0")}`;
const batch = (rowsIn: unknown[]) =>
  call(t.app, {
    method: "POST",
    url: "/api/admin/sp-transactions/batch",
    payload: { rows: rowsIn },
    headers: ADMIN,
  });

async function q<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rows<T>(t.database.db, query);
}
const totalSp = async (userId: string) =>
  Number(
    (
      await q<{ n: string }>(
        sql`select coalesce((select total_sp from user_sp_totals where user_id = ${userId}), 0)::text as n`,
      )
    )[0]!.n,
  );
const weekSp = async (week: number, userId: string) =>
  Number(
    (
      await q<{ n: string }>(
        sql`select coalesce(sum(sp), 0)::text as n from week_user_sp where week = ${week} and user_id = ${userId}`,
      )
    )[0]!.n,
  );
const ledgerCount = async (prefix: string) =>
  Number(
    (
      await q<{ n: string }>(
        sql`select count(*)::text as n from sp_ledger where external_id like ${`${prefix}%`}`,
      )
    )[0]!.n,
  );

async function newUser(i: number): Promise<string> {
  const res = await batch([{ wallet: wallet(i), type: "RAFFLE", amount: 1, externalId: `seed-${i}` }]);
  expect(res.status).toBe(200);
  return res.body.data.results[0].row.userId;
}

describe("POST /api/admin/sp-transactions/batch", () => {
  it("creates a batch's new wallets together: one user each, welcome credits once, display names", async () => {
    const res = await batch([
      { wallet: wallet(70), type: "RAFFLE", amount: 3, externalId: "nw-1" },
      { wallet: wallet(71), type: "RAFFLE", amount: 4, externalId: "nw-2" },
      { wallet: wallet(70).toLowerCase(), type: "RAFFLE", amount: 5, externalId: "nw-3" },
      { wallet: wallet(72), type: "RAFFLE", amount: 6, externalId: "nw-4" },
    ]);
    expect(res.status).toBe(200);
    const ids = res.body.data.results.map((r: { row: { userId: string } }) => r.row.userId);
    expect(ids[0]).toBe(ids[2]);
    expect(new Set(ids).size).toBe(3);
    const users = await q<{ wallet: string; display_name: string; credits: string; welcome: string }>(
      sql`select u.wallet, lower(u.display_name) as display_name, u.credits_balance::text as credits,
                 (select count(*) from credits_ledger c where c.user_id = u.id and c.reason = 'WELCOME'
                    and c.amount = 1000 and c.external_id = 'welcome:' || u.id)::text as welcome
          from users u where u.wallet = any(${textArray([70, 71, 72].map((i) => wallet(i).toLowerCase()))})
          order by u.wallet`,
    );
    // WELCOME_CREDITS is 1,000 by default: granted once each, with its credit row.
    expect(users).toEqual(
      [70, 71, 72].map((i) => ({
        wallet: wallet(i).toLowerCase(),
        display_name: `0xbaba…${i.toString(16).padStart(4, "0")}`, // checksummed; compared in lower case
        credits: "1000",
        welcome: "1",
      })),
    );
    expect(await totalSp(ids[0])).toBe(8); // 3 + 5
    // The same wallets again: found, not created again, no second welcome.
    const again = await batch([{ wallet: wallet(71), type: "RAFFLE", amount: 1, externalId: "nw-5" }]);
    expect(again.body.data.results[0].row.userId).toBe(ids[1]);
    const welcomes = await q<{ n: string }>(
      sql`select count(*)::text as n from credits_ledger where external_id = ${`welcome:${ids[1]}`}`,
    );
    expect(welcomes[0]!.n).toBe("1");
  });

  it("appends every row, creates unknown wallets once, answers per row in request order", async () => {
    const users = await q<{ n: string }>(sql`select count(*)::text as n from users`);
    const res = await batch([
      { wallet: wallet(1), type: "REFERRAL", amount: 500, externalId: "b1-a" },
      {
        wallet: wallet(1).toLowerCase(),
        type: "PREDICTION",
        amount: 250,
        eventId: "ev-b2",
        externalId: "b1-b",
      },
      { wallet: wallet(1), type: "PREDICTION", amount: 40, eventId: "ev-b3", externalId: "b1-c" },
      // Same externalId as the first row, other content: the first row's result, nothing written.
      { wallet: wallet(2), type: "RAFFLE", amount: 999, externalId: "b1-a" },
      { wallet: wallet(2), type: "ADJUSTMENT", amount: -5, externalId: "b1-d" },
    ]);
    expect(res.status).toBe(200);
    const { created, results } = res.body.data;
    expect(created).toBe(4);
    expect(results.map((r: { created: boolean }) => r.created)).toEqual([true, true, true, false, true]);
    expect(results.map((r: { row: { externalId: string } }) => r.row.externalId)).toEqual([
      "b1-a",
      "b1-b",
      "b1-c",
      "b1-a",
      "b1-d",
    ]);
    expect(results[3].row).toEqual(results[0].row);
    const u1 = results[0].row.userId;
    const u2 = results[4].row.userId;
    expect(results[1].row).toMatchObject({ userId: u1, type: "PREDICTION", amount: 250, eventId: "ev-b2" });
    expect(u2).not.toBe(u1);
    expect(Number((await q<{ n: string }>(sql`select count(*)::text as n from users`))[0]!.n)).toBe(
      Number(users[0]!.n) + 2,
    );
    expect(await totalSp(u1)).toBe(790); // 500 + 250 + 40
    expect(await totalSp(u2)).toBe(-5);
    expect(await weekSp(2, u1)).toBe(250); // REFERRAL has no week; ev-b3 is week 3
    expect(await weekSp(3, u1)).toBe(40);
    expect(await weekSp(2, u2)).toBe(0);

    // The rank cache follows (the feed saw the batch's week_user_sp rows).
    const board = await call(t.app, { method: "GET", url: "/api/competition/leaderboard?week=2" });
    expect(board.status).toBe(200);
    expect(board.body.data.rows.find((r: { userId: string }) => r.userId === u1)).toMatchObject({
      competitiveSp: 250,
    });
  });

  it("answers a replayed batch row by row with the first rows and changes nothing", async () => {
    const u = await newUser(10);
    const body = [
      { userId: u, type: "PREDICTION", amount: 70, eventId: "ev-b2", externalId: "b2-a" },
      { userId: u, type: "PREDICTION", amount: 30, eventId: "ev-b2", externalId: "b2-b" },
    ];
    const first = await batch(body);
    expect(first.body.data.created).toBe(2);
    const board1 = await call(t.app, { method: "GET", url: "/api/competition/leaderboard?week=2" });
    const replay = await batch([
      body[1],
      { userId: u, type: "RAFFLE", amount: 5000, externalId: "b2-a" }, // other content: the first row
      { userId: u, type: "PREDICTION", amount: 1, eventId: "ev-b2", externalId: "b2-c" },
    ]);
    expect(replay.status).toBe(200);
    expect(replay.body.data.created).toBe(1);
    expect(replay.body.data.results[0]).toEqual({ created: false, row: first.body.data.results[1].row });
    expect(replay.body.data.results[1]).toEqual({ created: false, row: first.body.data.results[0].row });
    expect(replay.body.data.results[2].created).toBe(true);
    expect(await totalSp(u)).toBe(1 + 70 + 30 + 1);
    expect(await weekSp(2, u)).toBe(101);
    const board2 = await call(t.app, { method: "GET", url: "/api/competition/leaderboard?week=2" });
    const sp = (b: typeof board1) =>
      b.body.data.rows.find((r: { userId: string }) => r.userId === u)?.competitiveSp;
    expect([sp(board1), sp(board2)]).toEqual([100, 101]);
  });

  it("writes each row once for 6 concurrent copies of a 40-row batch", async () => {
    const a = await newUser(20);
    const b = await newUser(21);
    const body = Array.from({ length: 40 }, (_, i) => ({
      userId: i % 2 === 0 ? a : b,
      type: "PREDICTION",
      amount: 10 + i, // a: 10+12+…+48 = 580, b: 11+13+…+49 = 600
      eventId: "ev-b2",
      externalId: `b3-${i}`,
    }));
    const answers = await Promise.all(Array.from({ length: 6 }, () => batch(body)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(answers.reduce((n, r) => n + r.body.data.created, 0)).toBe(40);
    const ids = answers.map((r) => r.body.data.results.map((x: { row: { id: string } }) => x.row.id).join());
    expect(new Set(ids).size).toBe(1);
    expect(await ledgerCount("b3-")).toBe(40);
    expect(await totalSp(a)).toBe(1 + 580);
    expect(await totalSp(b)).toBe(1 + 600);
    expect(await weekSp(2, a)).toBe(580);
    expect(await weekSp(2, b)).toBe(600);
  });

  it("does not deadlock two concurrent batches over the same users in opposite orders", async () => {
    const ids = await Promise.all([30, 31, 32, 33].map(newUser));
    const rowsFor = (tag: string, order: string[]) =>
      order.map((userId, i) => ({
        userId,
        type: "PREDICTION",
        amount: 5,
        eventId: i % 2 ? "ev-b2" : "ev-b3",
        externalId: `b4-${tag}-${userId}`,
      }));
    const [x, y] = await Promise.all([batch(rowsFor("x", ids)), batch(rowsFor("y", [...ids].reverse()))]);
    expect([x.status, y.status]).toEqual([200, 200]);
    for (const id of ids) expect(await totalSp(id)).toBe(11);
  });

  it.each([
    ["both wallet and userId", { wallet: wallet(40), userId: "1" }, "body.rows.1.wallet"],
    ["neither wallet nor userId", { wallet: undefined }, "body.rows.1.wallet"],
    ["a negative non-ADJUSTMENT amount", { amount: -1 }, "body.rows.1.amount"],
    ["an unknown property", { note: "x" }, "body.rows.1.note"],
    ["a bad type", { type: "BONUS" }, "body.rows.1.type"],
  ])("refuses the whole batch when a row has %s (400 naming %s)", async (_, over, field) => {
    const before = await ledgerCount("b5-");
    const res = await batch([
      { wallet: wallet(41), type: "RAFFLE", amount: 1, externalId: "b5-ok" },
      { wallet: wallet(40), type: "RAFFLE", amount: 1, externalId: "b5-bad", ...over },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: "VALIDATION_FAILED" });
    expect(JSON.stringify(res.body)).toContain(field.replace("body.rows.1.", ""));
    expect(await ledgerCount("b5-")).toBe(before);
  });

  it("refuses an empty batch and one over 1,000 rows (400)", async () => {
    expect((await batch([])).status).toBe(400);
    const big = Array.from({ length: 1001 }, (_, i) => ({
      userId: "1",
      type: "RAFFLE",
      amount: 1,
      externalId: `b6-${i}`,
    }));
    expect((await batch(big)).status).toBe(400);
    expect(await ledgerCount("b6-")).toBe(0);
  });

  it("accepts 1,000 rows in one request", async () => {
    const u = await newUser(50);
    const res = await batch(
      Array.from({ length: 1000 }, (_, i) => ({
        userId: u,
        type: "PREDICTION",
        amount: i % 3, // 333 × (0 + 1 + 2) + 0 = 999
        eventId: "ev-b3",
        externalId: `b7-${"x".repeat(150)}-${i}`,
      })),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.created).toBe(1000);
    expect(await weekSp(3, u)).toBe(999);
  });

  it("answers 404 for an unknown event or user and writes nothing, not even the new wallet's user", async () => {
    const users = (await q<{ n: string }>(sql`select count(*)::text as n from users`))[0]!.n;
    const unknownEvent = await batch([
      { wallet: wallet(60), type: "RAFFLE", amount: 1, externalId: "b8-a" },
      { wallet: wallet(60), type: "PREDICTION", amount: 1, eventId: "no-such-event", externalId: "b8-b" },
    ]);
    expect(unknownEvent.status).toBe(404);
    expect(unknownEvent.body).toMatchObject({ code: "NOT_FOUND" });
    expect(unknownEvent.body.error).toContain("no-such-event");
    const unknownUser = await batch([
      { wallet: wallet(61), type: "RAFFLE", amount: 1, externalId: "b8-c" },
      { userId: "987654321", type: "RAFFLE", amount: 1, externalId: "b8-d" },
    ]);
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body.error).toContain("987654321");
    expect(await ledgerCount("b8-")).toBe(0);
    expect((await q<{ n: string }>(sql`select count(*)::text as n from users`))[0]!.n).toBe(users);
  });
});

// These rows arrive together and are appended in groups; the group holding the unknown event or user fails and its
// rows are appended again alone, so each request still gets its own answer.
describe("POST /api/admin/sp-transactions: concurrent single rows are appended in groups", () => {
  const single = (body: unknown) =>
    call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      payload: body as object,
      headers: ADMIN,
    });

  it("answers each of 40 concurrent rows as if alone: 201s, a replay 200, unknown event and user 404", async () => {
    const u = await newUser(70);
    const bodies: Array<Record<string, unknown>> = Array.from({ length: 36 }, (_, i) => ({
      userId: u,
      type: "PREDICTION",
      amount: i + 1, // 1 + 2 + … + 36 = 666
      eventId: "ev-b2",
      externalId: `g1-${i}`,
    }));
    bodies.push({ userId: u, type: "PREDICTION", amount: 500, eventId: "ev-b2", externalId: "g1-0" }); // replay
    bodies.push({
      userId: u,
      type: "PREDICTION",
      amount: 7,
      eventId: "no-such-event",
      externalId: "g1-bad-ev",
    });
    bodies.push({ userId: "987654321", type: "RAFFLE", amount: 7, externalId: "g1-bad-user" });
    bodies.push({ wallet: wallet(71), type: "RAFFLE", amount: 3, externalId: "g1-new-wallet" });
    const before = await weekSp(2, u);
    const res = await Promise.all(bodies.map(single));
    const statuses = res.map((r) => r.status);
    // The replay may win the race for g1-0 (then the original answers 200 with the replay's row).
    const g10 = [statuses[0], statuses[36]].sort();
    expect(g10).toEqual([200, 201]);
    expect(statuses.slice(1, 36)).toEqual(Array(35).fill(201));
    expect(statuses.slice(37)).toEqual([404, 404, 201]);
    expect(res[37]!.body.error).toContain("no-such-event");
    expect(res[38]!.body.error).toContain("987654321");
    // Both answers for g1-0 carry the one stored row.
    expect(res[0]!.body.data.id).toBe(res[36]!.body.data.id);
    const g10Amount = res[0]!.body.data.amount as number;
    expect([1, 500]).toContain(g10Amount);
    expect(await ledgerCount("g1-")).toBe(37);
    expect(await weekSp(2, u)).toBe(before + 666 - 1 + g10Amount);
    for (let i = 1; i < 36; i++)
      expect(res[i]!.body.data).toMatchObject({ amount: i + 1, externalId: `g1-${i}` });
  });
});

describe("concurrent batches", () => {
  it("two batches naming the same new wallets in opposite orders both succeed (no deadlock reaches the client)", async () => {
    // On PostgreSQL the old code created the users in request order: each batch held the row of its first new
    // wallet and waited for the other's (40P01 deadlock → 500). Users are now created in sorted order.
    const wallets = Array.from(
      { length: 40 },
      (_, i) => `0x${(0xdead0000 + i).toString(16).padStart(40, "c")}`,
    );
    const rowsOf = (ws: string[], tag: string) =>
      ws.map((w, i) => ({ wallet: w, type: "RAFFLE", amount: 1, externalId: `opp-${tag}-${i}` }));
    const [a, b] = await Promise.all([
      batch(rowsOf(wallets, "a")),
      batch(rowsOf([...wallets].reverse(), "b")),
    ]);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(a.body.data.created + b.body.data.created).toBe(80);
    const users = await q<{ n: string }>(
      sql`select count(*)::text as n from users where wallet = any(${textArray(wallets)})`,
    );
    expect(Number(users[0]!.n)).toBe(40);
    // Each wallet's user got one row from each batch.
    for (const w of [wallets[0]!, wallets[39]!]) {
      const [u] = await q<{ total_sp: string }>(
        sql`select t.total_sp::text as total_sp from user_sp_totals t join users u on u.id = t.user_id where u.wallet = ${w}`,
      );
      expect(Number(u!.total_sp)).toBe(2);
    }
  });
});

describe("the live stream's ladder.changed", () => {
  const head = async () =>
    (await q<{ id: string }>(sql`select coalesce(max(id), 0)::text as id from domain_events`))[0]!.id;
  const ladderEventsAfter = (id: string) =>
    q<{ payload: unknown }>(
      sql`select payload from domain_events where type = 'ladder.changed' and id > ${id} order by id`,
    );

  it("one per week whose ladder an append changed, in week order; none for a replay or SP off the ladders", async () => {
    let signals = 0;
    const stop = t.database.onEventsCommitted(() => {
      signals++;
    });
    // PostgreSQL: the NOTIFY other instances wake on, sent by the statement that wrote the events (once the
    // listener is up, which it reports once).
    let notified = 0;
    const listener = t.database.listen?.(DOMAIN_EVENTS_CHANNEL, () => {
      notified++;
    });
    if (listener) await vi.waitFor(() => expect(notified).toBe(1), { timeout: 5000 });
    try {
      // Weeks 3 and 2 (ev-b3, ev-b2), two players, and a REFERRAL (on no ladder): weeks 2 and 3, once each.
      const rowsIn = [
        { wallet: wallet(90), type: "PREDICTION", amount: 30, eventId: "ev-b3", externalId: "lc-1" },
        { wallet: wallet(90), type: "PREDICTION", amount: 20, eventId: "ev-b2", externalId: "lc-2" },
        { wallet: wallet(91), type: "PREDICTION", amount: 10, eventId: "ev-b2", externalId: "lc-3" },
        { wallet: wallet(91), type: "REFERRAL", amount: 500, externalId: "lc-4" },
      ];
      let from = await head();
      expect((await batch(rowsIn)).body.data.created).toBe(4);
      expect(await ladderEventsAfter(from)).toEqual([{ payload: { week: 2 } }, { payload: { week: 3 } }]);
      expect(signals).toBe(1);
      if (listener) await vi.waitFor(() => expect(notified).toBe(2), { timeout: 5000 });

      // The same rows again: nothing appended, no event, no signal.
      from = await head();
      expect((await batch(rowsIn)).body.data.created).toBe(0);
      expect(await ladderEventsAfter(from)).toEqual([]);
      expect(signals).toBe(1);

      // SP on no ladder (a REFERRAL, a RAFFLE without an event): appended, no ladder changed.
      from = await head();
      const offLadder = await batch([
        { wallet: wallet(90), type: "REFERRAL", amount: 5, externalId: "lc-5" },
        { wallet: wallet(91), type: "RAFFLE", amount: 7, externalId: "lc-6" },
      ]);
      expect(offLadder.body.data.created).toBe(2);
      expect(await ladderEventsAfter(from)).toEqual([]);

      // One row through the single-row endpoint (the group commit): week 2's ladder.
      from = await head();
      const single = await call(t.app, {
        method: "POST",
        url: "/api/admin/sp-transactions",
        payload: { wallet: wallet(91), type: "PREDICTION", amount: 4, eventId: "ev-b2", externalId: "lc-7" },
        headers: ADMIN,
      });
      expect(single.status).toBe(201);
      expect(await ladderEventsAfter(from)).toEqual([{ payload: { week: 2 } }]);
      if (listener) {
        // Delivered in commit order: the replay and the rows off the ladders recorded no event and woke no one,
        // so the single row's is the third notification, and no other follows it.
        await vi.waitFor(() => expect(notified).toBeGreaterThanOrEqual(3), { timeout: 5000 });
        await new Promise((r) => setTimeout(r, 300));
        expect(notified).toBe(3);
      }
    } finally {
      stop();
      await listener?.close();
    }
  });
});
