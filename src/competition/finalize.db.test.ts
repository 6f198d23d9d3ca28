/**
 * POST /api/competition/finalize over HTTP (SPEC §4, §8): the secret, input validation, the order of weeks, and
 * one season finalized week by week (0 → 1 → 2 → 3) with hand-computed eligibility, prizes and pools.
 *
 * The tests of this file are the steps of that one season and run in order: each finalizes on top of the
 * previous one. Season of the test config: week 0 = [Mon 2026-11-02, Tue 2026-11-10), week 1 = [11-10, 11-17),
 * week 2 = [11-17, 11-24), week 3 = [11-24, 12-01), week 4 = [12-01, 12-08). PROTOCOL_INCENTIVE_USDC = 100.
 *
 * The season's data (written in beforeAll; users are created in this order, so their ids ascend in it):
 * - Week 0 (event f-w0, Thu 2026-11-05): P1..P22 have 1010 − 10·i SP (P1 = 1000 … P22 = 790); P23..P26 500;
 *   P27 400; P28 300. P29 has only a REFERRAL row and P30 only an event-linked ADJUSTMENT: neither counts.
 * - Week 1 (event f-w1, Thu 2026-11-12): Q1..Q24 2000 each; P5 900; P6, P7 800; P8 700; P9 600; P10 500;
 *   P11..P15 400; P16 300; P27 100.
 * - Week 2 (events f-w2, Thu 2026-11-19, and f-w2b, Sat 2026-11-21): P16 600 + 400; P6 300; Q1 200; P1 50.
 * - Week 3 (event f-w3, Wed 2026-11-25): N 500; P1 70.
 * - Protocol fees: 250.500001 on Tue 2026-11-03 10:00 and 49.500000 at 2026-11-09T23:59:59.999Z (week 0);
 *   7.000000 at 2026-11-01T23:59:59.999Z (pre-season); 1000.000000 at 2026-11-10T00:00:00.000Z (week 1);
 *   3.000000 at 2026-11-17T00:00:00.000Z and 0.000001 at 2026-11-23T23:59:59.999Z (week 2).
 */
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, signIn, type TestApp } from "../../test/app.js";
import {
  addFee,
  addSp,
  expectValidationFailed,
  get,
  getData,
  NO_RATE_LIMITS,
  type Player,
  player,
  putEvent,
  setNow,
  tryInsertSnapshotRow,
} from "../../test/competition-api.js";
import { rows, sql } from "../db/client.js";

let t: TestApp;

const P = (i: number): Player => player(i); // P1..P30
const Q = (i: number): Player => player(200 + i); // Q1..Q24
const N = player(300);
/** User ids by wallet, as the admin API reported them. */
const ids = new Map<string, string>();
const id = (p: Player) => ids.get(p.wallet)!;

async function sp(
  p: Player,
  amount: number,
  eventId: string,
  type: "PREDICTION" | "REFERRAL" | "ADJUSTMENT" = "PREDICTION",
) {
  ids.set(p.wallet, await addSp(t, { wallet: p.wallet, type, amount, eventId }));
}

