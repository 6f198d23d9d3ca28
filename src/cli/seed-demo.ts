/**
 * `seed-demo [--players N] [--seed S]`: writes the demo season of `demo-data.ts` through the same use cases the
 * API uses, relative to the configured season and the clock: finalized weeks with prizes, a live week and an
 * upcoming one. In order:
 * 1. events: every fixture not settled yet is upserted as `scheduled` (open for bets);
 * 2. players: the signed-up demo players become users, some with a referrer (`demo-players.ts`);
 * 3. timeline: daily credits, v1 and v2 bets, results and payout claims, each at its own pinned instant
 *    (`demo-predictions.ts`): settlement writes the PREDICTION / WARMUP_PREDICTION / ONCHAIN_PREDICTION SP;
 * 4. live events get their `live` status; referrers redeem their referral rewards;
 * 5. the chain feed's ONCHAIN_SP rows (SP transaction), protocol fees, and the ended weeks are finalized.
 *
 * Idempotent: every id and key is derived from the seed, so a second run finds every event, user, bet, claim,
 * result, ledger row and fee already there (replays, counted as such) and every ended week already finalized; a
 * settled event is never upserted again. Writes are grouped into transactions of about 100 ms each (each use
 * case's own transaction becomes a savepoint; cli-context.ts inShortTransactions), with the event loop let go
 * between two: a seed run inside a server beside its reads keeps them answering, and a failure undoes only the
 * slice in progress, which a re-run then completes.
 * A database seeded before bets were placed holds the direct PREDICTION rows of that version: re-seed into a
 * fresh DATA_DIR. Refuses to run with NODE_ENV=production.
 */
import { finalizeWeek } from "../competition/finalize-week.js";
import { AppError } from "../errors.js";
import { EventUpsertBody } from "../events/schema.js";
import { upsertEvent } from "../events/upsert-event.js";
import { recordProtocolFee } from "../fees/record-fee.js";
import { recordSpTransaction } from "../ledger/record-sp-transaction.js";
import { formatUsdc, parseUsdc } from "../shared/money.js";
import { type CliContext, competitionDeps, inShortTransactions, seasonOf } from "./cli-context.js";
import { buildDemoSeason, deriveDemoWallets } from "./demo-data.js";
import { redeemDemoReferrals, signUpDemoPlayers } from "./demo-players.js";
import { placeDemoPredictions } from "./demo-predictions.js";
import { assertValid } from "./validate.js";

export interface SeedDemoInput {
  players: number;
  seed: string;
}

export const MAX_PLAYERS = 10_000;

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

export async function seedDemoCommand(ctx: CliContext, input: SeedDemoInput) {
  assertSeedInput(ctx, input);
  const timer = phaseTimer();
  const season = seasonOf(ctx.config);
  const now = ctx.clock.now();
  await deriveDemoWallets(input.seed, input.players);
  const demo = buildDemoSeason({
    seed: input.seed,
    players: input.players,
    season,
    now,
    spPerUsdc: ctx.config.spPerUsdc,
    welcomeCredits: ctx.config.welcomeCredits,
    dailyCredits: ctx.config.dailyCredits,
  });
  timer.lap("generate");
  const events = await upsertDemoEvents(ctx, demo, season);
  timer.lap("events");
  const users = await signUpDemoPlayers(ctx, demo);
  timer.lap("players");
  const predictions = await placeDemoPredictions(ctx, demo, input.seed, users);
  timer.lap("timeline");
  await markLiveEvents(ctx, demo, season);
  const referrals =
    ctx.config.referralRewardSp > 0
      ? await redeemDemoReferrals(ctx, demo, users)
      : { referrers: 0, redeemed: 0 };
  timer.lap("live-and-referrals");
  const rowsCreated = await recordDemoSpRows(ctx, demo, season);
  timer.lap("ledger");
  const feesCreated = await recordDemoFees(ctx, demo);
  timer.lap("fees");
  const finalized = await finalizeDemoWeeks(ctx, demo);
  timer.lap("finalize");
  return {
    seed: input.seed,
    tag: demo.tag,
    now: now.toISOString(),
    currentWeek: demo.currentWeek,
    weeks: { first: demo.weeks[0], last: demo.weeks.at(-1) },
    players: {
      generated: demo.players.length,
      signedUp: demo.signedUp.length,
      created: users.created,
      referred: users.referred,
      byTier: countBy(demo.players, (p) => p.tier),
    },
    events: eventsSummary(demo, events),
    picks: { total: demo.picks.length, unaffordable: demo.unaffordable, actions: demo.actions.length },
    ...predictions,
    referrals,
    spRows: spRowsSummary(demo, rowsCreated),
    fees: feesSummary(demo, feesCreated),
    finalized,
    elapsedMs: timer.elapsedMs(),
    timingsMs: timer.timingsMs,
  };
}

type DemoSeason = ReturnType<typeof buildDemoSeason>;
type SeasonOf = ReturnType<typeof seasonOf>;

