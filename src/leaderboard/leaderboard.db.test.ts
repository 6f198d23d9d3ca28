/**
 * The general (all-time) leaderboard over HTTP (SPEC §3, §6 General leaderboard, §9): every SP type counts
 * (event-linked or not, negative ADJUSTMENT rows included), "1224" ranks over users with SP > 0 ordered by SP
 * descending then user id, paging with ranks carried across pages, the user row and top points, and validation.
 *
 * One app for the whole file. The ladder is global, so one data set is written once (beforeAll) and the tests only
 * read it; the users they create by signing in have 0 SP and never enter the ranked list.
 */
import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, signIn, type TestApp } from "../../test/app.js";
import {
  addSp,
  byUserId,
  expectValidationFailed,
  get,
  getData,
  NO_RATE_LIMITS,
  player,
  putEvent,
} from "../../test/competition-api.js";
import { expectError } from "../../test/player-api.js";
import { type Db, rows } from "../db/client.js";
import { totalsPage } from "./leaderboard.repository.js";

let t: TestApp;

/** User ids of the data set, by role. */
const id: Record<string, string> = {};
/** The three users tied at 1000 SP, in user id order. */
let tiedAt1000: string[] = [];
/** The two users tied at 50 SP, in user id order. */
let tiedAt50: string[] = [];

// Player indexes (wallets) of the data set: A..G and H1..H6.
const P = { A: 1, B: 2, C: 3, D: 4, E: 5, F: 6, G: 7, H60: 8, H50a: 9, H50b: 10, H30: 11, H20: 12, H10: 13 };

beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  // Week 3 = [Tue 2026-11-24, Tue 2026-12-01): the event-linked rows point at this kickoff.
  await putEvent(t, "alb-e1", "2026-11-25T18:00:00.000Z");
  const w = (k: keyof typeof P) => player(P[k]).wallet;
  // A: 300 (PREDICTION, event) + 500 (REFERRAL) + 200 (RAFFLE) = 1000
  id.A = await addSp(t, { wallet: w("A"), type: "PREDICTION", amount: 300, eventId: "alb-e1" });
  await addSp(t, { wallet: w("A"), type: "REFERRAL", amount: 500 });
  await addSp(t, { wallet: w("A"), type: "RAFFLE", amount: 200 });
  // B: 1200 (ONCHAIN_SP, no event) − 200 (ADJUSTMENT) = 1000
  id.B = await addSp(t, { wallet: w("B"), type: "ONCHAIN_SP", amount: 1200 });
  await addSp(t, { wallet: w("B"), type: "ADJUSTMENT", amount: -200 });
  // C: 400 (WARMUP_PREDICTION) + 800 (ONCHAIN_PREDICTION, event) = 1200
  id.C = await addSp(t, { wallet: w("C"), type: "WARMUP_PREDICTION", amount: 400, eventId: "alb-e1" });
  await addSp(t, { wallet: w("C"), type: "ONCHAIN_PREDICTION", amount: 800, eventId: "alb-e1" });
  // D: 1000 (RAFFLE only)
  id.D = await addSp(t, { wallet: w("D"), type: "RAFFLE", amount: 1000 });
  // E: 700 (a positive ADJUSTMENT with an event)
  id.E = await addSp(t, { wallet: w("E"), type: "ADJUSTMENT", amount: 700, eventId: "alb-e1" });
  // F: 500 (REFERRAL only)
  id.F = await addSp(t, { wallet: w("F"), type: "REFERRAL", amount: 500 });
  // G: 300 − 300 = 0: known to the ledger, not ranked
  id.G = await addSp(t, { wallet: w("G"), type: "ADJUSTMENT", amount: 300 });
  await addSp(t, { wallet: w("G"), type: "ADJUSTMENT", amount: -300 });
  // H*: small ONCHAIN_SP totals, two of them tied at 50
  const small: Array<[keyof typeof P, number]> = [
    ["H60", 60],
    ["H50a", 50],
    ["H50b", 50],
    ["H30", 30],
    ["H20", 20],
    ["H10", 10],
  ];
  for (const [k, amount] of small) id[k] = await addSp(t, { wallet: w(k), type: "ONCHAIN_SP", amount });

  // Replaying a feed row (same externalId) answers 200 with the first row and counts once.
  const replay = {
    wallet: w("H10"),
    type: "ONCHAIN_SP",
    amount: 999,
    externalId: "alb-replayed",
  };
  const first = await call(t.app, {
    method: "POST",
    url: "/api/admin/sp-transactions",
    headers: ADMIN,
    payload: replay,
  });
  expect(first.status).toBe(201);
  const again = await call(t.app, {
    method: "POST",
    url: "/api/admin/sp-transactions",
    headers: ADMIN,
    payload: { ...replay, amount: 5 },
  });
  expect(again.status).toBe(200);
  expect(again.body.data).toMatchObject({ amount: 999, externalId: "alb-replayed" });
  // …and is taken back so H10 stays at 10: 10 + 999 − 999 = 10.
  await addSp(t, { wallet: w("H10"), type: "ADJUSTMENT", amount: -999 });

  tiedAt1000 = [id.A!, id.B!, id.D!].sort(byUserId);
  tiedAt50 = [id.H50a!, id.H50b!].sort(byUserId);
});
afterAll(async () => t.close());