beforeAll(async () => {
  t = await createTestApp({ env: { ...NO_RATE_LIMITS, PROTOCOL_INCENTIVE_USDC: "100" } });
  await putEvent(t, "f-w0", "2026-11-05T18:00:00.000Z");
  await putEvent(t, "f-w1", "2026-11-12T18:00:00.000Z");
  await putEvent(t, "f-w2", "2026-11-19T18:00:00.000Z");
  await putEvent(t, "f-w2b", "2026-11-21T18:00:00.000Z");
  await putEvent(t, "f-w3", "2026-11-25T18:00:00.000Z");

  for (let i = 1; i <= 22; i++) await sp(P(i), 1010 - 10 * i, "f-w0");
  for (let i = 23; i <= 26; i++) await sp(P(i), 500, "f-w0");
  await sp(P(27), 400, "f-w0");
  await sp(P(28), 300, "f-w0");
  ids.set(P(29).wallet, await addSp(t, { wallet: P(29).wallet, type: "REFERRAL", amount: 5000 }));
  await sp(P(30), 5000, "f-w0", "ADJUSTMENT");

  for (let i = 1; i <= 24; i++) await sp(Q(i), 2000, "f-w1");
  for (const [i, amount] of [
    [5, 900],
    [6, 800],
    [7, 800],
    [8, 700],
    [9, 600],
    [10, 500],
    [11, 400],
    [12, 400],
    [13, 400],
    [14, 400],
    [15, 400],
    [16, 300],
    [27, 100],
  ] as const) {
    await sp(P(i), amount, "f-w1");
  }

  await sp(P(16), 600, "f-w2");
  await sp(P(16), 400, "f-w2b");
  await sp(P(6), 300, "f-w2");
  await sp(Q(1), 200, "f-w2");
  await sp(P(1), 50, "f-w2");

  await sp(N, 500, "f-w3");
  await sp(P(1), 70, "f-w3");

  await addFee(t, "250.500001", "2026-11-03T10:00:00.000Z");
  await addFee(t, "49.5", "2026-11-09T23:59:59.999Z");
  await addFee(t, "7", "2026-11-01T23:59:59.999Z");
  await addFee(t, "1000", "2026-11-10T00:00:00.000Z");
  await addFee(t, "3", "2026-11-17T00:00:00.000Z");
  await addFee(t, "0.000001", "2026-11-23T23:59:59.999Z");
});
afterAll(async () => t.close());

const finalize = (week: number | string, headers: Record<string, string> = FINALIZE) =>
  call(t.app, { method: "POST", url: `/api/competition/finalize?week=${week}`, headers });

async function finalizeOk(week: number) {
  const res = await finalize(week);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

const statusOf = async (week: number) =>
  (await getData(t, "/api/competition/meta")).weeks.find((w: { week: number }) => w.week === week);

const prize = (
  p: Player,
  rank: number,
  sp: number,
  rankPct: number,
  splitAmong: number,
  amountUsdc: string,
) => ({
  rank,
  userId: id(p),
  wallet: p.wallet,
  competitiveSp: sp,
  rankPct,
  splitAmong,
  amountUsdc,
});

/** Responses of the first finalize of each week, to compare repeated calls against. */
const first = new Map<number, any>();
/** Session cookies of players signed in on Fri 2026-11-20 (valid 7 days). */
const cookies = new Map<string, string>();

describe("finalize: refusals write nothing", () => {
  it("answers 401 without the secret or with a wrong one, before looking at the week", async () => {
    await setNow(t, "2026-11-20T12:00:00.000Z"); // Fri, week 2: week 0 has ended
    const wrong: Array<Record<string, string>> = [
      {},
      { "x-competition-finalize-secret": "" },
      { "x-competition-finalize-secret": "test-finalize-secreT" },
      { "x-competition-finalize-secret": "test-finalize-secret-and-more" },
      { "x-competition-finalize-secret": "wrong" },
      ADMIN, // the admin token is not the finalize secret
    ];
    for (const headers of wrong) {
      const res = await finalize(0, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.body).toMatchObject({ success: false, status: 401, code: "UNAUTHENTICATED" });
    }
    // A malformed week without the secret is still a 401: strangers learn nothing about the endpoint.
    expect((await finalize("abc", {})).status).toBe(401);

    // Nothing was written: week 0 is "ended", not "finalized", and its ladder is still live.
    expect(await statusOf(0)).toMatchObject({ status: "ended", provisional: true });
    const ladder = await getData(t, "/api/competition/leaderboard?week=0");
    expect(ladder.provisional).toBe(true);
  });

  it("answers 400 VALIDATION_FAILED for a malformed week", async () => {
    for (const week of ["-1", "1.5", "abc", "", "100001"]) {
      expectValidationFailed(await finalize(week), "query.week");
    }
    expectValidationFailed(
      await call(t.app, { method: "POST", url: "/api/competition/finalize", headers: FINALIZE }),
      "query.week",
    );
    expectValidationFailed(await finalize("0&force=1"), "query.force");
    expect(await statusOf(0)).toMatchObject({ status: "ended" });
  });

  it("answers 409 WEEK_NOT_ENDED for the current week, a future week, and until the week's last millisecond", async () => {
    // Fri 2026-11-20 12:00 is in week 2: week 2 is live, week 9 is in the future.
    for (const week of [2, 9]) {
      const res = await finalize(week);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ success: false, status: 409, code: "WEEK_NOT_ENDED" });
    }
    // Mon 2026-11-09 23:59:59.999 is the last millisecond of week 0 (which ends at Tue 2026-11-10 00:00).
    try {
      await setNow(t, "2026-11-09T23:59:59.999Z");
      expect((await finalize(0)).body.code).toBe("WEEK_NOT_ENDED");
    } finally {
      await setNow(t, "2026-11-20T12:00:00.000Z");
    }
    expect(await statusOf(0)).toMatchObject({ status: "ended" });
    expect(await statusOf(2)).toMatchObject({ status: "live" });
  });

  it("answers 409 PREVIOUS_WEEK_NOT_FINALIZED while week W−1 is open", async () => {
    for (const week of [1]) {
      const res = await finalize(week);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ success: false, status: 409, code: "PREVIOUS_WEEK_NOT_FINALIZED" });
    }
    expect(await statusOf(0)).toMatchObject({ status: "ended" });
    expect(await statusOf(1)).toMatchObject({ status: "ended" });
  });
});

