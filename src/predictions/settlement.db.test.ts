/**
 * Settlement and claims over HTTP (SPEC §3, §6 Settlement and claims, §7 result endpoint, §9 claim-payout):
 * won / lost / void with hand-computed payouts, the SP they earn on the competition ladder of the kickoff week,
 * idempotent and conflicting results, and exactly-once claims under concurrency.
 *
 * One database for the whole file, served by two apps: `t` with the default chain verifier ("none": v2 bets stay
 * pending) and `trusting` with CHAIN_VERIFIER=trust (v2 bets open at once). Every test uses its own events and
 * players. Bets are placed at Fri 2026-11-20 12:00 UTC (week 2); events kick off Wed 2026-11-25 18:00 UTC,
 * in week 3 = [Tue 2026-11-24, Tue 2026-12-01), unless a test says otherwise.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { buildEventBody, buildMarket } from "../../test/factories.js";
import {
  bet,
  betV2,
  claim,
  dataOf,
  expectError,
  expectInvalid,
  postResult,
  putEvent,
  trustBetDeps,
  txHash,
} from "../../test/player-api.js";
import { sql } from "../db/client.js";
import { findPrediction } from "./predictions.repository.js";
import { verifyPendingBet } from "./report-onchain-bet.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const AFTER_MATCH = new Date("2026-11-25T20:00:00.000Z"); // Wed, week 3, two hours after kickoff
const NEXT_WEEK = new Date("2026-12-02T10:00:00.000Z"); // Wed, week 4 = [Tue 2026-12-01, Tue 2026-12-08)

let t: TestApp;
/** PUT /api/admin/events/:id of the default event body with `over`, answered as it is. */
const putEventRaw = (id: string, over: Record<string, unknown>) =>
  call(t.app, {
    method: "PUT",
    url: `/api/admin/events/${id}`,
    headers: ADMIN,
    payload: buildEventBody(over),
  });
let trusting: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: NO_RATE_LIMITS });
  trusting = await createTestApp({
    now: NOW,
    database: t.database,
    env: { ...NO_RATE_LIMITS, CHAIN_VERIFIER: "trust" },
  });
});
afterAll(async () => {
  await trusting?.close();
  await t?.close();
});
beforeEach(() => {
  t.clock.set(NOW);
  trusting.clock.set(NOW);
});

let keys = 300;
/** A new wallet player (1000 welcome credits). */
const newPlayer = () => signIn(t, testKey(keys++));
let hashes = 1000;

/** Places a v1 bet that must succeed; returns the prediction id. */
async function placeV1(cookie: string, eventId: string, market: string, outcome: string, stake: number) {
  return dataOf(await bet(t, cookie, { eventId, market, outcome, stake }), 201).prediction.id as string;
}

/** Reports a v2 bet (open on `trusting`, pending on `t`); returns the prediction. */
async function placeV2(
  app: TestApp,
  cookie: string,
  eventId: string,
  market: string,
  outcome: string,
  stakeUsdc: string,
  odds: number,
) {
  const res = await betV2(app, cookie, {
    eventId,
    market,
    outcome,
    stakeUsdc,
    odds,
    txHash: txHash(hashes++),
    chainId: 8453,
  });
  return dataOf(res, 201).prediction;
}

/** A player's prediction by id, from /api/user/predictions. */
async function prediction(cookie: string, id: string) {
  const res = await call(t.app, {
    method: "GET",
    url: "/api/user/predictions?limit=100",
    headers: { cookie },
  });
  return (dataOf(res).items as Array<Record<string, any>>).find((p) => p.id === id)!;
}

/** Competitive SP of a user on the qualification ladder of a week, or null when not on it. */
async function competitiveSp(week: number, userId: string): Promise<number | null> {
  const res = await call(t.app, {
    method: "GET",
    url: `/api/competition/leaderboard?week=${week}&limit=100`,
  });
  const rows = dataOf(res).rows as Array<{ userId: string; competitiveSp: number }>;
  return rows.find((r) => r.userId === userId)?.competitiveSp ?? null;
}