/** [rank, userId, totalSp] of each row. */
const triples = (rows: Array<{ rank: number; userId: string; totalSp: number }>) =>
  rows.map((r) => [r.rank, r.userId, r.totalSp]);

/**
 * The whole expected ladder: rank = 1 + number of users with strictly more SP.
 *   1200 → 1; 1000 ×3 → 1 + 1 = 2; 700 → 1 + 4 = 5; 500 → 6; 60 → 7; 50 ×2 → 8; 30 → 1 + 9 = 10; 20 → 11; 10 → 12.
 * G (0 SP) is not ranked.
 */
const fullLadder = () => [
  [1, id.C, 1200],
  ...tiedAt1000.map((u) => [2, u, 1000]),
  [5, id.E, 700],
  [6, id.F, 500],
  [7, id.H60, 60],
  ...tiedAt50.map((u) => [8, u, 50]),
  [10, id.H30, 30],
  [11, id.H20, 20],
  [12, id.H10, 10],
];

describe("GET /api/leaderboard", () => {
  it("sums every SP type, ranks 1224 with ties by user id, and leaves 0-SP users out", async () => {
    const data = await getData(t, "/api/leaderboard");
    expect(data).toMatchObject({ total: 12, offset: 0, limit: 50 }); // 13 users with rows, G has 0 SP
    expect(triples(data.rows)).toEqual(fullLadder());
    expect(data.rows.map((r: { userId: string }) => r.userId)).not.toContain(id.G);
    // Wallets are served checksummed; every row has a display name.
    expect(data.rows[0]).toMatchObject({ wallet: player(P.C).wallet, userId: id.C });
    expect(typeof data.rows[0].displayName).toBe("string");
    expect(Object.keys(data.rows[0]).sort()).toEqual(["displayName", "rank", "totalSp", "userId", "wallet"]);
  });

  it("pages with ranks that continue across page boundaries", async () => {
    const all = fullLadder();
    // Offset 2 starts inside the 1000-SP tie: the 2nd and 3rd tied users keep rank 2, E follows at 5.
    const p2 = await getData(t, "/api/leaderboard?offset=2&limit=3");
    expect(p2).toMatchObject({ total: 12, offset: 2, limit: 3 });
    expect(triples(p2.rows)).toEqual(all.slice(2, 5));
    expect(triples(p2.rows).map((r) => r[0])).toEqual([2, 2, 5]);
    // Offset 8 starts on the second user tied at 50 (rank 8), then 30 (10), 20 (11), 10 (12): 4 rows left.
    const p3 = await getData(t, "/api/leaderboard?offset=8&limit=5");
    expect(triples(p3.rows)).toEqual([
      [8, tiedAt50[1], 50],
      [10, id.H30, 30],
      [11, id.H20, 20],
      [12, id.H10, 10],
    ]);
    // Past the end: no rows, same total.
    const past = await getData(t, "/api/leaderboard?offset=12&limit=5");
    expect(past).toMatchObject({ total: 12, offset: 12, limit: 5, rows: [] });
    // Walking all pages of 5 gives the same ladder as one page.
    const walked: unknown[] = [];
    for (let offset = 0; offset < 12; offset += 5) {
      walked.push(...triples((await getData(t, `/api/leaderboard?offset=${offset}&limit=5`)).rows));
    }
    expect(walked).toEqual(all);
  });

  it("refuses a bad limit or offset with 400 naming the field", async () => {
    expectValidationFailed(await get(t, "/api/leaderboard?limit=101"), "query.limit");
    expectValidationFailed(await get(t, "/api/leaderboard?limit=0"), "query.limit");
    expectValidationFailed(await get(t, "/api/leaderboard?limit=2.5"), "query.limit");
    expectValidationFailed(await get(t, "/api/leaderboard?offset=-1"), "query.offset");
    expectValidationFailed(await get(t, "/api/leaderboard?offset=x"), "query.offset");
    // The bounds themselves are fine.
    expect((await getData(t, "/api/leaderboard?limit=100")).rows).toHaveLength(12);
    expect((await getData(t, "/api/leaderboard?limit=1")).rows).toHaveLength(1);
  });
});

