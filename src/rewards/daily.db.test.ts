/**
 * Daily rewards over HTTP (SPEC §6 Daily free credits and Daily raffle, §9 /api/reclaim, /api/daily-raffle, and
 * the admin draw POST /api/admin/raffle/draw {date}): one free-credit claim per UTC day, also under concurrent
 * requests; raffle eligibility (a prediction placed today, UTC); the draw after the day ended, once, with a
 * recorded seed that reproduces the winner, and RAFFLE SP awarded once.
 *
 * One app for the whole file; every test uses its own players, and each draw its own day. The clock stands at
 * Fri 2026-11-20 12:00 UTC unless a test moves it. The event kicks off Sun 2026-12-20, after every bet here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { get, getData, NO_RATE_LIMITS } from "../../test/competition-api.js";
import { buildBetBody } from "../../test/factories.js";
import { bet, betV2, dataOf, expectError, expectInvalid, putEvent, txHash } from "../../test/player-api.js";
import { pickRaffleWinner } from "./raffle-rules.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri
const EVENT = "daily-e1";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: NO_RATE_LIMITS });
  await putEvent(t, EVENT, { kickoffAt: "2026-12-20T15:00:00.000Z" });
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(NOW));

let keys = 500;
const newPlayer = () => signIn(t, testKey(keys++));

const info = async (cookie: string) => getData(t, "/api/reclaim/info", cookie);
const reclaim = (cookie: string) => call(t.app, { method: "POST", url: "/api/reclaim", headers: { cookie } });
const raffle = (cookie?: string) => getData(t, "/api/daily-raffle", cookie);
const draw = (date: string, headers: Record<string, string> = ADMIN) =>
  call(t.app, { method: "POST", url: "/api/admin/raffle/draw", headers, payload: { date } });
const placeBet = async (cookie: string) => dataOf(await bet(t, cookie, buildBetBody(EVENT)), 201);
const totalSp = async (userId: string) =>
  (await getData(t, `/api/leaderboard/user-row?userId=${userId}`)).totalSp as number;

describe("daily free credits", () => {
  it("claims once per UTC day: info, claim, a second claim 409, claimable again from the next midnight", async () => {
    const p = await newPlayer();
    // Before claiming: claimable now.
    expect(await info(p.cookie)).toEqual({
      balance: 1000, // welcome credits
      amount: 1000,
      claimable: true,
      nextClaimAt: "2026-11-20T12:00:00.000Z",
    });
    expect(dataOf(await reclaim(p.cookie))).toEqual({
      amount: 1000,
      balance: 2000, // 1000 + 1000
      nextClaimAt: "2026-11-21T00:00:00.000Z", // the next UTC midnight
    });
    expect(await info(p.cookie)).toEqual({
      balance: 2000,
      amount: 1000,
      claimable: false,
      nextClaimAt: "2026-11-21T00:00:00.000Z",
    });
    const again = await reclaim(p.cookie);
    expectError(again, 409, "ALREADY_CLAIMED");
    expect(again.body.details).toEqual({ nextClaimAt: "2026-11-21T00:00:00.000Z" });

    // Last millisecond of the day: still refused.
    t.clock.set(new Date("2026-11-20T23:59:59.999Z"));
    expectError(await reclaim(p.cookie), 409, "ALREADY_CLAIMED");
    expect((await info(p.cookie)).balance).toBe(2000);

    // Midnight: a new UTC day.
    t.clock.set(new Date("2026-11-21T00:00:00.000Z"));
    expect(await info(p.cookie)).toMatchObject({ claimable: true, nextClaimAt: "2026-11-21T00:00:00.000Z" });
    expect(dataOf(await reclaim(p.cookie))).toEqual({
      amount: 1000,
      balance: 3000, // 2000 + 1000
      nextClaimAt: "2026-11-22T00:00:00.000Z",
    });
    expectError(await reclaim(p.cookie), 409, "ALREADY_CLAIMED");
  });

  it("lets exactly one of 30 concurrent claims through", async () => {
    const p = await newPlayer();
    const answers = await Promise.all(Array.from({ length: 30 }, () => reclaim(p.cookie)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(29);
    for (const a of answers.filter((x) => x.status === 409)) expectError(a, 409, "ALREADY_CLAIMED");
    expect(dataOf(answers.find((a) => a.status === 200)!).balance).toBe(2000);
    // 1000 welcome + 1000 once.
    expect(await info(p.cookie)).toMatchObject({ balance: 2000, claimable: false });
  });

  it("answers 401 signed out", async () => {
    expectError(await get(t, "/api/reclaim/info"), 401, "UNAUTHENTICATED");
    expectError(await call(t.app, { method: "POST", url: "/api/reclaim" }), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/daily-raffle", () => {
  it("is not eligible signed out, and says why", async () => {
    const data = await raffle();
    expect(data).toEqual({
      date: "2026-11-20",
      eligible: false,
      reason: expect.any(String),
      drawAt: "2026-11-21T00:00:00.000Z", // the end of the UTC day
    });
    expect(data.reason.length).toBeGreaterThan(0);
  });

  it("becomes eligible with a prediction placed today (UTC), and not with one from yesterday", async () => {
    const p = await newPlayer();
    const before = await raffle(p.cookie);
    expect(before).toMatchObject({ date: "2026-11-20", eligible: false, drawAt: "2026-11-21T00:00:00.000Z" });
    expect(typeof before.reason).toBe("string");

    await placeBet(p.cookie);
    expect(await raffle(p.cookie)).toEqual({
      date: "2026-11-20",
      eligible: true,
      reason: null,
      drawAt: "2026-11-21T00:00:00.000Z",
    });

    // The next UTC day: yesterday's bet does not enter today's raffle.
    t.clock.set(new Date("2026-11-21T00:00:00.000Z"));
    expect(await raffle(p.cookie)).toMatchObject({
      date: "2026-11-21",
      eligible: false,
      drawAt: "2026-11-22T00:00:00.000Z",
    });

    // A reported v2 bet still pending verification (default verifier) is a prediction placed today too.
    const q = await newPlayer();
    const v2 = await betV2(t, q.cookie, {
      eventId: EVENT,
      market: "1x2",
      outcome: "draw",
      stakeUsdc: "1",
      odds: 3.4,
      txHash: txHash(77),
      chainId: 8453,
    });
    expect(dataOf(v2, 201).prediction.status).toBe("pending");
    expect(await raffle(q.cookie)).toMatchObject({ date: "2026-11-21", eligible: true, reason: null });
  });
});

describe("POST /api/admin/raffle/draw", () => {
  it("is refused before the day ended, then picks the only entrant once and awards RAFFLE SP once", async () => {
    const p = await newPlayer();
    t.clock.set(new Date("2026-11-23T09:00:00.000Z")); // Mon
    await placeBet(p.cookie);

    const early = await draw("2026-11-23");
    expectError(early, 409, "CONFLICT");
    t.clock.set(new Date("2026-11-23T23:59:59.999Z"));
    expectError(await draw("2026-11-23"), 409, "CONFLICT");
    expectError(await draw("2026-11-30"), 409, "CONFLICT"); // a future day
    expect(await totalSp(p.userId)).toBe(0);

    t.clock.set(new Date("2026-11-24T00:00:00.000Z")); // the day has ended
    const first = dataOf(await draw("2026-11-23"));
    expect(first).toEqual({
      date: "2026-11-23",
      seed: expect.stringMatching(/^[0-9a-f]{64}$/),
      eligibleCount: 1,
      winnerUserId: p.userId,
      prizeSp: 1000,
      drawnAt: "2026-11-24T00:00:00.000Z",
      alreadyDrawn: false,
    });
    expect(pickRaffleWinner(first.seed, "2026-11-23", [p.userId])).toBe(p.userId);
    expect(await totalSp(p.userId)).toBe(1000);

    // Drawing again returns the first draw, and awards nothing more.
    t.clock.set(new Date("2026-11-24T08:00:00.000Z"));
    expect(dataOf(await draw("2026-11-23"))).toEqual({ ...first, alreadyDrawn: true });
    expect(await totalSp(p.userId)).toBe(1000);
    // RAFFLE SP is all-time SP only: not on the competition ladder of any week.
    const ladder = await getData(t, "/api/competition/leaderboard?week=3&limit=100");
    expect(ladder.rows.map((r: { userId: string }) => r.userId)).not.toContain(p.userId);
  });

  it("draws once under 5 concurrent calls; the recorded seed reproduces the winner", async () => {
    // Entrants of Thu 2026-11-26: three players; a fourth bet on Wed 11-25 only and is not in the draw.
    const day = "2026-11-26";
    const outsider = await newPlayer();
    t.clock.set(new Date("2026-11-25T22:00:00.000Z"));
    await placeBet(outsider.cookie);
    const entrants = [await newPlayer(), await newPlayer(), await newPlayer()];
    t.clock.set(new Date("2026-11-26T10:00:00.000Z"));
    for (const e of entrants) await placeBet(e.cookie);
    await placeBet(entrants[0]!.cookie); // two bets still make one entry

    t.clock.set(new Date("2026-11-27T00:00:01.000Z"));
    const answers = (await Promise.all(Array.from({ length: 5 }, () => draw(day)))).map((a) => dataOf(a));
    expect(answers.filter((a) => a.alreadyDrawn === false)).toHaveLength(1);
    const first = answers.find((a) => a.alreadyDrawn === false)!;
    for (const a of answers) expect(a).toEqual({ ...first, alreadyDrawn: a.alreadyDrawn });
    expect(first).toMatchObject({ date: day, eligibleCount: 3, prizeSp: 1000 });
    const ids = entrants.map((e) => e.userId);
    expect(ids).toContain(first.winnerUserId);
    // Anyone with the seed and the entrants (any order) recomputes the winner.
    expect(pickRaffleWinner(first.seed, day, [...ids].reverse())).toBe(first.winnerUserId);

    // 1000 RAFFLE SP to the winner, once: the four players together hold exactly 1000.
    const sps = await Promise.all([...ids, outsider.userId].map(totalSp));
    expect(sps.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(await totalSp(first.winnerUserId)).toBe(1000);
    expect(await totalSp(outsider.userId)).toBe(0);
  });

  it("records a day without entrants with no winner", async () => {
    // Thu 2026-11-19: nobody bet that day (every bet here is placed from 11-20 on).
    expect(dataOf(await draw("2026-11-19"))).toMatchObject({
      date: "2026-11-19",
      eligibleCount: 0,
      winnerUserId: null,
      alreadyDrawn: false,
    });
  });

  it("needs the admin token and a valid date", async () => {
    expectError(await draw("2026-11-18", {}), 401, "UNAUTHENTICATED");
    expectInvalid(await draw("2026-13-01"), "body.date");
    expectInvalid(await draw("yesterday"), "body.date");
    // Year 0: JavaScript's Date takes it and the day has ended, but PostgreSQL refuses it (before: a 500).
    expectInvalid(await draw("0000-01-01"), "body.date");
  });
});
