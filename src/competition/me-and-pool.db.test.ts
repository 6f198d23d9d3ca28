/**
 * GET /api/competition/me, /prize-pool-estimate and /meta over HTTP (SPEC §2, §4, §5, §8). Nothing is finalized
 * until the last test, so eligibility is derived live from the previous week.
 *
 * Season of the test config: week 0 = [Mon 2026-11-02, Tue 2026-11-10), week 1 = [11-10, 11-17),
 * week 2 = [11-17, 11-24), week 3 = [11-24, 12-01). PROTOCOL_INCENTIVE_USDC = 12.345678. The clock is at
 * Fri 2026-11-20 12:00 UTC (week 2 live) unless a test moves it and puts it back.
 *
 * Players: A, B, C (they sign in), D (signs in, never plays), fillers F1..F23 and G1..G24.
 * - Week 0 (event m-w0, Thu 2026-11-05): A 1000, B 900, F1..F23 800, C 100.
 *   Ranks: A 1, B 2, F 3 (positions 3..25), C 26 → eligible for Champions week 1: A, B, F1..F23.
 * - Week 1 (event m-w1, Thu 2026-11-12): G1..G24 2000, A 1500, B 1000, F1 100, C 50.
 *   Qualification: G 1 (positions 1..24), A 25, B 26, F1 27, C 28. Champions: A 1, B 2, F1 3.
 *   → eligible for week 2: G1..G24 and A via Qualification; B and F1 via Champions (ranks ≤ 10).
 * - Week 2 (event m-w2, Thu 2026-11-19): B 300, C 10. Qualification: B 1, C 2. Champions: B 1.
 * - Protocol fees (USDC): 1000 at 2026-11-01T23:59:59.999Z (pre-season); 10 at 2026-11-02T00:00:00.000Z and
 *   5.25 at 2026-11-09T23:59:59.999Z (week 0); 7 at 2026-11-10T00:00:00.000Z and 3 at 2026-11-16T23:59:59.999Z
 *   (week 1); 100 at 2026-11-17T00:00:00.000Z, 40 at 2026-11-20T12:00:00.000Z (= now) and 50 at
 *   2026-11-22T08:00:00.000Z (after now) (week 2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, FINALIZE, signIn, type TestApp } from "../../test/app.js";
import {
  addFee,
  addSp,
  expectValidationFailed,
  get,
  getData,
  NO_RATE_LIMITS,
  player,
  putEvent,
  setNow,
} from "../../test/competition-api.js";

let t: TestApp;
const NOW = "2026-11-20T12:00:00.000Z"; // Fri, week 2

const A = player(1);
const B = player(2);
const C = player(3);
const D = player(4);
const F = (i: number) => player(100 + i);
const G = (i: number) => player(200 + i);
const cookie = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, PROTOCOL_INCENTIVE_USDC: "12.345678" } });
  await putEvent(t, "m-w0", "2026-11-05T18:00:00.000Z");
  await putEvent(t, "m-w1", "2026-11-12T18:00:00.000Z");
  await putEvent(t, "m-w2", "2026-11-19T18:00:00.000Z");
  const add = (p: { wallet: string }, amount: number, eventId: string) =>
    addSp(t, { wallet: p.wallet, type: "PREDICTION", amount, eventId });

  await add(A, 1000, "m-w0");
  await add(B, 900, "m-w0");
  for (let i = 1; i <= 23; i++) await add(F(i), 800, "m-w0");
  await add(C, 100, "m-w0");

  for (let i = 1; i <= 24; i++) await add(G(i), 2000, "m-w1");
  await add(A, 1500, "m-w1");
  await add(B, 1000, "m-w1");
  await add(F(1), 100, "m-w1");
  await add(C, 50, "m-w1");

  await add(B, 300, "m-w2");
  await add(C, 10, "m-w2");

  await addFee(t, "1000", "2026-11-01T23:59:59.999Z");
  await addFee(t, "10", "2026-11-02T00:00:00.000Z");
  await addFee(t, "5.25", "2026-11-09T23:59:59.999Z");
  await addFee(t, "7", "2026-11-10T00:00:00.000Z");
  await addFee(t, "3", "2026-11-16T23:59:59.999Z");
  await addFee(t, "100", "2026-11-17T00:00:00.000Z");
  await addFee(t, "40", "2026-11-20T12:00:00.000Z");
  await addFee(t, "50", "2026-11-22T08:00:00.000Z");

  for (const p of [A, B, C, D]) cookie.set(p.wallet, (await signIn(t, p.key)).cookie);
});
afterAll(async () => t.close());

const me = (p: { wallet: string }, query = "") =>
  getData(t, `/api/competition/me${query}`, cookie.get(p.wallet));
const pool = (query = "") => getData(t, `/api/competition/prize-pool-estimate${query}`);

describe("GET /api/competition/me: sign-in", () => {
  it("answers 401 when signed out, and for a tampered or garbage session cookie", async () => {
    const valid = cookie.get(A.wallet)!;
    // Flip the first character of the JWT signature. (Not the last: its low bits are base64 padding, so "A" and
    // "B" there decode to the same signature bytes and the token stays valid.)
    const dot = valid.lastIndexOf(".") + 1;
    const tampered = `${valid.slice(0, dot)}${valid[dot] === "A" ? "g" : "A"}${valid.slice(dot + 1)}`;
    // Claim another user id (B's, A's + 1) in the payload but keep A's signature.
    const [header, payload, signature] = valid.slice("session=".length).split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const otherSub = String(BigInt(claims.sub) + 1n);
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: otherSub })).toString("base64url");
    const forged = `session=${header}.${forgedPayload}.${signature}`;
    for (const c of [undefined, tampered, forged, "session=abc", "session="]) {
      const res = await get(t, "/api/competition/me", c);
      expect(res.status, String(c)).toBe(401);
      expect(res.body).toMatchObject({ success: false, status: 401, code: "UNAUTHENTICATED" });
    }
    expect((await get(t, "/api/competition/me", valid)).status).toBe(200);
  });

  it("validates its optional week like the other competition reads", async () => {
    const c = cookie.get(A.wallet);
    expectValidationFailed(await get(t, "/api/competition/me?week=-1", c), "query.week");
    expectValidationFailed(await get(t, "/api/competition/me?week=2.5", c), "query.week");
    expectValidationFailed(await get(t, "/api/competition/me?type=champions", c), "query.type");
  });
});

describe("GET /api/competition/me: the three blocks", () => {
  it("week 1, a qualified player who also leads Champions: A", async () => {
    // Pool of week 1 = week-0 fees [11-02, 11-10) + subsidy = 10 + 5.25 + 12.345678 = 27.595678 USDC.
    // A is Champions rank 1: floor(27595678 × 35 / 100) = floor(9658487.3) = 9658487 micro.
    expect(await me(A, "?week=1")).toEqual({
      week: 1,
      label: "Week 1",
      provisional: true,
      qualification: { rank: 25, competitiveSp: 1500, withinCutoff: true }, // 24 G above: rank 25
      champions: {
        enabled: true,
        eligible: true,
        eligibleVia: "qualification", // week-0 rank 1
        rank: 1,
        competitiveSp: 1500,
        withinCutoff: true,
        prizeUsdc: "9.658487",
      },
      nextWeek: { week: 2, eligible: true, via: "qualification" }, // week-1 Qualification rank 25 ≤ 25
      prizeClaim: null,
    });
  });

  it("week 1, a player outside the Qualification cutoff who is retained via Champions: B", async () => {
    // Champions rank 2: floor(27595678 × 30 / 100) = floor(8278703.4) = 8278703 micro.
    expect(await me(B, "?week=1")).toEqual({
      week: 1,
      label: "Week 1",
      provisional: true,
      qualification: { rank: 26, competitiveSp: 1000, withinCutoff: false }, // 24 G + A above: 26
      champions: {
        enabled: true,
        eligible: true,
        eligibleVia: "qualification", // week-0 rank 2
        rank: 2,
        competitiveSp: 1000,
        withinCutoff: true,
        prizeUsdc: "8.278703",
      },
      nextWeek: { week: 2, eligible: true, via: "champions" }, // Champions rank 2 ≤ 10
      prizeClaim: null,
    });
  });

  it("week 1, an unqualified player: C", async () => {
    expect(await me(C, "?week=1")).toEqual({
      week: 1,
      label: "Week 1",
      provisional: true,
      qualification: { rank: 28, competitiveSp: 50, withinCutoff: false }, // 24 G, A, B, F1 above: 28
      // Week-0 rank 26 > 25: not eligible for Champions week 1, so no Champions rank or prize.
      champions: {
        enabled: true,
        eligible: false,
        eligibleVia: null,
        rank: null,
        competitiveSp: 50,
        withinCutoff: false,
        prizeUsdc: null,
      },
      nextWeek: { week: 2, eligible: false, via: null },
      prizeClaim: null,
    });
  });

  it("the current week when week is omitted (week 2), for B, A, C and a player without SP", async () => {
    // Pool of week 2 = week-1 fees [11-10, 11-17) + subsidy = 7 + 3 + 12.345678 = 22.345678 USDC.
    // B is Champions rank 1: floor(22345678 × 35 / 100) = floor(7820987.3) = 7820987 micro.
    expect(await me(B)).toEqual({
      week: 2,
      label: "Week 2",
      provisional: true,
      qualification: { rank: 1, competitiveSp: 300, withinCutoff: true },
      champions: {
        enabled: true,
        eligible: true,
        eligibleVia: "champions",
        rank: 1,
        competitiveSp: 300,
        withinCutoff: true,
        prizeUsdc: "7.820987",
      },
      nextWeek: { week: 3, eligible: true, via: "qualification" },
      prizeClaim: null,
    });
    // A is eligible (week-1 Qualification rank 25) but has no week-2 SP: unranked on both ladders.
    expect(await me(A)).toEqual({
      week: 2,
      label: "Week 2",
      provisional: true,
      qualification: { rank: null, competitiveSp: 0, withinCutoff: false },
      champions: {
        enabled: true,
        eligible: true,
        eligibleVia: "qualification",
        rank: null,
        competitiveSp: 0,
        withinCutoff: false,
        prizeUsdc: null,
      },
      nextWeek: { week: 3, eligible: false, via: null },
      prizeClaim: null,
    });
    // C: Qualification rank 2 of 2 this week, so eligible next week; not eligible this week.
    expect(await me(C)).toMatchObject({
      week: 2,
      qualification: { rank: 2, competitiveSp: 10, withinCutoff: true },
      champions: { eligible: false, eligibleVia: null, rank: null, prizeUsdc: null },
      nextWeek: { week: 3, eligible: true, via: "qualification" },
      prizeClaim: null,
    });
    // D signed in but never played.
    expect(await me(D)).toEqual({
      week: 2,
      label: "Week 2",
      provisional: true,
      qualification: { rank: null, competitiveSp: 0, withinCutoff: false },
      champions: {
        enabled: true,
        eligible: false,
        eligibleVia: null,
        rank: null,
        competitiveSp: 0,
        withinCutoff: false,
        prizeUsdc: null,
      },
      nextWeek: { week: 3, eligible: false, via: null },
      prizeClaim: null,
    });
  });

  it("the opening week: Champions disabled, next week projected from Qualification", async () => {
    expect(await me(A, "?week=0")).toEqual({
      week: 0,
      label: "Opening week",
      provisional: true,
      qualification: { rank: 1, competitiveSp: 1000, withinCutoff: true },
      champions: {
        enabled: false,
        eligible: false,
        eligibleVia: null,
        rank: null,
        competitiveSp: 1000,
        withinCutoff: false,
        prizeUsdc: null,
      },
      nextWeek: { week: 1, eligible: true, via: "qualification" },
      prizeClaim: null,
    });
    // C: 1 + 25 players with more SP (A, B, F1..F23) = rank 26.
    expect(await me(C, "?week=0")).toMatchObject({
      qualification: { rank: 26, competitiveSp: 100, withinCutoff: false },
      nextWeek: { week: 1, eligible: false, via: null },
      prizeClaim: null,
    });
  });
});

describe("GET /api/competition/prize-pool-estimate", () => {
  it("week 0 has no funding week: no fee window, zero fees, only the subsidy", async () => {
    expect(await pool("?week=0")).toEqual({
      estimatedUsdc: "12.345678",
      selectedWeek: 0,
      fundingWeekIndex: null,
      feeWindowStart: null,
      feeWindowEnd: null,
      sources: { protocolFeesWeek: "0.000000", protocolIncentiveUsdc: "12.345678", entries: "0.000000" },
    });
  });

  it("week 1 is funded by week 0's fees: a fee at the window's start counts, one at its end does not", async () => {
    // [Mon 11-02 00:00, Tue 11-10 00:00): 10 (at the start) + 5.25 (last millisecond) = 15.25; the pre-season
    // fee (1 ms before) and the week-1 fee (at the end) are outside. 15.25 + 12.345678 = 27.595678.
    expect(await pool("?week=1")).toEqual({
      estimatedUsdc: "27.595678",
      selectedWeek: 1,
      fundingWeekIndex: 0,
      feeWindowStart: "2026-11-02T00:00:00.000Z",
      feeWindowEnd: "2026-11-10T00:00:00.000Z",
      sources: { protocolFeesWeek: "15.250000", protocolIncentiveUsdc: "12.345678", entries: "0.000000" },
    });
  });

  it("the omitted week is the current week (week 2, funded by week 1)", async () => {
    // [Tue 11-10, Tue 11-17): 7 + 3 = 10; + 12.345678 = 22.345678.
    const expected = {
      estimatedUsdc: "22.345678",
      selectedWeek: 2,
      fundingWeekIndex: 1,
      feeWindowStart: "2026-11-10T00:00:00.000Z",
      feeWindowEnd: "2026-11-17T00:00:00.000Z",
      sources: { protocolFeesWeek: "10.000000", protocolIncentiveUsdc: "12.345678", entries: "0.000000" },
    };
    expect(await pool()).toEqual(expected);
    expect(await pool("?week=2")).toEqual(expected);
  });

  it("next week's estimate counts week 2's fees only up to now, while week 2 is live", async () => {
    // Fri 11-20 12:00: window [Tue 11-17 00:00, now): the 100 at the start; the 40 exactly at now and the 50
    // later are not in yet. 100 + 12.345678 = 112.345678.
    expect(await pool("?week=3")).toEqual({
      estimatedUsdc: "112.345678",
      selectedWeek: 3,
      fundingWeekIndex: 2,
      feeWindowStart: "2026-11-17T00:00:00.000Z",
      feeWindowEnd: "2026-11-20T12:00:00.000Z",
      sources: { protocolFeesWeek: "100.000000", protocolIncentiveUsdc: "12.345678", entries: "0.000000" },
    });
    try {
      // Sun 11-22 08:00:00.000, exactly the 50's instant: 100 + 40 = 140 (the 50 is at the window's end).
      await setNow(t, "2026-11-22T08:00:00.000Z");
      expect(await pool("?week=3")).toMatchObject({
        estimatedUsdc: "152.345678",
        feeWindowEnd: "2026-11-22T08:00:00.000Z",
        sources: { protocolFeesWeek: "140.000000" },
      });
      // One millisecond later it is in: 100 + 40 + 50 = 190.
      await setNow(t, "2026-11-22T08:00:00.001Z");
      expect(await pool("?week=3")).toMatchObject({ estimatedUsdc: "202.345678" });
      // Mon 11-30, in week 3: week 2 has ended, so its window is whole and the omitted week is 3.
      await setNow(t, "2026-11-30T09:00:00.000Z");
      expect(await pool()).toEqual({
        estimatedUsdc: "202.345678",
        selectedWeek: 3,
        fundingWeekIndex: 2,
        feeWindowStart: "2026-11-17T00:00:00.000Z",
        feeWindowEnd: "2026-11-24T00:00:00.000Z",
        sources: { protocolFeesWeek: "190.000000", protocolIncentiveUsdc: "12.345678", entries: "0.000000" },
      });
    } finally {
      await setNow(t, NOW);
    }
  });

  it("a week whose funding week has not started has an empty window", async () => {
    // Week 4 is funded by week 3 = [Tue 11-24, …), which starts after now: [11-24, max(11-24, now)) is empty.
    expect(await pool("?week=4")).toEqual({
      estimatedUsdc: "12.345678",
      selectedWeek: 4,
      fundingWeekIndex: 3,
      feeWindowStart: "2026-11-24T00:00:00.000Z",
      feeWindowEnd: "2026-11-24T00:00:00.000Z",
      sources: { protocolFeesWeek: "0.000000", protocolIncentiveUsdc: "12.345678", entries: "0.000000" },
    });
  });

  it("is the pool the Champions ladder's prizes split", async () => {
    // Week 1: 27.595678 → rank 1 35% = 9.658487(3), rank 2 30% = 8.278703(4), rank 3 20% = 5.519135(6).
    const week1 = await getData(t, "/api/competition/leaderboard?week=1&type=champions");
    expect(week1.rows.map((r: any) => [r.rank, r.competitiveSp, r.prizeUsdc])).toEqual([
      [1, 1500, "9.658487"],
      [2, 1000, "8.278703"],
      [3, 100, "5.519135"],
    ]);
    // Week 2: 22.345678 → rank 1 35% = 7.820987(3).
    const week2 = await getData(t, "/api/competition/leaderboard?week=2&type=champions");
    expect(week2.rows.map((r: any) => [r.rank, r.competitiveSp, r.prizeUsdc])).toEqual([
      [1, 300, "7.820987"],
    ]);
    // The same numbers, derived from the estimate endpoint: floor(pool × pct / 100) per rank.
    for (const [week, rows] of [
      [1, week1.rows],
      [2, week2.rows],
    ] as const) {
      const micro = BigInt((await pool(`?week=${week}`)).estimatedUsdc.replace(".", ""));
      const pct = [35n, 30n, 20n, 10n, 5n];
      for (const r of rows) {
        const share = (micro * pct[r.rank - 1]!) / 100n;
        expect(r.prizeUsdc).toBe(`${share / 1_000_000n}.${String(share % 1_000_000n).padStart(6, "0")}`);
      }
    }
  });

  it("rejects a malformed week with 400", async () => {
    for (const q of ["week=-1", "week=1.5", "week=x", "week=100001"]) {
      expectValidationFailed(await get(t, `/api/competition/prize-pool-estimate?${q}`), "query.week");
    }
    expectValidationFailed(await get(t, "/api/competition/prize-pool-estimate?weeks=1"), "query.weeks");
  });
});

describe("GET /api/competition/meta", () => {
  const CONSTANTS = {
    qualificationCutoff: 25,
    championsCutoff: 10,
    paidRanks: 5,
    prizeSplitPct: [35, 30, 20, 10, 5],
    weekLengthDays: 7,
  };
  const rail = (week: number, status: string) => {
    const starts = ["2026-11-02", "2026-11-10", "2026-11-17", "2026-11-24", "2026-12-01"];
    return {
      week,
      label: week === 0 ? "Opening week" : `Week ${week}`,
      startsAt: `${starts[week]}T00:00:00.000Z`,
      endsAt: `${starts[week + 1]}T00:00:00.000Z`,
      status,
      provisional: status !== "finalized",
      championsEnabled: week >= 1,
    };
  };

  it("in week 2: the rail runs from week 0 to week 3 with a countdown to the end of week 2", async () => {
    expect(await getData(t, "/api/competition/meta")).toEqual({
      now: NOW,
      currentWeek: 2,
      seasonStarted: true,
      championsEnabled: true,
      // Fri 11-20 12:00 → Tue 11-24 00:00 = 3.5 days = 84 h × 3600 = 302400 s.
      countdown: { endsAt: "2026-11-24T00:00:00.000Z", secondsRemaining: 302_400 },
      constants: CONSTANTS,
      weeks: [rail(0, "ended"), rail(1, "ended"), rail(2, "live"), rail(3, "upcoming")],
    });
  });

  it("before the season, at a week boundary, and half a second before a week ends", async () => {
    try {
      // Sun 2026-11-01 12:00, before the season start: current week 0, upcoming; counting down to its end
      // (Tue 11-10 00:00): 8.5 days = 204 h × 3600 = 734400 s.
      await setNow(t, "2026-11-01T12:00:00.000Z");
      expect(await getData(t, "/api/competition/meta")).toEqual({
        now: "2026-11-01T12:00:00.000Z",
        currentWeek: 0,
        seasonStarted: false,
        championsEnabled: false,
        countdown: { endsAt: "2026-11-10T00:00:00.000Z", secondsRemaining: 734_400 },
        constants: CONSTANTS,
        weeks: [rail(0, "upcoming"), rail(1, "upcoming")],
      });
      // Tue 2026-11-10 00:00:00.000, the first instant of week 1: 7 days = 604800 s to go.
      await setNow(t, "2026-11-10T00:00:00.000Z");
      const boundary = await getData(t, "/api/competition/meta");
      expect(boundary).toMatchObject({
        currentWeek: 1,
        championsEnabled: true,
        countdown: { endsAt: "2026-11-17T00:00:00.000Z", secondsRemaining: 604_800 },
      });
      expect(boundary.weeks).toEqual([rail(0, "ended"), rail(1, "live"), rail(2, "upcoming")]);
      // Mon 2026-11-23 23:59:59.500: half a second left, rounded up to 1.
      await setNow(t, "2026-11-23T23:59:59.500Z");
      expect((await getData(t, "/api/competition/meta")).countdown).toEqual({
        endsAt: "2026-11-24T00:00:00.000Z",
        secondsRemaining: 1,
      });
    } finally {
      await setNow(t, NOW);
    }
  });

  it("shows a finalized week as finalized and no longer provisional (runs last: it finalizes week 0)", async () => {
    const res = await call(t.app, {
      method: "POST",
      url: "/api/competition/finalize?week=0",
      headers: FINALIZE,
    });
    expect(res.status).toBe(200);
    // Eligibility for week 1 now comes from the stored rows: the same players as derived live.
    expect(res.body.data.nextWeekEligible).toBe(25); // A, B, F1..F23
    const meta = await getData(t, "/api/competition/meta");
    expect(meta.weeks).toEqual([
      rail(0, "finalized"),
      rail(1, "ended"),
      rail(2, "live"),
      rail(3, "upcoming"),
    ]);
    expect((await me(B, "?week=1")).nextWeek).toEqual({ week: 2, eligible: true, via: "champions" });
    expect((await me(A, "?week=0")).provisional).toBe(false);
  });
});