/** Checks a player's credits balance by staking all of it on an open event: it must then be 0. */
async function drainBalance(cookie: string, eventId: string, expected: number) {
  t.clock.set(NOW);
  const res = await bet(t, cookie, { eventId, market: "1x2", outcome: "draw", stake: expected });
  expect(dataOf(res, 201).balance).toBe(0);
  expectError(
    await bet(t, cookie, { eventId, market: "1x2", outcome: "draw", stake: 1 }),
    409,
    "INSUFFICIENT_CREDITS",
  );
}

describe("posting a finished result", () => {
  it("settles every open prediction, pays by hand-computed amounts and puts the SP on the kickoff week's ladder", async () => {
    await putEvent(t, "s-main");
    const [a, b, c, d] = [await newPlayer(), await newPlayer(), await newPlayer(), await newPlayer()];
    const aHome = await placeV1(a.cookie, "s-main", "1x2", "home", 100); // @2.15
    const bAway = await placeV1(b.cookie, "s-main", "1x2", "away", 200); // @3.1
    const cOver = await placeV1(c.cookie, "s-main", "total", "over", 77); // @1.95
    const cHome = await placeV1(c.cookie, "s-main", "1x2", "home", 33); // @2.15
    const dOver = await placeV2(trusting, d.cookie, "s-main", "total", "over", "10.5", 1.95);
    const dUnder = await placeV2(trusting, d.cookie, "s-main", "total", "under", "3", 1.85);
    expect([dOver.status, dUnder.status]).toEqual(["open", "open"]);

    // Settled in week 4: the SP still count for week 3, the week of the kickoff.
    t.clock.set(NEXT_WEEK);
    const res = await postResult(t, "s-main", {
      status: "finished",
      winningOutcome: "home",
      winningOutcomes: { total: "over" },
    });
    const data = dataOf(res);
    expect(data.settled).toBe(6);
    expect(data.alreadySettled).toBe(false);
    expect(data.event).toMatchObject({ id: "s-main", status: "finished" });
    t.clock.set(NOW); // back inside the players' 7-day sessions

    const settledAt = NEXT_WEEK.toISOString();
    // 100 × 2.15 = 215
    expect(await prediction(a.cookie, aHome)).toMatchObject({
      status: "won",
      payout: 215,
      settledAt,
      claimed: false,
    });
    expect(await prediction(b.cookie, bAway)).toMatchObject({ status: "lost", payout: 0, settledAt });
    // 77 × 1.95 = 150.15 → 150; 33 × 2.15 = 70.95 → 70
    expect(await prediction(c.cookie, cOver)).toMatchObject({ status: "won", payout: 150 });
    expect(await prediction(c.cookie, cHome)).toMatchObject({ status: "won", payout: 70 });
    // 10.5 USDC × 1.95 = 20.475 USDC
    expect(await prediction(d.cookie, dOver.id)).toMatchObject({
      status: "won",
      payoutUsdc: "20.475000",
      settledAt,
    });
    expect(await prediction(d.cookie, dUnder.id)).toMatchObject({ status: "lost", payoutUsdc: "0.000000" });

    // Competitive SP of week 3: a 215; b 0 (not ranked); c 150 + 70 = 220;
    // d: floor(10.5 USDC × 100 SP/USDC × 1.95) = floor(2047.5) = 2047, the lost 3 USDC earn nothing.
    expect(await competitiveSp(3, a.userId)).toBe(215);
    expect(await competitiveSp(3, b.userId)).toBeNull();
    expect(await competitiveSp(3, c.userId)).toBe(220);
    expect(await competitiveSp(3, d.userId)).toBe(2047);
    // Nothing lands in the week of settlement.
    expect(await competitiveSp(4, a.userId)).toBeNull();
    expect(await competitiveSp(4, d.userId)).toBeNull();
  });

  it("counts a won bet on a warmup event (WARMUP_PREDICTION) on the ladder of its kickoff week", async () => {
    // Kickoff Thu 2026-12-03, week 4.
    await putEvent(t, "s-warm", { warmup: true, kickoffAt: "2026-12-03T18:00:00.000Z" });
    const e = await newPlayer();
    const id = await placeV1(e.cookie, "s-warm", "1x2", "draw", 40); // @3.4
    t.clock.set(new Date("2026-12-03T21:00:00.000Z"));
    expect(
      dataOf(await postResult(t, "s-warm", { status: "finished", winningOutcome: "draw" })).settled,
    ).toBe(1);
    t.clock.set(NOW); // back inside the player's 7-day session
    // 40 × 3.4 = 136
    expect(await prediction(e.cookie, id)).toMatchObject({ status: "won", payout: 136 });
    expect(await competitiveSp(4, e.userId)).toBe(136);
    expect(await competitiveSp(3, e.userId)).toBeNull();
  });

  it("voids predictions on a market the result names no winner for, refunding the stake", async () => {
    await putEvent(t, "s-void");
    const f = await newPlayer();
    const over = await placeV1(f.cookie, "s-void", "total", "over", 100);
    const home = await placeV1(f.cookie, "s-void", "1x2", "home", 100);
    t.clock.set(AFTER_MATCH);
    expect(
      dataOf(await postResult(t, "s-void", { status: "finished", winningOutcome: "home" })).settled,
    ).toBe(2);
    expect(await prediction(f.cookie, over)).toMatchObject({ status: "void", payout: 100 }); // stake back
    expect(await prediction(f.cookie, home)).toMatchObject({ status: "won", payout: 215 }); // 100 × 2.15
    // Only the won bet earns SP: 215.
    expect(await competitiveSp(3, f.userId)).toBe(215);
  });

  it("answers the same result again with alreadySettled and changes nothing; a different result is 409", async () => {
    await putEvent(t, "s-again");
    const g = await newPlayer();
    const id = await placeV1(g.cookie, "s-again", "1x2", "away", 100); // @3.1
    t.clock.set(AFTER_MATCH);
    const result = { status: "finished", winningOutcome: "away", winningOutcomes: { total: "under" } };
    expect(dataOf(await postResult(t, "s-again", result)).alreadySettled).toBe(false);
    const before = await prediction(g.cookie, id);
    // 100 × 3.1 = 310
    expect(before).toMatchObject({ status: "won", payout: 310 });

    t.clock.set(new Date(AFTER_MATCH.getTime() + 3600_000));
    const again = dataOf(await postResult(t, "s-again", { ...result, winningOutcomes: { total: "under" } }));
    expect(again).toMatchObject({ settled: 0, alreadySettled: true, event: { status: "finished" } });
    expect(await prediction(g.cookie, id)).toEqual(before); // same settledAt, same payout
    expect(await competitiveSp(3, g.userId)).toBe(310); // counted once

    expectError(
      await postResult(t, "s-again", { status: "finished", winningOutcome: "home" }),
      409,
      "CONFLICT",
    );
    expectError(
      await postResult(t, "s-again", { status: "finished", winningOutcome: "away" }), // drops the total winner
      409,
      "CONFLICT",
    );
    expectError(await postResult(t, "s-again", { status: "cancelled" }), 409, "CONFLICT");
    expect(await prediction(g.cookie, id)).toEqual(before);
    expect(await competitiveSp(3, g.userId)).toBe(310);

    // Its markets and outcomes are fixed now: a PUT dropping the "total" market is 409 (before: 200, and the same
    // result posted again was then a 400, "away is not an outcome of market total"); new odds are taken.
    const onlyTotal = {
      markets: [buildMarket("total", ["over", "Over 2.5", 1.9], ["under", "Under 2.5", 1.9])],
      status: "finished",
    };
    expectError(await putEventRaw("s-again", onlyTotal), 409, "CONFLICT");
    const newOdds = {
      markets: [
        buildMarket("1x2", ["home", "Home", 2.2], ["draw", "Draw", 3.3], ["away", "Away", 3.0]),
        buildMarket("total", ["over", "Over 2.5", 1.8], ["under", "Under 2.5", 2.0]),
      ],
      status: "finished",
    };
    expect((await putEventRaw("s-again", newOdds)).status).toBe(200);
    expect(dataOf(await postResult(t, "s-again", result)).alreadySettled).toBe(true);
    expect(await prediction(g.cookie, id)).toMatchObject({
      status: "won",
      payout: 310,
      settledAt: before.settledAt,
    });
  });

  it("refuses a winner that is not an outcome of its market (400) and leaves the event open", async () => {
    await putEvent(t, "s-bad");
    const h = await newPlayer();
    const id = await placeV1(h.cookie, "s-bad", "1x2", "home", 10);
    // "over" belongs to market "total", not to the first market "1x2".
    expectInvalid(
      await postResult(t, "s-bad", { status: "finished", winningOutcome: "over" }),
      "body.winningOutcome",
    );
    expectInvalid(
      await postResult(t, "s-bad", {
        status: "finished",
        winningOutcome: "home",
        winningOutcomes: { total: "home" },
      }),
      "body.winningOutcomes.total",
    );
    expectInvalid(
      await postResult(t, "s-bad", {
        status: "finished",
        winningOutcome: "home",
        winningOutcomes: { corners: "x" },
      }),
      "body.winningOutcomes.corners",
    );
    expectInvalid(await postResult(t, "s-bad", { status: "finished" }), "body");
    expectInvalid(await postResult(t, "s-bad", { status: "postponed" }), "body");
    expectError(await postResult(t, "s-nope", { status: "cancelled" }), 404, "NOT_FOUND");
    expectInvalid(await postResult(t, "bad id!", { status: "cancelled" }), "params.id");
    expectError(
      await call(t.app, {
        method: "POST",
        url: "/api/admin/events/s-bad/result",
        payload: { status: "cancelled" },
      }),
      401,
      "UNAUTHENTICATED",
    );
    expect(await prediction(h.cookie, id)).toMatchObject({ status: "open", payout: null, settledAt: null });
    const event = await call(t.app, { method: "GET", url: "/api/events/s-bad" });
    expect(dataOf(event).status).toBe("scheduled");
  });
});

