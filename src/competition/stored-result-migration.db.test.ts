/**
 * Migration 0007: a finalized week stored by an earlier version (the finalize answer as the API formatted it)
 * becomes domain data, and is served exactly as before. The row below is what that version stored for a week-1
 * finalize with a pool of 100.000003 USDC (incentive and fees): rank 1 gets floor(35 %) = 35.000001, ranks 2 (two
 * players) 30 % / 2 = 15.000000 each, rank 4 10.000000, rank 5 5.000000; distributed 80.000001, undistributed
 * 20.000002.
 */
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, FINALIZE, type TestApp } from "../../test/app.js";
import { addSp, getData, NO_RATE_LIMITS, player } from "../../test/competition-api.js";
import { rows } from "../db/client.js";

const MIGRATION = readFileSync(
  new URL("../db/migrations/0007_finalize_result_domain.sql", import.meta.url),
  "utf8",
);

let t: TestApp;
const wallets = [1, 2, 3, 4, 5].map((i) => player(i).wallet);
let ids: string[] = [];

/** The week-1 finalize answer of the earlier version, without `alreadyFinalized` (it was stored as served). */
const oldResult = () => ({
  week: 1,
  finalizedAt: "2026-11-17T00:00:00.000Z",
  qualification: { participants: 40, cutoffSp: 120, qualifiers: 26 },
  champions: { enabled: true, participants: 12, cutoffSp: 300, retained: 11 },
  prizes: [
    [1, 0, 900, 35, 1, "35.000001"],
    [2, 1, 800, 30, 2, "15.000000"],
    [2, 2, 800, 30, 2, "15.000000"],
    [4, 3, 700, 10, 1, "10.000000"],
    [5, 4, 600, 5, 1, "5.000000"],
  ].map(([rank, who, competitiveSp, rankPct, splitAmong, amountUsdc]) => ({
    rank,
    userId: ids[who as number],
    wallet: wallets[who as number],
    competitiveSp,
    rankPct,
    splitAmong,
    amountUsdc,
  })),
  pool: { estimatedUsdc: "100.000003", distributedUsdc: "80.000001", undistributedUsdc: "20.000002" },
  nextWeekEligible: 30,
});

const storedResult = async () =>
  (
    await rows<{ result: unknown }>(t.database.db, sql`select result from competition_weeks where week = 1`)
  )[0]!.result;

beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  ids = [];
  for (const wallet of wallets) ids.push(await addSp(t, { wallet, type: "RAFFLE", amount: 1 }));
  await t.database.db.execute(
    sql`insert into competition_weeks (week, finalized_at, pool_micro, result)
        values (1, ${new Date("2026-11-17T00:00:00.000Z")}, 100000003, ${JSON.stringify(oldResult())}::jsonb)`,
  );
  await t.database.db.execute(sql.raw(MIGRATION));
});
afterAll(async () => t.close());

describe("migration 0006: finalized results become domain data", () => {
  it("stores micro-USDC and user ids, nothing the columns or the users table already hold", async () => {
    expect(await storedResult()).toEqual({
      qualification: { participants: 40, cutoffSp: 120, qualifiers: 26 },
      champions: { enabled: true, participants: 12, cutoffSp: 300, retained: 11 },
      prizes: [
        { rank: 1, userId: ids[0], sp: 900, rankPct: 35, splitAmong: 1, amountMicro: "35000001" },
        { rank: 2, userId: ids[1], sp: 800, rankPct: 30, splitAmong: 2, amountMicro: "15000000" },
        { rank: 2, userId: ids[2], sp: 800, rankPct: 30, splitAmong: 2, amountMicro: "15000000" },
        { rank: 4, userId: ids[3], sp: 700, rankPct: 10, splitAmong: 1, amountMicro: "10000000" },
        { rank: 5, userId: ids[4], sp: 600, rankPct: 5, splitAmong: 1, amountMicro: "5000000" },
      ],
      pool: { distributedMicro: "80000001", undistributedMicro: "20000002" },
      nextWeekEligible: 30,
    });
  });

  it("serves the migrated week's finalize answer exactly as the earlier version did", async () => {
    const res = await call(t.app, {
      method: "POST",
      url: "/api/competition/finalize?week=1",
      headers: FINALIZE,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ ...oldResult(), alreadyFinalized: true });
  });

  it("reads the ladder totals and cutoff lines of the migrated week", async () => {
    const qualification = await getData(t, "/api/competition/leaderboard?week=1");
    expect(qualification).toMatchObject({ provisional: false, total: 40, cutoffSp: 120, rows: [] });
    const champions = await getData(t, "/api/competition/leaderboard?week=1&type=champions");
    expect(champions).toMatchObject({ provisional: false, total: 12, cutoffSp: 300, rows: [] });
  });

  it("changes nothing when it runs again", async () => {
    const before = await storedResult();
    await t.database.db.execute(sql.raw(MIGRATION));
    expect(await storedResult()).toEqual(before);
  });
});
