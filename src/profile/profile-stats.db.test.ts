/**
 * GET /api/user/profile-stats over HTTP (SPEC §6 Profile stats, §9): a scripted history of v1 and v2 bets over
 * several events, a redeemed referral and a rival, with every figure computed by hand.
 *
 * One app for the whole file, with CHAIN_VERIFIER=trust so a reported v2 bet opens at once. Season of the test
 * config: week 2 = [Tue 2026-11-17, Tue 2026-11-24), week 3 = [Tue 2026-11-24, Tue 2026-12-01).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { buildBetBody } from "../../test/factories.js";
import {
  bet,
  betV2,
  claim,
  dataOf,
  expectError,
  postResult,
  putEvent,
  txHash,
} from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2: every bet is placed now
const T1 = new Date("2026-11-20T20:00:00.000Z"); // Fri: pf-e1 settles (first)
const T2 = new Date("2026-11-21T10:00:00.000Z"); // Sat: pf-e3 is cancelled (second)
const T3 = new Date("2026-11-21T18:00:00.000Z"); // Sat: pf-e2 settles (third); still week 2

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: { ...NO_RATE_LIMITS, CHAIN_VERIFIER: "trust" } });
});
afterAll(async () => t.close());

const stats = async (cookie: string) =>
  dataOf(await call(t.app, { method: "GET", url: "/api/user/profile-stats", headers: { cookie } }));

/** Places a v1 bet that must succeed; returns the prediction id. */
async function placeV1(cookie: string, eventId: string, market: string, outcome: string, stake: number) {
  return dataOf(await bet(t, cookie, { eventId, market, outcome, stake }), 201).prediction.id as string;
}