describe("posting a cancelled result", () => {
  it("voids every prediction, earns no SP, and the stakes can be claimed back", async () => {
    await putEvent(t, "s-cancel");
    const i = await newPlayer();
    const j = await newPlayer();
    const home = await placeV1(i.cookie, "s-cancel", "1x2", "home", 300);
    const over = await placeV1(i.cookie, "s-cancel", "total", "over", 100);
    const usdc = await placeV2(trusting, j.cookie, "s-cancel", "1x2", "away", "5", 3.1);
    t.clock.set(AFTER_MATCH);
    const res = dataOf(await postResult(t, "s-cancel", { status: "cancelled" }));
    expect(res).toMatchObject({ settled: 3, alreadySettled: false, event: { status: "cancelled" } });
    expect(await prediction(i.cookie, home)).toMatchObject({ status: "void", payout: 300 });
    expect(await prediction(i.cookie, over)).toMatchObject({ status: "void", payout: 100 });
    expect(await prediction(j.cookie, usdc.id)).toMatchObject({ status: "void", payoutUsdc: "5.000000" });
    expect(await competitiveSp(3, i.userId)).toBeNull();
    expect(await competitiveSp(3, j.userId)).toBeNull();

    // 1000 − 300 − 100 = 600; + 300 = 900; + 100 = 1000.
    expect(dataOf(await claim(t, i.cookie, home))).toMatchObject({ payout: 300, balance: 900 });
    expect(dataOf(await claim(t, i.cookie, over))).toMatchObject({ payout: 100, balance: 1000 });
    // A USDC refund leaves the credits alone: 1000.
    expect(dataOf(await claim(t, j.cookie, usdc.id))).toMatchObject({
      payoutUsdc: "5.000000",
      balance: 1000,
    });

    expect(dataOf(await postResult(t, "s-cancel", { status: "cancelled" })).alreadySettled).toBe(true);
    expectError(
      await postResult(t, "s-cancel", { status: "finished", winningOutcome: "home" }),
      409,
      "CONFLICT",
    );
  });
});