/** Refuses production and out-of-range options (400 VALIDATION_FAILED). */
function assertSeedInput(ctx: CliContext, input: SeedDemoInput): void {
  if (ctx.config.env === "production") {
    throw new AppError("FORBIDDEN", "seed-demo does not run with NODE_ENV=production");
  }
  if (!Number.isSafeInteger(input.players) || input.players < 0 || input.players > MAX_PLAYERS) {
    throw new AppError("VALIDATION_FAILED", `--players must be an integer from 0 to ${MAX_PLAYERS}`);
  }
  if (input.seed.length === 0 || input.seed.length > 100) {
    throw new AppError("VALIDATION_FAILED", "--seed must be 1 to 100 characters");
  }
}

/** Milliseconds per phase (each `lap` closes the phase since the previous one) and in all. */
function phaseTimer() {
  const startedAt = performance.now();
  const timingsMs: Record<string, number> = {};
  let last = startedAt;
  return {
    timingsMs,
    lap(phase: string) {
      const t = performance.now();
      timingsMs[phase] = Math.round(t - last);
      last = t;
    },
    elapsedMs: () => Math.round(performance.now() - startedAt),
  };
}

/** Events, one transaction per competition week: open (scheduled) until the timeline posts their result. */
async function upsertDemoEvents(ctx: CliContext, demo: DemoSeason, season: SeasonOf) {
  let created = 0;
  let settledBefore = 0;
  await inShortTransactions(ctx.database.db, demo.events, async (db, e) => {
    const body = assertValid(EventUpsertBody, { ...e.body, status: "scheduled" }, e.id);
    try {
      if ((await upsertEvent({ db, clock: ctx.clock, season }, e.id, body)).created) created++;
    } catch (err) {
      // A settled event can no longer change status: it stays as it is.
      if (!(err instanceof AppError && err.code === "CONFLICT")) throw err;
      settledBefore++;
    }
  });
  return { created, settledBefore };
}

function eventsSummary(demo: DemoSeason, counts: { created: number; settledBefore: number }) {
  return {
    total: demo.events.length,
    created: counts.created,
    updated: demo.events.length - counts.created - counts.settledBefore,
    settledBefore: counts.settledBefore,
    byStatus: countBy(demo.events, (e) => e.body.status ?? "scheduled"),
    warmup: demo.events.filter((e) => e.body.warmup).length,
  };
}

function spRowsSummary(demo: DemoSeason, created: number) {
  return {
    total: demo.spRows.length,
    created,
    replayed: demo.spRows.length - created,
    byType: countBy(demo.spRows, (r) => r.type),
  };
}

function feesSummary(demo: DemoSeason, created: number) {
  return {
    total: demo.fees.length,
    created,
    totalUsdc: formatUsdc(demo.fees.reduce((s, f) => s + parseUsdc(f.amountUsdc), 0n)),
  };
}

/** Fixtures under way now: bets were placed while they were open, now they are live. */
async function markLiveEvents(ctx: CliContext, demo: DemoSeason, season: SeasonOf): Promise<void> {
  const live = demo.events.filter((e) => e.body.status === "live");
  await inShortTransactions(ctx.database.db, live, async (db, e) => {
    await upsertEvent({ db, clock: ctx.clock, season }, e.id, e.body);
  });
}

/** The chain feed's SP of the USDC bets not reported to the app; returns how many rows were created. */
async function recordDemoSpRows(ctx: CliContext, demo: DemoSeason, season: SeasonOf): Promise<number> {
  let created = 0;
  await inShortTransactions(ctx.database.db, demo.spRows, async (db, r) => {
    const deps = { db, season, welcomeCredits: ctx.config.welcomeCredits };
    if ((await recordSpTransaction(deps, r)).created) created++;
  });
  return created;
}

/** The protocol fees; returns how many were created. */
async function recordDemoFees(ctx: CliContext, demo: DemoSeason): Promise<number> {
  let created = 0;
  await inShortTransactions(ctx.database.db, demo.fees, async (db, f) => {
    if ((await recordProtocolFee(db, f)).created) created++;
  });
  return created;
}

/** Finalizes the ended weeks in order (a week finalized before answers `alreadyFinalized`). */
async function finalizeDemoWeeks(ctx: CliContext, demo: DemoSeason) {
  const deps = competitionDeps(ctx);
  const finalized = [];
  for (const week of demo.finalizeWeeks) {
    const { result: r, alreadyFinalized } = await finalizeWeek(deps, { week });
    finalized.push({
      week,
      alreadyFinalized,
      qualificationParticipants: r.qualification.participants,
      championsParticipants: r.champions.participants,
      prizes: r.prizes.length,
      poolUsdc: formatUsdc(r.pool.estimatedMicro),
      distributedUsdc: formatUsdc(r.pool.distributedMicro),
    });
  }
  return finalized;
}