describe("GET /api/user/profile-stats", () => {
  it("answers 401 signed out", async () => {
    expectError(await call(t.app, { method: "GET", url: "/api/user/profile-stats" }), 401, "UNAUTHENTICATED");
  });

  it("starts from zero for a new player (welcome credits only)", async () => {
    const fresh = await signIn(t, testKey(90));
    expect(await stats(fresh.cookie)).toEqual({
      user: { id: fresh.userId, displayName: expect.any(String), wallet: fresh.wallet },
      totalSp: 0,
      spByType: {
        PREDICTION: 0,
        WARMUP_PREDICTION: 0,
        ONCHAIN_PREDICTION: 0,
        ONCHAIN_SP: 0,
        REFERRAL: 0,
        RAFFLE: 0,
        ADJUSTMENT: 0,
      },
      predictions: { total: 0, won: 0, lost: 0, pending: 0, void: 0 },
      winRate: 0,
      currentStreak: 0,
      bestStreak: 0,
      creditsBalance: 1000,
      usdcStaked: "0.000000",
      usdcWon: "0.000000",
      allTimeRank: null,
      week: { week: 2, competitiveSp: 0, qualificationRank: null, championsRank: null },
    });
  });

  it("computes every figure of a scripted history", async () => {
    // Events (player-api odds: 1x2 home 2.15 / draw 3.4 / away 3.1; total over 1.95 / under 1.85).
    await putEvent(t, "pf-e1", { kickoffAt: "2026-11-20T18:00:00.000Z" }); // Fri, week 2
    await putEvent(t, "pf-e2", { kickoffAt: "2026-11-21T15:00:00.000Z" }); // Sat, week 2
    await putEvent(t, "pf-e3", { kickoffAt: "2026-11-22T15:00:00.000Z" }); // Sun, week 2; will be cancelled
    await putEvent(t, "pf-e4", { kickoffAt: "2026-11-30T18:00:00.000Z" }); // Mon, week 3; stays open

    const p = await signIn(t, testKey(100));
    const code = dataOf(
      await call(t.app, { method: "GET", url: "/api/referrals", headers: { cookie: p.cookie } }),
    ).code as string;
    const referee = await signIn(t, testKey(101), { referralCode: code });

    // Bets in placement (= id) order; settlement order decides the streaks.
    const b1 = await placeV1(p.cookie, "pf-e1", "1x2", "home", 100); // won: 100 × 2.15 = 215
    await placeV1(p.cookie, "pf-e1", "total", "over", 50); //           won: 50 × 1.95 = 97.5 → 97
    const b3 = await placeV1(p.cookie, "pf-e3", "1x2", "home", 25); //  void (cancelled): refund 25
    await placeV1(p.cookie, "pf-e2", "1x2", "draw", 30); //             won: 30 × 3.4 = 102
    await placeV1(p.cookie, "pf-e2", "1x2", "home", 20); //             lost
    await placeV1(p.cookie, "pf-e2", "1x2", "away", 15); //             lost
    await placeV1(p.cookie, "pf-e2", "total", "under", 10); //          void (no winner of "total"): refund 10
    const v2 = dataOf(
      await betV2(t, p.cookie, {
        eventId: "pf-e2",
        market: "1x2",
        outcome: "draw",
        stakeUsdc: "2.5",
        odds: 3.4,
        txHash: txHash(1),
        chainId: 8453,
      }),
      201,
    ).prediction; // won: pays 2.5 × 3.4 = 8.5 USDC, earns 2.5 × 100 × 3.4 = 850 SP
    expect(v2.status).toBe("open"); // trusted at once
    const last = await bet(t, p.cookie, buildBetBody("pf-e4", { outcome: "away", stake: 5 })); // open
    // Credits: 1000 − (100 + 50 + 25 + 30 + 20 + 15 + 10 + 5 = 255) = 745.
    expect(dataOf(last, 201).balance).toBe(745);
    const v2Open = await betV2(t, p.cookie, {
      eventId: "pf-e4",
      market: "1x2",
      outcome: "home",
      stakeUsdc: "1.25",
      odds: 2.15,
      txHash: txHash(2),
      chainId: 8453,
    }); // open: staked, not yet won
    expect(dataOf(v2Open, 201).prediction.status).toBe("open");
    // The referee's first prediction (lost at T1) makes the referral redeemable.
    await placeV1(referee.cookie, "pf-e1", "1x2", "away", 10);

    t.clock.set(T1);
    expect(
      dataOf(
        await postResult(t, "pf-e1", {
          status: "finished",
          winningOutcome: "home",
          winningOutcomes: { total: "over" },
        }),
      ).settled,
    ).toBe(3); // b1, b2 and the referee's bet
    t.clock.set(T2);
    expect(dataOf(await postResult(t, "pf-e3", { status: "cancelled" })).settled).toBe(1);
    t.clock.set(T3);
    expect(dataOf(await postResult(t, "pf-e2", { status: "finished", winningOutcome: "draw" })).settled).toBe(
      5,
    );

    // Claimed: b1 (215 credits) and the void b3 (25 credits back), and the v2 win (USDC, no credits).
    // b2 (97), b4 (102) and the void under bet (10) stay unclaimed.
    expect(dataOf(await claim(t, p.cookie, b1)).balance).toBe(960); // 745 + 215
    expect(dataOf(await claim(t, p.cookie, b3)).balance).toBe(985); // 960 + 25
    expect(dataOf(await claim(t, p.cookie, v2.id))).toMatchObject({ payoutUsdc: "8.500000", balance: 985 });

    // One REFERRAL row of 500 SP.
    const redeemed = await call(t.app, {
      method: "POST",
      url: "/api/referrals",
      headers: { cookie: p.cookie },
    });
    expect(dataOf(redeemed)).toEqual({ redeemedSp: 500, redeemedCount: 1 });

    // A rival with more SP on the same week and all-time: 2000 ONCHAIN_SP on pf-e1 (week 2).
    const rival = await call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      headers: ADMIN,
      payload: {
        wallet: `0x${"1234".repeat(10)}`,
        type: "ONCHAIN_SP",
        amount: 2000,
        eventId: "pf-e1",
        externalId: "pf-rival",
      },
    });
    expect(rival.status).toBe(201);

    const s = await stats(p.cookie);
    expect(s).toEqual({
      user: { id: p.userId, displayName: expect.any(String), wallet: p.wallet },
      // 414 + 850 + 500
      totalSp: 1764,
      spByType: {
        PREDICTION: 414, // 215 + 97 + 102
        WARMUP_PREDICTION: 0,
        ONCHAIN_PREDICTION: 850, // floor(2.5 × 100 × 3.4)
        ONCHAIN_SP: 0,
        REFERRAL: 500,
        RAFFLE: 0,
        ADJUSTMENT: 0,
      },
      // won: b1, b2, b4, v2; lost: b5, b6; void: b3, under; pending: the two open bets on pf-e4.
      predictions: { total: 10, won: 4, lost: 2, pending: 2, void: 2 },
      winRate: 0.6667, // 4 / (4 + 2) = 0.66666… → 4 decimals
      // Settlement order (settledAt, then id): pf-e1 at T1 → W W; pf-e3 at T2 → void (skipped);
      // pf-e2 at T3 → W L L (void) W. Won/lost sequence W W W L L W: best run 3 (across the skipped void), last 1.
      currentStreak: 1,
      bestStreak: 3,
      creditsBalance: 985, // 1000 welcome − 255 staked + 215 + 25 claimed
      usdcStaked: "3.750000", // 2.5 (won) + 1.25 (open)
      usdcWon: "8.500000", // 2.5 × 3.4, stake included
      allTimeRank: 2, // the rival's 2000 > 1764
      week: {
        week: 2,
        competitiveSp: 1264, // 414 + 850: both events kick off in week 2; REFERRAL never counts
        qualificationRank: 2, // 1 + the rival (2000 > 1264)
        championsRank: null, // no week-1 SP: not eligible for Champions week 2
      },
    });

    // The referee: one lost bet, 0 SP, balance 1000 − 10.
    expect(await stats(referee.cookie)).toMatchObject({
      totalSp: 0,
      predictions: { total: 1, won: 0, lost: 1, pending: 0, void: 0 },
      winRate: 0,
      currentStreak: 0,
      bestStreak: 0,
      creditsBalance: 990,
      allTimeRank: null,
      week: { week: 2, competitiveSp: 0, qualificationRank: null, championsRank: null },
    });

    // Next week (3) the week block follows the clock: nothing of P's kicks off in week 3 yet.
    t.clock.set(new Date("2026-11-24T09:00:00.000Z")); // Tue, week 3
    expect((await stats(p.cookie)).week).toEqual({
      week: 3,
      competitiveSp: 0,
      qualificationRank: null,
      championsRank: null, // Champions week 3 needs qualification rank ≤ 25 in week 2: P is rank 2 → eligible,
      // but with 0 SP P is not ranked on the Champions ladder.
    });
    t.clock.set(NOW);
  });
});