describe("claim-payout", () => {
  it("pays a won v1 prediction into the credits balance once; a v2 one answers its USDC amount", async () => {
    await putEvent(t, "s-claim");
    await putEvent(t, "s-later"); // stays unsettled
    const k = await newPlayer();
    const won = await placeV1(k.cookie, "s-claim", "1x2", "home", 100); // @2.15
    const lost = await placeV1(k.cookie, "s-claim", "1x2", "away", 50);
    const open = await placeV1(k.cookie, "s-later", "1x2", "home", 50);
    const usdcWon = await placeV2(trusting, k.cookie, "s-claim", "1x2", "home", "10.5", 2.15);
    const usdcPending = await placeV2(t, k.cookie, "s-claim", "1x2", "home", "1", 2.15);
    t.clock.set(AFTER_MATCH);
    dataOf(await postResult(t, "s-claim", { status: "finished", winningOutcome: "home" }));

    const first = await claim(t, k.cookie, won);
    // 1000 − 100 − 50 − 50 = 800 before; + floor(100 × 2.15) = 215 → 1015.
    expect(dataOf(first)).toEqual({
      predictionId: won,
      payout: 215,
      claimedAt: AFTER_MATCH.toISOString(),
      balance: 1015,
    });
    expect(await prediction(k.cookie, won)).toMatchObject({ claimed: true, status: "won" });
    expectError(await claim(t, k.cookie, won), 409, "ALREADY_CLAIMED");

    // 10.5 USDC × 2.15 = 22.575 USDC; the credits stay at 1015.
    expect(dataOf(await claim(t, k.cookie, usdcWon.id))).toEqual({
      predictionId: usdcWon.id,
      payoutUsdc: "22.575000",
      claimedAt: AFTER_MATCH.toISOString(),
      balance: 1015,
    });
    expectError(await claim(t, k.cookie, usdcWon.id), 409, "ALREADY_CLAIMED");

    expectError(await claim(t, k.cookie, lost), 409, "NOT_CLAIMABLE");
    expectError(await claim(t, k.cookie, open), 409, "NOT_CLAIMABLE");
    expectError(await claim(t, k.cookie, usdcPending.id), 409, "NOT_CLAIMABLE");
    expect(await prediction(k.cookie, lost)).toMatchObject({ claimed: false });

    // Credited once: exactly 1015 left to stake.
    await drainBalance(k.cookie, "s-later", 1015);
  });

  it("hides other players' predictions (404) and validates the id", async () => {
    await putEvent(t, "s-owner");
    const owner = await newPlayer();
    const stranger = await newPlayer();
    const id = await placeV1(owner.cookie, "s-owner", "1x2", "home", 100);
    t.clock.set(AFTER_MATCH);
    dataOf(await postResult(t, "s-owner", { status: "finished", winningOutcome: "home" }));

    expectError(await claim(t, stranger.cookie, id), 404, "NOT_FOUND");
    expectError(await claim(t, stranger.cookie, "999999999"), 404, "NOT_FOUND");
    expectError(await claim(t, stranger.cookie, "999999999999999999"), 404, "NOT_FOUND"); // largest accepted id
    // Ids have at most 18 digits, so none can overflow bigint (2^63 − 1 = 9223372036854775807).
    for (const bad of ["abc", "0", "-1", "1.5", "", "99999999999999999999", "9223372036854775807"]) {
      expectInvalid(await claim(t, stranger.cookie, bad), "body.predictionId");
    }
    expectInvalid(await postClaimBody(stranger.cookie, {}), "body.predictionId");
    expectError(
      await call(t.app, {
        method: "POST",
        url: "/api/pred2earn/claim-payout",
        payload: { predictionId: id },
      }),
      401,
      "UNAUTHENTICATED",
    );
    // The stranger's attempt did not claim it: the owner still can. 1000 − 100 + 215 = 1115.
    expect(dataOf(await claim(t, owner.cookie, id))).toMatchObject({ payout: 215, balance: 1115 });
  });

  it("lets exactly one of 20 concurrent claims through and credits once", async () => {
    await putEvent(t, "s-race");
    await putEvent(t, "s-race-later");
    const m = await newPlayer();
    const id = await placeV1(m.cookie, "s-race", "1x2", "home", 100);
    t.clock.set(AFTER_MATCH);
    dataOf(await postResult(t, "s-race", { status: "finished", winningOutcome: "home" }));
    const results = await Promise.all(Array.from({ length: 20 }, () => claim(t, m.cookie, id)));
    const paid = results.filter((r) => r.status === 200);
    expect(paid).toHaveLength(1);
    // 1000 − 100 + 215 = 1115
    expect(paid[0]!.body.data).toMatchObject({ payout: 215, balance: 1115 });
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(19);
    for (const r of refused) expectError(r, 409, "ALREADY_CLAIMED");
    await drainBalance(m.cookie, "s-race-later", 1115);
  });
});

