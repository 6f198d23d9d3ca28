/**
 * The CLI commands against a real database (PGlite or PostgreSQL per TEST_DB), called as functions, with the
 * test configuration (season from Mon 2026-11-02, week 1 from Tue 2026-11-10) and a pinned clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, testConfig } from "../../test/app.js";
import { createTestDatabase, releaseTestDatabase } from "../../test/db.js";
import { buildEventBody } from "../../test/factories.js";
import { AdjustableClock } from "../clock.js";
import { type Database, rows, sql } from "../db/client.js";
import { findEvent } from "../events/events.js";
import { presentEvent } from "../events/presenters.js";
import { listPredictions } from "../predictions/list-predictions.js";
import type { CliContext } from "./cli-context.js";
import {
  eventResultCommand,
  eventUpsertCommand,
  finalizeCommand,
  prizeRootCommand,
  protocolFeeCommand,
  spTransactionCommand,
} from "./commands.js";
import { importEventsCommand } from "./import-events.js";
import { seedDemoCommand } from "./seed-demo.js";

// Fri 2026-11-20 12:00 UTC: weeks 0 and 1 have ended, week 2 is live.
const NOW = new Date("2026-11-20T12:00:00.000Z");

const eventBody = (kickoffAt: string, homeTeam = "Arsenal", awayTeam = "Chelsea") =>
  buildEventBody({ kickoffAt, homeTeam, awayTeam });

async function errorOf(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error("expected the command to fail");
}

async function presented(database: Database, ids: string[]) {
  return Promise.all(ids.map(async (id) => presentEvent((await findEvent(database.db, id))!)));
}

describe("admin commands and import-events", () => {
  let ctx: CliContext;
  let clock: AdjustableClock;

  beforeAll(async () => {
    clock = new AdjustableClock(NOW);
    ctx = { database: await createTestDatabase(), config: testConfig(), clock };
  });
  afterAll(async () => {
    await releaseTestDatabase(ctx.database);
  });

  it("upserts one event, then updates it", async () => {
    const first = await eventUpsertCommand(ctx, { id: "cli-1", body: eventBody("2026-11-21T15:00:00.000Z") });
    expect(first).toMatchObject({ created: true, event: { id: "cli-1", status: "scheduled" } });
    const again = await eventUpsertCommand(ctx, {
      id: "cli-1",
      body: { ...eventBody("2026-11-21T15:00:00.000Z"), status: "live" },
    });
    expect(again).toMatchObject({ created: false, event: { status: "live" } });
    const bad = await errorOf(eventUpsertCommand(ctx, { id: "cli-1", body: { sport: "" } }));
    expect(bad.code).toBe("VALIDATION_FAILED");
    expect(bad.message).toMatch(/event\.sport/);
  });

  it("imports all or nothing, naming the invalid entries by index", async () => {
    const file = [
      { id: "imp-1", ...eventBody("2026-11-22T14:00:00.000Z") },
      { id: "imp-2", ...eventBody("not a date") },
      { id: "imp-3", ...eventBody("2026-11-22T16:30:00.000Z"), markets: [] },
    ];
    const err = await errorOf(importEventsCommand(ctx, file));
    expect(err.code).toBe("VALIDATION_FAILED");
    expect(err.message).toMatch(/^2 of 3 entries are invalid, nothing imported: /);
    expect(err.message).toContain("[1].kickoffAt");
    expect(err.message).toContain("[2].markets");
    expect(await findEvent(ctx.database.db, "imp-1")).toBeNull();
  });

  it("rolls the whole import back when one upsert fails", async () => {
    await eventUpsertCommand(ctx, { id: "settled-1", body: eventBody("2026-11-18T19:45:00.000Z") });
    await eventResultCommand(ctx, { id: "settled-1", body: { status: "finished", winningOutcome: "home" } });
    const file = [
      { id: "imp-roll", ...eventBody("2026-11-22T14:00:00.000Z") },
      // A settled event cannot move: the use case answers CONFLICT after imp-roll was written.
      { id: "settled-1", ...eventBody("2026-11-19T19:45:00.000Z") },
    ];
    expect((await errorOf(importEventsCommand(ctx, file))).code).toBe("CONFLICT");
    expect(await findEvent(ctx.database.db, "imp-roll")).toBeNull();
  });

  it("re-imports the same file without changing anything, the odds update time included", async () => {
    const file = [
      { id: "imp-a", ...eventBody("2026-11-22T14:00:00.000Z") },
      { id: "imp-b", ...eventBody("2026-11-22T16:30:00.000Z", "Liverpool", "Everton"), warmup: true },
    ];
    expect(await importEventsCommand(ctx, file)).toMatchObject({ total: 2, created: 2, updated: 0 });
    const before = await presented(ctx.database, ["imp-a", "imp-b"]);
    const oddsBefore = (await findEvent(ctx.database.db, "imp-a"))!.oddsUpdatedAt;

    clock.set(new Date(NOW.getTime() + 60_000));
    expect(await importEventsCommand(ctx, file)).toMatchObject({ total: 2, created: 0, updated: 2 });
    expect(await presented(ctx.database, ["imp-a", "imp-b"])).toEqual(before);
    // The same odds: their update time stays where they last changed (session 22; it moved on every import).
    expect((await findEvent(ctx.database.db, "imp-a"))!.oddsUpdatedAt.getTime()).toBe(oddsBefore.getTime());
    clock.set(NOW);
  });

  it("records SP transactions and protocol fees idempotently", async () => {
    const wallet = "0x00000000000000000000000000000000000000aa";
    const input = { wallet, type: "ONCHAIN_SP", amount: 250, eventId: "imp-a", externalId: "cli-sp-1" };
    const first = await spTransactionCommand(ctx, input);
    expect(first).toMatchObject({
      created: true,
      row: { type: "ONCHAIN_SP", amount: 250, eventId: "imp-a" },
    });
    const replay = await spTransactionCommand(ctx, { ...input, amount: 999 });
    expect(replay).toEqual({ ...first, created: false });
    const adjust = await spTransactionCommand(ctx, {
      userId: first.row.userId,
      type: "ADJUSTMENT",
      amount: -50,
      externalId: "cli-sp-2",
    });
    expect(adjust.row).toMatchObject({ userId: first.row.userId, amount: -50, eventId: null });
    expect((await errorOf(spTransactionCommand(ctx, { ...input, type: "BONUS" }))).code).toBe(
      "VALIDATION_FAILED",
    );
    expect(
      (await errorOf(spTransactionCommand(ctx, { ...input, externalId: "x", eventId: "nope" }))).code,
    ).toBe("NOT_FOUND");

    const fee = {
      txHash: `0x${"AB".repeat(32)}`,
      logIndex: 3,
      amountUsdc: "12.5",
      occurredAt: "2026-11-18T10:00:00.000Z",
    };
    const stored = await protocolFeeCommand(ctx, fee);
    expect(stored).toEqual({
      created: true,
      fee: {
        txHash: `0x${"ab".repeat(32)}`,
        logIndex: 3,
        amountUsdc: "12.500000",
        occurredAt: fee.occurredAt,
      },
    });
    expect(await protocolFeeCommand(ctx, fee)).toEqual({ ...stored, created: false });
    expect((await errorOf(protocolFeeCommand(ctx, { ...fee, amountUsdc: "1.2345678" }))).code).toBe(
      "VALIDATION_FAILED",
    );
  });

  it("finalizes ended weeks in order", async () => {
    expect((await errorOf(finalizeCommand(ctx, { week: 1 }))).code).toBe("PREVIOUS_WEEK_NOT_FINALIZED");
    expect((await errorOf(finalizeCommand(ctx, { week: 2 }))).code).toBe("WEEK_NOT_ENDED");
    expect(await finalizeCommand(ctx, { week: 0 })).toMatchObject({ week: 0, alreadyFinalized: false });
    expect(await finalizeCommand(ctx, { week: 0 })).toMatchObject({ week: 0, alreadyFinalized: true });
    expect((await errorOf(finalizeCommand(ctx, { week: -1 }))).code).toBe("VALIDATION_FAILED");
  });

  it("prize-root: a finalized week without winners has nothing to publish; a week not finalized is refused", async () => {
    // Week 0 (finalized above) has no Champions ladder, hence no prizes and no root.
    expect(await prizeRootCommand(ctx, { week: 0 })).toEqual({
      week: 0,
      root: null,
      leaves: 0,
      totalMicro: "0",
      totalUsdc: "0.000000",
      awaitingWallet: [],
      distributor: null,
      setRoot: null,
      fund: null,
    });
    expect((await errorOf(prizeRootCommand(ctx, { week: 1 }))).code).toBe("WEEK_NOT_FINALIZED");
    expect((await errorOf(prizeRootCommand(ctx, { week: -1 }))).code).toBe("VALIDATION_FAILED");
  });
});

describe("seed-demo", () => {
  let ctx: CliContext;
  const TABLES = [
    "users",
    "events",
    "predictions",
    "usdc_claims",
    "sp_ledger",
    "week_user_sp",
    "user_sp_totals",
    "protocol_fees",
    "competition_weeks",
    "competition_leaderboard_snapshots",
    "competition_eligibility",
    "credits_ledger",
  ];

  async function counts(): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const t of TABLES) {
      const [r] = await rows<{ n: string }>(ctx.database.db, sql.raw(`select count(*)::text as n from ${t}`));
      out[t] = r!.n;
    }
    const [sums] = await rows<{ sp: string; credits: string; claimed: string }>(
      ctx.database.db,
      sql`select (select coalesce(sum(total_sp), 0) from user_sp_totals)::text as sp,
                 (select coalesce(sum(credits_balance), 0) from users)::text as credits,
                 (select count(*) from predictions where claimed_at is not null)::text as claimed`,
    );
    return { ...out, ...sums! };
  }

  async function countBy(query: ReturnType<typeof sql>): Promise<Record<string, number>> {
    const found = await rows<{ k: string; n: string }>(ctx.database.db, query);
    return Object.fromEntries(found.map((r) => [r.k, Number(r.n)]));
  }

  beforeAll(async () => {
    ctx = { database: await createTestDatabase(), config: testConfig(), clock: new AdjustableClock(NOW) };
  });
  afterAll(async () => {
    await releaseTestDatabase(ctx.database);
  });

  it("seeds a season once; running it again changes no row", { timeout: 180_000 }, async () => {
    const first = await seedDemoCommand(ctx, { players: 40, seed: "cli-test" });
    expect(first.currentWeek).toBe(2);
    expect(first.events.created).toBe(first.events.total);
    expect(first.players.created).toBe(first.players.signedUp);
    expect(first.players.referred).toBeGreaterThan(0);
    expect(first.bets.credits.created).toBe(first.bets.credits.total);
    expect(first.bets.credits.total).toBeGreaterThan(100);
    expect(first.bets.onchain.created).toBe(first.bets.onchain.total);
    expect(first.bets.onchain.total).toBeGreaterThan(0);
    expect(first.bets).toMatchObject({ closed: 0, insufficientCredits: 0 });
    expect(first.bets.leftOpen).toBeGreaterThan(0);
    expect(first.dailyCredits.created).toBe(first.dailyCredits.total);
    expect(first.results.settled).toBe(first.results.total);
    expect(first.payouts.created).toBe(first.payouts.total);
    expect(first.payouts.total).toBeGreaterThan(0);
    expect(first.referrals.redeemed).toBeGreaterThan(0);
    expect(first.spRows.created).toBe(first.spRows.total);
    expect(first.spRows.byType).toEqual({ ONCHAIN_SP: first.spRows.total });
    expect(first.fees.created).toBe(first.fees.total);
    expect(first.finalized.map((f) => [f.week, f.alreadyFinalized])).toEqual([
      [0, false],
      [1, false],
    ]);
    expect(first.finalized[1]!.prizes).toBeGreaterThan(0);
    expect(typeof first.elapsedMs).toBe("number");
    const after1 = await counts();
    expect(Number(after1.users)).toBe(first.players.signedUp);
    expect(Number(after1.predictions)).toBe(first.bets.credits.total + first.bets.onchain.total);

    // The ladders' SP comes from settlement (prediction:<id>), the feed (sp:<pick>) and redeemed referrals.
    const spTypes = await countBy(
      sql`select type || ' ' || split_part(external_id, ':', 1) as k, count(*)::text as n
          from sp_ledger group by 1`,
    );
    expect(Object.keys(spTypes).sort()).toEqual([
      "ONCHAIN_PREDICTION prediction",
      "ONCHAIN_SP sp",
      "PREDICTION prediction",
      "REFERRAL referral",
      "WARMUP_PREDICTION prediction",
    ]);
    expect(spTypes["REFERRAL referral"]).toBe(first.referrals.redeemed);
    // Every bet was placed while its event was open, and settled after kickoff.
    const [late] = await rows<{ placed: string; settled: string }>(
      ctx.database.db,
      sql`select count(*) filter (where p.placed_at >= e.kickoff_at)::text as placed,
                 count(*) filter (where p.settled_at < e.kickoff_at)::text as settled
          from predictions p join events e on e.id = p.event_id`,
    );
    expect(late).toEqual({ placed: "0", settled: "0" });
    const byStatus = await countBy(
      sql`select version || ' ' || status as k, count(*)::text as n from predictions group by 1`,
    );
    expect(byStatus["1 won"]).toBeGreaterThan(0);
    expect(byStatus["1 lost"]).toBeGreaterThan(0);
    expect(byStatus["1 open"]).toBeGreaterThan(0);
    expect(byStatus["1 pending"] ?? 0).toBe(0);
    expect(byStatus["2 pending"] ?? 0).toBe(0);

    const second = await seedDemoCommand(ctx, { players: 40, seed: "cli-test" });
    expect(second.events.created).toBe(0);
    expect(second.events.settledBefore).toBe(first.results.total);
    expect(second.players.created).toBe(0);
    expect(second.bets.credits).toEqual({
      ...first.bets.credits,
      created: 0,
      replayed: first.bets.credits.total,
    });
    expect(second.bets.onchain).toEqual({
      ...first.bets.onchain,
      created: 0,
      replayed: first.bets.onchain.total,
    });
    expect(second.dailyCredits.created).toBe(0);
    expect(second.results.settled).toBe(0);
    expect(second.results.alreadySettled).toBe(first.results.total);
    expect(second.payouts.created).toBe(0);
    expect(second.payouts.alreadyClaimed).toBe(first.payouts.total);
    expect(second.referrals.redeemed).toBe(0);
    expect(second.spRows.created).toBe(0);
    expect(second.fees.created).toBe(0);
    expect(second.finalized.map((f) => [f.week, f.alreadyFinalized])).toEqual([
      [0, true],
      [1, true],
    ]);
    expect(second.finalized).toEqual(first.finalized.map((f) => ({ ...f, alreadyFinalized: true })));
    expect(await counts()).toEqual(after1);
  });

  it("gives the top players of the all-time leaderboard a history of settled and claimed bets", async () => {
    const t = await createTestApp({ database: ctx.database, now: NOW });
    try {
      const top = (await call(t.app, { method: "GET", url: "/api/leaderboard?limit=10" })).body.data;
      expect(top.rows.length).toBe(10);
      let claimed = 0;
      for (const row of top.rows) {
        expect(Number(row.totalSp)).toBeGreaterThan(0);
        const history = await listPredictions(
          { db: ctx.database.db },
          { userId: BigInt(row.userId), limit: 200 },
        );
        expect(history.items.length).toBeGreaterThan(0);
        for (const { prediction, event } of history.items) {
          expect(prediction.placedAt.getTime()).toBeLessThan(event.kickoffAt.getTime());
          if (prediction.claimedAt) {
            expect(["won", "void"]).toContain(prediction.status);
            claimed++;
          }
        }
        expect(history.items.some((i) => i.prediction.status === "won")).toBe(true);
      }
      expect(claimed).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });

  it("shows a newcomer finalized weeks with prizes, a live week and an upcoming one", async () => {
    const t = await createTestApp({ database: ctx.database, now: NOW });
    try {
      const meta = (await call(t.app, { method: "GET", url: "/api/competition/meta" })).body.data;
      expect(meta.weeks.map((w: any) => [w.week, w.status])).toEqual([
        [0, "finalized"],
        [1, "finalized"],
        [2, "live"],
        [3, "upcoming"],
      ]);
      const ladder = async (q: string) =>
        (await call(t.app, { method: "GET", url: `/api/competition/leaderboard?${q}` })).body.data;
      const q1 = await ladder("week=1");
      expect(q1.provisional).toBe(false);
      expect(q1.rows.length).toBeGreaterThan(0);
      const c1 = await ladder("week=1&type=champions");
      expect(c1.rows.some((r: any) => r.prizeUsdc !== null)).toBe(true);
      const live = await ladder("week=2");
      expect(live.provisional).toBe(true);
      expect(live.rows.length).toBeGreaterThan(0);
      const open = (await call(t.app, { method: "GET", url: "/api/available-events?limit=5" })).body.data;
      expect(open.items.length).toBe(5);
    } finally {
      await t.close();
    }
  });
});