describe("GET /api/leaderboard/user-row", () => {
  it("gives a user's row by id, with the rank shared in a tie", async () => {
    const row = await getData(t, `/api/leaderboard/user-row?userId=${id.A}`);
    expect(row).toEqual({
      rank: 2, // 1 + one user (C, 1200) with more
      userId: id.A,
      displayName: expect.any(String),
      wallet: player(P.A).wallet,
      totalSp: 1000, // 300 + 500 + 200
    });
    expect((await getData(t, `/api/leaderboard/user-row?userId=${id.B}`)).rank).toBe(2);
    expect(await getData(t, `/api/leaderboard/user-row?userId=${id.H30}`)).toMatchObject({
      rank: 10,
      totalSp: 30,
    });
  });

  it("gives the signed-in user's row when userId is omitted, 401 when signed out", async () => {
    // C was created by the feed (by wallet); signing in with that wallet finds the same user.
    const c = await signIn(t, player(P.C).key);
    expect(c.userId).toBe(id.C);
    const row = await getData(t, "/api/leaderboard/user-row", c.cookie);
    expect(row).toMatchObject({ rank: 1, userId: id.C, totalSp: 1200 }); // 400 + 800
    expectError(await get(t, "/api/leaderboard/user-row"), 401, "UNAUTHENTICATED");
  });

  it("has rank null for a user at 0 SP (after rows that cancel out, and for a brand-new player)", async () => {
    expect(await getData(t, `/api/leaderboard/user-row?userId=${id.G}`)).toMatchObject({
      rank: null,
      userId: id.G,
      totalSp: 0, // 300 − 300
    });
    const fresh = await signIn(t, player(40).key);
    expect(await getData(t, "/api/leaderboard/user-row", fresh.cookie)).toMatchObject({
      rank: null,
      userId: fresh.userId,
      totalSp: 0,
    });
    // Neither shows up on the ladder.
    expect((await getData(t, "/api/leaderboard")).total).toBe(12);
  });

  it("answers 404 for an unknown user and 400 for a malformed id", async () => {
    expectError(await get(t, "/api/leaderboard/user-row?userId=999999999"), 404, "NOT_FOUND");
    expectValidationFailed(await get(t, "/api/leaderboard/user-row?userId=abc"), "query.userId");
    expectValidationFailed(await get(t, "/api/leaderboard/user-row?userId=0"), "query.userId");
    expectValidationFailed(await get(t, "/api/leaderboard/user-row?userId=-3"), "query.userId");
    expectValidationFailed(
      await get(t, "/api/leaderboard/user-row?userId=99999999999999999999"),
      "query.userId",
    );
    // Ids have at most 18 digits (src/shared/schema-types.ts), so none can overflow bigint: 19 digits is a 400,
    // even below 2^63 − 1 = 9223372036854775807, and never a 500.
    for (const tooLong of ["9223372036854775808", "9223372036854775807", "1000000000000000000"]) {
      expectValidationFailed(await get(t, `/api/leaderboard/user-row?userId=${tooLong}`), "query.userId");
    }
    // The largest accepted id is valid, and unknown.
    expectError(await get(t, "/api/leaderboard/user-row?userId=999999999999999999"), 404, "NOT_FOUND");
  });
});

describe("GET /api/leaderboard/top-points", () => {
  it("gives the first 10 rows by default and `limit` rows when asked", async () => {
    const all = fullLadder();
    const top = await getData(t, "/api/leaderboard/top-points");
    expect(Object.keys(top)).toEqual(["rows"]);
    // The 10th row is H30 at rank 10; the ranks are those of the full ladder.
    expect(triples(top.rows)).toEqual(all.slice(0, 10));
    const top3 = await getData(t, "/api/leaderboard/top-points?limit=3");
    expect(triples(top3.rows)).toEqual([[1, id.C, 1200], ...tiedAt1000.slice(0, 2).map((u) => [2, u, 1000])]);
    // More than there are: every ranked user once.
    expect(triples((await getData(t, "/api/leaderboard/top-points?limit=100")).rows)).toEqual(all);
  });

  it("refuses limit 0 and 101 with 400", async () => {
    expectValidationFailed(await get(t, "/api/leaderboard/top-points?limit=101"), "query.limit");
    expectValidationFailed(await get(t, "/api/leaderboard/top-points?limit=0"), "query.limit");
  });
});

describe("the all-time ladder's SQL", () => {
  /** The plans of the statements `read` runs, with sequential scans priced out as on a large table. */
  async function plansOf(read: (q: Db) => Promise<unknown>): Promise<string[]> {
    const plans: string[] = [];
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explaining = {
        execute: async (query: SQL) => {
          const found = await rows<{ "QUERY PLAN": string }>(tx, sql`explain ${query}`);
          plans.push(found.map((r) => r["QUERY PLAN"]).join("\n"));
          return { rows: [] };
        },
      } as unknown as Db;
      await read(explaining);
    });
    return plans;
  }

  it("reads a page in the totals index's order: no sort of every player", async () => {
    // On the code before, a page ordered by `total_sp desc` (NULLS FIRST) against an index built `desc nulls last`:
    // every request sorted all players with SP (0.5 s at 1M players).
    for (const offset of [0, 5]) {
      const [plan] = await plansOf((q) => totalsPage(q, offset, 3));
      expect(plan).toMatch(/Index (Only )?Scan using user_sp_totals_rank_idx/);
      expect(plan).not.toMatch(/Sort Key: .*total_sp DESC(?! NULLS LAST)/);
      expect(plan).not.toMatch(/Sort Key: .*user_sp_totals\.total_sp/);
    }
  });
});