describe("a version-2 bet confirmed after its event settled", () => {
  it("is settled on confirmation, with its SP on the kickoff week's ladder", async () => {
    await putEvent(t, "s-late");
    const n = await newPlayer();
    const pending = await placeV2(t, n.cookie, "s-late", "total", "over", "2", 1.95);
    expect(pending.status).toBe("pending");
    t.clock.set(AFTER_MATCH);
    const res = dataOf(
      await postResult(t, "s-late", {
        status: "finished",
        winningOutcome: "home",
        winningOutcomes: { total: "over" },
      }),
    );
    expect(res.settled).toBe(0); // the pending bet is not open yet
    expect(await prediction(n.cookie, pending.id)).toMatchObject({ status: "pending", payoutUsdc: null });

    const deps = trustBetDeps(t);
    const row = (await findPrediction(t.database.db, BigInt(pending.id)))!;
    const walletLower = n.wallet.toLowerCase();
    expect((await verifyPendingBet(deps, row, walletLower)).status).toBe("won");
    // Announced once, in USDC: 2 × 1.95 = 3.900000 (issue 23's outbox).
    const announced = await t.database.db.execute(
      sql`select payload, user_id::text as user_id from domain_events
          where type = 'prediction.settled' and payload->>'predictionId' = ${pending.id}`,
    );
    expect((announced as unknown as { rows: unknown[] }).rows).toEqual([
      {
        payload: {
          predictionId: pending.id,
          userId: n.userId,
          eventId: "s-late",
          status: "won",
          payoutUsdc: "3.900000",
        },
        user_id: n.userId,
      },
    ]);
    // Asking again changes nothing.
    expect((await verifyPendingBet(deps, row, walletLower)).status).toBe("won");

    // 2 USDC × 1.95 = 3.9 USDC; SP = 2 × 100 × 1.95 = 390.
    expect(await prediction(n.cookie, pending.id)).toMatchObject({
      status: "won",
      payoutUsdc: "3.900000",
      settledAt: AFTER_MATCH.toISOString(),
    });
    expect(await competitiveSp(3, n.userId)).toBe(390);
    expect(dataOf(await claim(t, n.cookie, pending.id))).toMatchObject({ payoutUsdc: "3.900000" });
  });
});

/** A claim with an arbitrary body. */
function postClaimBody(cookie: string, payload: unknown) {
  return call(t.app, {
    method: "POST",
    url: "/api/pred2earn/claim-payout",
    headers: { cookie },
    payload: payload as object,
  });
}
