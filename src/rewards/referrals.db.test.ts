/**
 * Referrals over HTTP (SPEC §3 REFERRAL, §6 Referrals, §9 /api/referrals): a code links a user only when that
 * sign-in creates them (never self, never relinked), a referee is waiting until one of their predictions settles
 * (won, lost or void), then redeemable, then redeemed; redeeming writes one REFERRAL row of 500 SP per referee,
 * also under concurrent requests, and that SP counts all-time but never on a competition ladder.
 *
 * One app for the whole file; every test uses its own players and events. Bets are placed at Fri 2026-11-20
 * 12:00 UTC (week 2); events kick off Wed 2026-11-25 18:00 UTC (week 3) and settle two hours later.
 */
import { sql } from "drizzle-orm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { get, getData, NO_RATE_LIMITS } from "../../test/competition-api.js";
import { buildBetBody } from "../../test/factories.js";
import { bet, dataOf, expectError, postResult, putEvent } from "../../test/player-api.js";
import { rows } from "../db/client.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const AFTER_MATCH = new Date("2026-11-25T20:00:00.000Z"); // Wed, week 3, two hours after kickoff

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: NO_RATE_LIMITS });
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(NOW));

let keys = 200;
/** A new wallet player (with its key, to sign in again), optionally signing up with a referral code. */
async function newPlayer(referralCode?: string) {
  const key = testKey(keys++);
  return { key, ...(await signIn(t, key, referralCode ? { referralCode } : {})) };
}

const referrals = async (cookie: string) => getData(t, "/api/referrals", cookie);
const redeem = (cookie: string) =>
  call(t.app, { method: "POST", url: "/api/referrals", headers: { cookie } });
const totalSp = async (userId: string) =>
  (await getData(t, `/api/leaderboard/user-row?userId=${userId}`)).totalSp as number;

/** Statuses of a referrer's referees by user id. */
async function statuses(cookie: string): Promise<Record<string, string>> {
  const data = await referrals(cookie);
  return Object.fromEntries(
    data.referees.map((r: { userId: string; status: string }) => [r.userId, r.status]),
  );
}

/** Settles an event after its kickoff (the clock goes back to NOW before the next test). */
async function settle(eventId: string, result: Record<string, unknown>) {
  t.clock.set(AFTER_MATCH);
  dataOf(await postResult(t, eventId, result));
}

describe("referral codes", () => {
  it("gives every new user a code of its own, 8 of the 32 unambiguous characters; the feed's new wallets too", async () => {
    const CODE = /^[A-HJ-NP-Z2-9]{8}$/;
    const signedUp = (await referrals((await newPlayer()).cookie)).code as string;
    expect(signedUp).toMatch(CODE);
    // 40 wallets new to the platform, created by one feed batch.
    const wallets = Array.from(
      { length: 40 },
      (_, i) => `0x${(0xc0de00 + i).toString(16).padStart(40, "0")}`,
    );
    const res = await call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions/batch",
      headers: ADMIN,
      payload: {
        rows: wallets.map((wallet, i) => ({
          wallet,
          type: "ADJUSTMENT",
          amount: 1,
          externalId: `ref-codes-${i}`,
        })),
      },
    });
    expect(res.status).toBe(200);
    const codes = (
      await rows<{ code: string }>(
        t.database.db,
        sql`select referral_code as code from users where wallet like ${`${wallets[0]!.slice(0, 40)}%`}`,
      )
    ).map((r) => r.code);
    expect(codes).toHaveLength(40);
    for (const code of codes) expect(code).toMatch(CODE);
    expect(new Set([...codes, signedUp]).size).toBe(41);
  });
});

describe("linking a referee", () => {
  it("links only at the sign-in that creates the user; a later code or an unknown code changes nothing", async () => {
    const r = await newPlayer();
    const x = await newPlayer();
    const rCode = (await referrals(r.cookie)).code as string;
    const xCode = (await referrals(x.cookie)).code as string;
    expect(rCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(xCode).not.toBe(rCode);

    const a = await newPlayer(rCode);
    const data = await referrals(r.cookie);
    expect(data).toEqual({
      code: rCode,
      referredCount: 1,
      pendingRewardSp: 0,
      redeemedRewardSp: 0,
      referees: [
        {
          userId: a.userId,
          displayName: expect.any(String),
          joinedAt: expect.any(String),
          status: "waiting",
        },
      ],
    });
    expect(new Date(data.referees[0].joinedAt).toISOString()).toBe(data.referees[0].joinedAt);

    // A's second sign-in, now with X's code: A stays R's referee, X gets nobody.
    await signIn(t, a.key, { referralCode: xCode });
    expect((await referrals(r.cookie)).referredCount).toBe(1);
    expect((await referrals(x.cookie)).referredCount).toBe(0);

    // An unknown code does not block the sign-in and links nobody.
    const b = await newPlayer("ZZZZZZZZ");
    expect(b.userId).toMatch(/^\d+$/);
    expect((await referrals(r.cookie)).referredCount).toBe(1);
    expect((await referrals(x.cookie)).referredCount).toBe(0);
  });

  it("never links a user to themselves, nor a user who existed before signing in", async () => {
    const r = await newPlayer();
    const code = (await referrals(r.cookie)).code as string;
    // R signing in again with their own code.
    await signIn(t, r.key, { referralCode: code });
    expect(await referrals(r.cookie)).toMatchObject({ referredCount: 0, referees: [] });

    // A wallet the feed created (by an SP row) is not new at its first sign-in: the code is ignored.
    const key = testKey(keys++);
    const res = await call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      headers: ADMIN,
      payload: {
        wallet: privateKeyToAccount(key).address,
        type: "ONCHAIN_SP",
        amount: 1,
        externalId: "ref-feed-user",
      },
    });
    expect(res.status).toBe(201);
    await signIn(t, key, { referralCode: code });
    expect((await referrals(r.cookie)).referredCount).toBe(0);
  });

  it("answers 401 signed out", async () => {
    expectError(await get(t, "/api/referrals"), 401, "UNAUTHENTICATED");
    expectError(await call(t.app, { method: "POST", url: "/api/referrals" }), 401, "UNAUTHENTICATED");
  });
});