describe("finalize: one season, week by week", () => {
  it("week 0: Qualification top 25 plus ties become eligible for Champions week 1; no Champions, no prizes", async () => {
    await setNow(t, "2026-11-20T12:00:00.000Z"); // Fri, week 2
    const liveAroundCutoff = await getData(t, "/api/competition/leaderboard?week=0&offset=21&limit=7");

    const data = await finalizeOk(0);
    first.set(0, data);
    expect(data).toEqual({
      week: 0,
      finalizedAt: "2026-11-20T12:00:00.000Z",
      alreadyFinalized: false,
      // P1..P28 have SP > 0 (P29, P30 only non-counting rows): 28 participants. Position 25 is P25 with 500;
      // P23..P26 share rank 1 + 22 = 23 ≤ 25, so 22 + 4 = 26 qualify.
      qualification: { participants: 28, cutoffSp: 500, qualifiers: 26 },
      champions: { enabled: false, participants: 0, cutoffSp: null, retained: 0 },
      prizes: [],
      // Week 0 has no prior week: fees 0 + the 100 USDC subsidy; nobody is paid in the opening week.
      pool: { estimatedUsdc: "100.000000", distributedUsdc: "0.000000", undistributedUsdc: "100.000000" },
      nextWeekEligible: 26,
    });

    // Served from the snapshot now: same rows as live, no longer provisional.
    const stored = await getData(t, "/api/competition/leaderboard?week=0&offset=21&limit=7");
    expect(stored).toEqual({ ...liveAroundCutoff, provisional: false });
    // Positions 22..28: P22 (790, rank 22), P23..P26 (500, rank 23), P27 (400, rank 27), P28 (300, rank 28).
    expect(stored.rows.map((r: any) => [r.rank, r.userId, r.competitiveSp, r.withinCutoff])).toEqual([
      [22, id(P(22)), 790, true],
      [23, id(P(23)), 500, true],
      [23, id(P(24)), 500, true],
      [23, id(P(25)), 500, true],
      [23, id(P(26)), 500, true],
      [27, id(P(27)), 400, false],
      [28, id(P(28)), 300, false],
    ]);
    expect(stored).toMatchObject({ total: 28, cutoffSp: 500 });
    expect(await statusOf(0)).toMatchObject({ status: "finalized", provisional: false });
  });

  /** Week 1's live Champions ladder, read before week 1 is finalized. */
  let liveChampions1: any;

  it("week 1's live Champions ladder ranks the players eligible from week 0, with projected prizes", async () => {
    liveChampions1 = await getData(t, "/api/competition/leaderboard?week=1&type=champions");
    // Eligible: P1..P26. With week-1 SP: P5..P16 (Q1..Q24 and P27 are not eligible).
    // Ranks: 900 → 1; 800 → 2 (P6, P7); 700 → 4; 600 → 5; 500 → 6; 400 → 7 (P11..P15); 300 → 1 + 11 = 12.
    // Pool of week 1 = week-0 fees [11-02, 11-10) + subsidy = 250.500001 + 49.5 + 100 = 400.000001 USDC
    // (the pre-season fee and the one at 11-10 00:00 are outside). Projected prizes, floored to micro-USDC:
    // 35% → 140.000000(35); 30% / 2 → 60.000000(15) each; 10% → 40.000000(1); 5% → 20.000000(05).
    expect(
      liveChampions1.rows.map((r: any) => [r.rank, r.userId, r.competitiveSp, r.withinCutoff, r.prizeUsdc]),
    ).toEqual([
      [1, id(P(5)), 900, true, "140.000000"],
      [2, id(P(6)), 800, true, "60.000000"],
      [2, id(P(7)), 800, true, "60.000000"],
      [4, id(P(8)), 700, true, "40.000000"],
      [5, id(P(9)), 600, true, "20.000000"],
      [6, id(P(10)), 500, true, null],
      [7, id(P(11)), 400, true, null],
      [7, id(P(12)), 400, true, null],
      [7, id(P(13)), 400, true, null],
      [7, id(P(14)), 400, true, null],
      [7, id(P(15)), 400, true, null], // position 11, tied with the SP at the line
      [12, id(P(16)), 300, false, null],
    ]);
    // Position 10 is P14 with 400.
    expect(liveChampions1).toMatchObject({ provisional: true, total: 12, cutoffRank: 10, cutoffSp: 400 });
  });

  it("week 1: pays the Champions top 5 (tie at rank 2), retains the Champions top 10 plus ties", async () => {
    const data = await finalizeOk(1);
    first.set(1, data);
    expect(data).toEqual({
      week: 1,
      finalizedAt: "2026-11-20T12:00:00.000Z",
      alreadyFinalized: false,
      // Q1..Q24 (2000) fill positions 1..24, P5 (900) is position 25: cutoff 900, exactly 25 qualify.
      // Participants: 24 Q + P5..P16 (12) + P27 = 37.
      qualification: { participants: 37, cutoffSp: 900, qualifiers: 25 },
      // Champions participants P5..P16 = 12; ranks ≤ 10: P5..P15 = 11 (P16 is rank 12).
      champions: { enabled: true, participants: 12, cutoffSp: 400, retained: 11 },
      prizes: [
        prize(P(5), 1, 900, 35, 1, "140.000000"), // floor(400000001 × 35 / 100) = 140000000
        prize(P(6), 2, 800, 30, 2, "60.000000"), // floor(400000001 × 30 / 200) = 60000000
        prize(P(7), 2, 800, 30, 2, "60.000000"),
        prize(P(8), 4, 700, 10, 1, "40.000000"), // floor(400000001 × 10 / 100) = 40000000
        prize(P(9), 5, 600, 5, 1, "20.000000"), // floor(400000001 × 5 / 100) = 20000000
      ],
      // Distributed 140 + 60 + 60 + 40 + 20 = 320; rank 3 is held by nobody, so its 20% (80) stays, plus
      // the rounding dust: 400.000001 − 320 = 80.000001.
      pool: { estimatedUsdc: "400.000001", distributedUsdc: "320.000000", undistributedUsdc: "80.000001" },
      // Week 2: Qualification ranks ≤ 25 (Q1..Q24, P5) + Champions ranks ≤ 10 not already in (P6..P15) = 35.
      nextWeekEligible: 35,
    });

    // The stored Champions ladder is the live one, now final.
    const stored = await getData(t, "/api/competition/leaderboard?week=1&type=champions");
    expect(stored).toEqual({ ...liveChampions1, provisional: false });
    const qualification = await getData(t, "/api/competition/leaderboard?week=1&limit=100");
    expect(qualification).toMatchObject({ provisional: false, total: 37, cutoffSp: 900 });
  });

  it("each finalized week's rows are a partition of their own, keyed as the table: no player or position twice", async () => {
    const db = t.database.db;
    const parts = await rows<{ part: string; ladder: string; n: string }>(
      db,
      sql`select tableoid::regclass::text as part, ladder, count(*)::text as n
          from competition_leaderboard_snapshots group by 1, 2 order by 1, 2`,
    );
    expect(parts).toEqual([
      { part: "competition_leaderboard_snapshots_w0", ladder: "qualification", n: "28" },
      { part: "competition_leaderboard_snapshots_w1", ladder: "champions", n: "12" },
      { part: "competition_leaderboard_snapshots_w1", ladder: "qualification", n: "37" },
    ]);
    const insert = (week: number, position: number, userId: string) =>
      tryInsertSnapshotRow(db, week, position, userId);
    expect(await insert(1, 99, id(P(5)))).toBe("23505"); // P5 is on week 1's Qualification ladder already
    expect(await insert(1, 1, id(N))).toBe("23505"); // position 1 is Q1's
    expect(await insert(0, 1, id(N))).toBe("23505"); // and in week 0 P1's
    expect(await insert(2, 1, id(N))).toBe("23514"); // week 2 is not finalized: no partition takes its rows
  });

  /** Week 1's published prize tree. */
  let tree1: any;

  it("week 1's prize tree: one leaf per paid winner (both rank-2 winners), total 320, rebuildable by anyone", async () => {
    tree1 = await getData(t, "/api/competition/weeks/1/prize-tree");
    expect(tree1).toEqual({
      week: 1,
      root: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      leafEncoding: ["uint256", "address", "uint256"],
      // 140 + 60 + 60 + 40 + 20: the distributed amount; the 80.000001 undistributed stays with the operator.
      totalUsdc: "320.000000",
      totalMicro: "320000000",
      leaves: [
        {
          account: P(5).wallet,
          amountUsdc: "140.000000",
          amountMicro: "140000000",
          carriedUsdc: "0.000000",
          claimed: false,
        },
        {
          account: P(6).wallet,
          amountUsdc: "60.000000",
          amountMicro: "60000000",
          carriedUsdc: "0.000000",
          claimed: false,
        },
        {
          account: P(7).wallet,
          amountUsdc: "60.000000",
          amountMicro: "60000000",
          carriedUsdc: "0.000000",
          claimed: false,
        },
        {
          account: P(8).wallet,
          amountUsdc: "40.000000",
          amountMicro: "40000000",
          carriedUsdc: "0.000000",
          claimed: false,
        },
        {
          account: P(9).wallet,
          amountUsdc: "20.000000",
          amountMicro: "20000000",
          carriedUsdc: "0.000000",
          claimed: false,
        },
      ],
      awaitingWallet: [],
      carried: [],
    });
    // A third party's rebuild from the published leaves alone.
    const values = tree1.leaves.map((l: any) => ["1", l.account, l.amountMicro]);
    expect(StandardMerkleTree.of(values, tree1.leafEncoding).root).toBe(tree1.root);
    // Week 0 has no prizes: no root. Week 2 is live: 409. A malformed week: 400.
    expect(await getData(t, "/api/competition/weeks/0/prize-tree")).toMatchObject({
      root: null,
      totalUsdc: "0.000000",
      leaves: [],
    });
    const live = await get(t, "/api/competition/weeks/2/prize-tree");
    expect(live.status).toBe(409);
    expect(live.body.code).toBe("WEEK_NOT_FINALIZED");
    expectValidationFailed(await get(t, "/api/competition/weeks/x/prize-tree"), "params.week");
    expectValidationFailed(await get(t, "/api/competition/weeks/-1/prize-tree"), "params.week");
  });

  it("week 2's eligibility is week 1's Qualification top 25 or Champions top 10 (as /me shows)", async () => {
    // Still Fri 2026-11-20 12:00 (week 2 live); sessions last 7 days.
    const who: Array<[string, Player, boolean, "qualification" | "champions" | null]> = [
      ["P5: Qualification rank 25 in week 1", P(5), true, "qualification"],
      ["Q1: Qualification rank 1, never eligible before", Q(1), true, "qualification"],
      ["P6: Qualification rank 26, Champions rank 2", P(6), true, "champions"],
      ["P15: Champions rank 7 at position 11", P(15), true, "champions"],
      ["P16: Qualification rank 36, Champions rank 12", P(16), false, null],
      ["P1: eligible for week 1 but no week-1 SP", P(1), false, null],
      ["P27: Qualification rank 37, not eligible for week 1", P(27), false, null],
    ];
    for (const [label, p, eligible, via] of who) {
      const session = await signIn(t, p.key);
      expect(session.userId, label).toBe(id(p));
      cookies.set(p.wallet, session.cookie);
      const me = await getData(t, "/api/competition/me?week=2", session.cookie);
      expect(me.champions, label).toMatchObject({ enabled: true, eligible, eligibleVia: via });
    }

    // P6's finalized week 1, from the snapshot: Qualification rank 26 (1 + 24 + 1), Champions rank 2 with half
    // of rank 2's 30%, and week 2 via the Champions route.
    expect(await getData(t, "/api/competition/me?week=1", cookies.get(P(6).wallet))).toEqual({
      week: 1,
      label: "Week 1",
      provisional: false,
      qualification: { rank: 26, competitiveSp: 800, withinCutoff: false },
      champions: {
        enabled: true,
        eligible: true,
        eligibleVia: "qualification",
        rank: 2,
        competitiveSp: 800,
        withinCutoff: true,
        prizeUsdc: "60.000000",
      },
      nextWeek: { week: 2, eligible: true, via: "champions" },
      // P6's leaf of week 1's prize tree, with its proof under the published root (checked below).
      prizeClaim: {
        week: 1,
        root: tree1.root,
        account: P(6).wallet,
        amountUsdc: "60.000000",
        amountMicro: "60000000",
        proof: expect.any(Array),
        carriedUsdc: "0.000000",
        claimed: false,
        awaitingWallet: false,
        paidInWeek: null,
      },
    });
    const { proof } = (await getData(t, "/api/competition/me?week=1", cookies.get(P(6).wallet))).prizeClaim;
    expect(
      StandardMerkleTree.verify(
        tree1.root,
        ["uint256", "address", "uint256"],
        ["1", P(6).wallet, "60000000"],
        proof,
      ),
    ).toBe(true);
    // Not a winner of week 1 (P16, Champions rank 12): no claim. A week not finalized: none either.
    expect((await getData(t, "/api/competition/me?week=1", cookies.get(P(16).wallet))).prizeClaim).toBeNull();
    expect((await getData(t, "/api/competition/me?week=2", cookies.get(P(6).wallet))).prizeClaim).toBeNull();
  });

  it("week 2: finalized at the first instant after it ends, from the stored week-2 eligibility", async () => {
    await setNow(t, "2026-11-24T00:00:00.000Z"); // Tue, the end of week 2 = the start of week 3
    const data = await finalizeOk(2);
    first.set(2, data);
    expect(data).toEqual({
      week: 2,
      finalizedAt: "2026-11-24T00:00:00.000Z",
      alreadyFinalized: false,
      // P16 600 + 400 = 1000, P6 300, Q1 200, P1 50: four players, all within 25.
      qualification: { participants: 4, cutoffSp: null, qualifiers: 4 },
      // Eligible with SP: P6 (via Champions) and Q1 (via Qualification); P16 and P1 are not eligible.
      champions: { enabled: true, participants: 2, cutoffSp: null, retained: 2 },
      prizes: [
        // Pool = week-1 fees [11-10, 11-17) + 100 = 1000 + 100 = 1100 (the fee at 11-17 00:00 is week 2's).
        prize(P(6), 1, 300, 35, 1, "385.000000"), // 1100 × 35% = 385
        prize(Q(1), 2, 200, 30, 1, "330.000000"), // 1100 × 30% = 330
      ],
      // Ranks 3..5 are held by nobody: 1100 − 715 = 385 undistributed.
      pool: { estimatedUsdc: "1100.000000", distributedUsdc: "715.000000", undistributedUsdc: "385.000000" },
      // Week 3: Qualification ranks ≤ 25 of week 2 = P16, P6, Q1, P1 (the Champions route adds nobody new).
      nextWeekEligible: 4,
    });
  });

  it("serves a finalized week from its snapshot, unchanged by late ledger rows and kickoff moves", async () => {
    // Still Tue 2026-11-24 00:00.
    const qualification = await getData(t, "/api/competition/leaderboard?week=2");
    const champions = await getData(t, "/api/competition/leaderboard?week=2&type=champions");
    const me = await getData(t, "/api/competition/me?week=2", cookies.get(P(6).wallet));
    expect(qualification.rows.map((r: any) => [r.rank, r.userId, r.competitiveSp])).toEqual([
      [1, id(P(16)), 1000],
      [2, id(P(6)), 300],
      [3, id(Q(1)), 200],
      [4, id(P(1)), 50],
    ]);
    expect(champions.rows.map((r: any) => [r.rank, r.userId, r.prizeUsdc])).toEqual([
      [1, id(P(6)), "385.000000"],
      [2, id(Q(1)), "330.000000"],
    ]);
    expect(me).toMatchObject({
      provisional: false,
      qualification: { rank: 2, competitiveSp: 300, withinCutoff: true },
      champions: { eligible: true, eligibleVia: "champions", rank: 1, prizeUsdc: "385.000000" },
      nextWeek: { week: 3, eligible: true, via: "qualification" },
    });

    // Late rows for week-2 events: a new player above everyone, more SP for P6, Q1 and P1.
    await sp(player(400), 5000, "f-w2");
    await sp(P(6), 1000, "f-w2");
    await sp(Q(1), 1, "f-w2");
    await sp(P(1), 900, "f-w2");
    // And f-w2b (P16's 400) moves from week 2 to Thu 2026-12-03 (week 4).
    await putEvent(t, "f-w2b", "2026-12-03T18:00:00.000Z");

    expect(await getData(t, "/api/competition/leaderboard?week=2")).toEqual(qualification);
    expect(await getData(t, "/api/competition/leaderboard?week=2&type=champions")).toEqual(champions);
    expect(await getData(t, "/api/competition/me?week=2", cookies.get(P(6).wallet))).toEqual(me);
    expect(qualification.provisional).toBe(false);
    expect(champions.provisional).toBe(false);
    // The moved SP is live in week 4.
    const week4 = await getData(t, "/api/competition/leaderboard?week=4");
    expect(week4.rows.map((r: any) => [r.rank, r.userId, r.competitiveSp])).toEqual([[1, id(P(16)), 400]]);
    expect(week4.provisional).toBe(true);
  });

  it("a finalized week's pool estimate is the pool frozen at finalize, unchanged by a late fee", async () => {
    // Still Tue 2026-11-24 00:00. A fee recorded now for week 1's window (which funded week 2's pool).
    await addFee(t, "5", "2026-11-12T00:00:00.000Z");
    // Week 2 was finalized with week-1 fees [11-10, 11-17) = 1000 plus the 100 subsidy.
    expect(await getData(t, "/api/competition/prize-pool-estimate?week=2")).toEqual({
      estimatedUsdc: "1100.000000",
      selectedWeek: 2,
      fundingWeekIndex: 1,
      feeWindowStart: "2026-11-10T00:00:00.000Z",
      feeWindowEnd: "2026-11-17T00:00:00.000Z",
      sources: { protocolFeesWeek: "1000.000000", protocolIncentiveUsdc: "100.000000", entries: "0.000000" },
    });
    // The same number as the week's prize card: the pool finalize stored.
    expect(first.get(2).pool.estimatedUsdc).toBe("1100.000000");
    // Week 1: week-0 fees 250.500001 + 49.5 (the pre-season 7 is outside the window) + 100.
    expect(await getData(t, "/api/competition/prize-pool-estimate?week=1")).toMatchObject({
      estimatedUsdc: "400.000001",
      sources: { protocolFeesWeek: "300.000001", protocolIncentiveUsdc: "100.000000" },
    });
  });

  it("finalizing again returns the stored result with alreadyFinalized: true", async () => {
    // The clock has moved on (Tue 2026-11-24); the stored finalizedAt stays.
    for (const week of [0, 1, 2]) {
      const again = await finalizeOk(week);
      expect(again).toEqual({ ...first.get(week), alreadyFinalized: true });
    }
  });

  it("week 3: ten concurrent calls finalize once and all answer the same result", async () => {
    await setNow(t, "2026-12-01T00:00:00.000Z"); // Tue, the end of week 3
    const results = await Promise.all(Array.from({ length: 10 }, () => finalize(3)));
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const bodies = results.map((r) => r.body.data);
    expect(bodies.filter((b) => b.alreadyFinalized === false)).toHaveLength(1);
    const expected = {
      week: 3,
      finalizedAt: "2026-12-01T00:00:00.000Z",
      // N 500, P1 70.
      qualification: { participants: 2, cutoffSp: null, qualifiers: 2 },
      // Eligible for week 3 (stored from week 2): P16, P6, Q1, P1; only P1 has week-3 SP.
      champions: { enabled: true, participants: 1, cutoffSp: null, retained: 1 },
      // Pool = week-2 fees [11-17, 11-24) + 100 = 3 + 0.000001 + 100 = 103.000001;
      // floor(103000001 × 35 / 100) = floor(36050000.35) = 36050000.
      prizes: [prize(P(1), 1, 70, 35, 1, "36.050000")],
      // 103.000001 − 36.05 = 66.950001.
      pool: { estimatedUsdc: "103.000001", distributedUsdc: "36.050000", undistributedUsdc: "66.950001" },
      // Week 4: N and P1 (Qualification ranks 1, 2).
      nextWeekEligible: 2,
    };
    for (const b of bodies) {
      const { alreadyFinalized: _, ...rest } = b;
      expect(rest).toEqual(expected);
    }
    // One snapshot: each player once on each ladder.
    const qualification = await getData(t, "/api/competition/leaderboard?week=3");
    expect(qualification.rows.map((r: any) => [r.rank, r.userId, r.competitiveSp])).toEqual([
      [1, id(N), 500],
      [2, id(P(1)), 70],
    ]);
    const champions = await getData(t, "/api/competition/leaderboard?week=3&type=champions");
    expect(champions.rows.map((r: any) => [r.rank, r.userId, r.prizeUsdc])).toEqual([
      [1, id(P(1)), "36.050000"],
    ]);

    // The rail: weeks 0..3 finalized, week 4 live, week 5 upcoming.
    const meta = await getData(t, "/api/competition/meta");
    expect(meta.weeks.map((w: any) => [w.week, w.status, w.provisional])).toEqual([
      [0, "finalized", false],
      [1, "finalized", false],
      [2, "finalized", false],
      [3, "finalized", false],
      [4, "live", true],
      [5, "upcoming", true],
    ]);
  });
});