describe("statuses and redeeming", () => {
  it("goes waiting → redeemable (first settled prediction: won or void) → redeemed, once", async () => {
    await putEvent(t, "ref-won");
    await putEvent(t, "ref-cancelled");
    await putEvent(t, "ref-lost");
    const r = await newPlayer();
    const code = (await referrals(r.cookie)).code as string;
    const a = await newPlayer(code);
    const b = await newPlayer(code);
    const c = await newPlayer(code);
    expect(await statuses(r.cookie)).toEqual({
      [a.userId]: "waiting",
      [b.userId]: "waiting",
      [c.userId]: "waiting",
    });

    // An open prediction is not enough.
    dataOf(await bet(t, a.cookie, buildBetBody("ref-won")), 201);
    dataOf(await bet(t, b.cookie, buildBetBody("ref-cancelled")), 201);
    expect(await statuses(r.cookie)).toEqual({
      [a.userId]: "waiting",
      [b.userId]: "waiting",
      [c.userId]: "waiting",
    });
    // Nothing to redeem yet.
    expect(dataOf(await redeem(r.cookie))).toEqual({ redeemedSp: 0, redeemedCount: 0 });

    await settle("ref-won", { status: "finished", winningOutcome: "home" }); // A won
    await settle("ref-cancelled", { status: "cancelled" }); // B void
    const ready = await referrals(r.cookie);
    expect(ready).toMatchObject({ referredCount: 3, pendingRewardSp: 1000, redeemedRewardSp: 0 }); // 2 × 500
    // Newest referee first.
    expect(ready.referees.map((x: { userId: string; status: string }) => [x.userId, x.status])).toEqual([
      [c.userId, "waiting"],
      [b.userId, "redeemable"],
      [a.userId, "redeemable"],
    ]);
    expect(await totalSp(r.userId)).toBe(0);

    expect(dataOf(await redeem(r.cookie))).toEqual({ redeemedSp: 1000, redeemedCount: 2 });
    expect(await referrals(r.cookie)).toMatchObject({ pendingRewardSp: 0, redeemedRewardSp: 1000 });
    expect(await statuses(r.cookie)).toEqual({
      [a.userId]: "redeemed",
      [b.userId]: "redeemed",
      [c.userId]: "waiting",
    });
    expect(await totalSp(r.userId)).toBe(1000);
    // A second redeem finds nothing.
    expect(dataOf(await redeem(r.cookie))).toEqual({ redeemedSp: 0, redeemedCount: 0 });
    expect(await totalSp(r.userId)).toBe(1000);
    // The referees get nothing from it: A only has the SP of their win (10 × 2.15 = 21.5 → 21), B nothing.
    expect(await totalSp(a.userId)).toBe(21);
    expect(await totalSp(b.userId)).toBe(0);

    // C's first prediction loses: a lost one counts as settled too.
    t.clock.set(NOW);
    dataOf(await bet(t, c.cookie, buildBetBody("ref-lost", { outcome: "away" })), 201);
    await settle("ref-lost", { status: "finished", winningOutcome: "home" });
    expect(await referrals(r.cookie)).toMatchObject({ pendingRewardSp: 500, redeemedRewardSp: 1000 });
    expect(dataOf(await redeem(r.cookie))).toEqual({ redeemedSp: 500, redeemedCount: 1 });
    expect(await referrals(r.cookie)).toMatchObject({
      referredCount: 3,
      pendingRewardSp: 0,
      redeemedRewardSp: 1500,
    });
    expect(await totalSp(r.userId)).toBe(1500); // 3 × 500
  });

  it("redeems each referee once under 10 concurrent POSTs, and the SP stays off the competition ladders", async () => {
    await putEvent(t, "ref-race");
    const r = await newPlayer();
    const code = (await referrals(r.cookie)).code as string;
    const referees = [await newPlayer(code), await newPlayer(code), await newPlayer(code)];
    for (const x of referees) {
      dataOf(await bet(t, x.cookie, buildBetBody("ref-race", { stake: 100 })), 201);
    }
    await settle("ref-race", { status: "finished", winningOutcome: "home" }); // each earns 100 × 2.15 = 215 SP
    expect((await referrals(r.cookie)).pendingRewardSp).toBe(1500);
    const before = await totalSp(r.userId);
    expect(before).toBe(0);

    const answers = await Promise.all(Array.from({ length: 10 }, () => redeem(r.cookie)));
    const data = answers.map((res) => dataOf(res));
    // Together the ten answers redeem the three referees exactly once.
    expect(data.reduce((n, d) => n + d.redeemedCount, 0)).toBe(3);
    expect(data.reduce((n, d) => n + d.redeemedSp, 0)).toBe(1500);
    expect(await totalSp(r.userId)).toBe(before + 3 * 500);
    const ledger = await rows<{ n: string; sp: string }>(
      t.database.db,
      sql`select count(*)::text as n, sum(amount)::text as sp from sp_ledger
          where user_id = ${BigInt(r.userId)} and type = 'REFERRAL'`,
    );
    expect(ledger[0]).toEqual({ n: "3", sp: "1500" });
    expect(await referrals(r.cookie)).toMatchObject({ pendingRewardSp: 0, redeemedRewardSp: 1500 });

    // All-time: on /api/leaderboard with 1500.
    const allTime = await getData(t, "/api/leaderboard?limit=100");
    expect(allTime.rows.find((row: { userId: string }) => row.userId === r.userId)).toMatchObject({
      totalSp: 1500,
    });
    // Competition: the referees' 215 SP are on the week-3 ladder (the kickoff week), the referrer is on no ladder.
    for (const week of [2, 3]) {
      const ladder = await getData(t, `/api/competition/leaderboard?week=${week}&limit=100`);
      expect(ladder.rows.map((row: { userId: string }) => row.userId)).not.toContain(r.userId);
    }
    const week3 = await getData(t, "/api/competition/leaderboard?week=3&limit=100");
    for (const x of referees) {
      expect(week3.rows.find((row: { userId: string }) => row.userId === x.userId)).toMatchObject({
        competitiveSp: 215,
      });
    }
    const me = await getData(t, "/api/competition/me?week=3", r.cookie);
    expect(me.qualification).toEqual({ rank: null, competitiveSp: 0, withinCutoff: false });
  });

  it("counts and redeems every referee of a referrer with more than 1,000, and lists the newest 1,000", async () => {
    // Before: the referees were read newest first, at most 1,000, so the oldest one's 500 SP was never pending
    // nor redeemable, for ever (a redeem of the 1,000 left it out, and the next found nothing).
    await putEvent(t, "ref-many");
    const r = await newPlayer();
    const REFEREES = 1001;
    // 1,001 referees written directly (signing each in would take minutes), each with one lost prediction.
    const made = await rows<{ id: string }>(
      t.database.db,
      sql`insert into users (wallet, display_name, referral_code, referred_by)
          select '0xf' || lpad(to_hex(g), 39, '0'), 'referee ' || g, 'MANY' || g, ${BigInt(r.userId)}
          from generate_series(1, ${REFEREES}) g
          returning id::text as id`,
    );
    await t.database.db.execute(
      sql`insert into predictions (user_id, version, event_id, market, outcome, odds_milli, stake, status, payout,
                                   placed_at, settled_at)
          select u.id, 1, 'ref-many', '1x2', 'away', 3100, 10, 'lost', 0, ${NOW}, ${AFTER_MATCH}
          from users u where u.referred_by = ${BigInt(r.userId)}`,
    );
    const ids = made.map((m) => BigInt(m.id)).sort((a, b) => (a < b ? 1 : -1));

    const before = await referrals(r.cookie);
    expect(before).toMatchObject({ referredCount: 1001, pendingRewardSp: 1001 * 500, redeemedRewardSp: 0 });
    // The newest 1,000, newest first: every referee but the oldest.
    expect(before.referees.map((x: { userId: string }) => x.userId)).toEqual(ids.slice(0, 1000).map(String));
    expect(new Set(before.referees.map((x: { status: string }) => x.status))).toEqual(
      new Set(["redeemable"]),
    );

    expect(dataOf(await redeem(r.cookie))).toEqual({ redeemedSp: 1001 * 500, redeemedCount: 1001 });
    expect(dataOf(await redeem(r.cookie))).toEqual({ redeemedSp: 0, redeemedCount: 0 });
    expect(await referrals(r.cookie)).toMatchObject({
      referredCount: 1001,
      pendingRewardSp: 0,
      redeemedRewardSp: 1001 * 500,
    });
    expect(await totalSp(r.userId)).toBe(1001 * 500);
    const [oldest] = await rows<{ n: string }>(
      t.database.db,
      sql`select count(*)::text as n from sp_ledger where external_id = ${`referral:${ids[ids.length - 1]}`}`,
    );
    expect(oldest!.n).toBe("1");
  });
});
