/**
 * Read use cases of the competition: the week rail (meta), a ladder page, one player's status, and the
 * prize-pool estimate. A finalized week is served from its snapshot; any other week live and provisional.
 */
import { AppError } from "../errors.js";
import {
  currentWeek,
  isChampionsEnabled,
  secondsUntil,
  weekBounds,
  weekIndexAt,
  weekLabel,
  weekRail,
} from "./calendar.js";
import { findFinalizedWeek, type Ladder, snapshotPage, snapshotRowOf } from "./competition.repository.js";
import {
  type CompetitionDeps,
  CUTOFFS,
  championsLadder,
  displayInfo,
  eligibilityFor,
  liveLadder,
  poolEstimateFor,
  type ReadContext,
  readContext,
} from "./competition-context.js";
import type { FinalizeResult } from "./finalize-week.js";
import { projectedPrizeFor, splitPrizes } from "./prizes.js";
import { cutoffSp, PAID_RANKS, pageRanks, type RankedEntry, withinCutoff } from "./ranking.js";

/** The largest week index accepted anywhere (about 1,900 years of weeks): keeps dates finite. */
export const MAX_WEEK = 100_000;

export function assertWeek(week: number): void {
  if (week > MAX_WEEK) {
    throw new AppError("VALIDATION_FAILED", `query.week must be <= ${MAX_WEEK}`, [
      { field: "query.week", message: `must be <= ${MAX_WEEK}` },
    ]);
  }
}

export async function getMeta(deps: CompetitionDeps) {
  const ctx = await readContext(deps);
  const week = currentWeek(deps.season, ctx.now);
  const bounds = weekBounds(deps.season, week);
  return {
    now: ctx.now,
    currentWeek: week,
    seasonStarted: weekIndexAt(deps.season, ctx.now) !== null,
    championsEnabled: isChampionsEnabled(week),
    countdown: { endsAt: bounds.end, secondsRemaining: secondsUntil(bounds.end, ctx.now) },
    weeks: weekRail(deps.season, ctx.now, (w) => ctx.finalized.has(w)),
  };
}

export interface LadderRow {
  rank: number;
  userId: string;
  displayName: string;
  wallet: string | null;
  competitiveSp: number;
  withinCutoff: boolean;
  prizeMicro: bigint | null;
}

export interface LadderPage {
  week: number;
  type: Ladder;
  championsEnabled: boolean;
  provisional: boolean;
  total: number;
  offset: number;
  limit: number;
  cutoffRank: number;
  cutoffSp: number | null;
  rows: LadderRow[];
}

export async function getLeaderboard(
  deps: CompetitionDeps,
  input: { week?: number; type: Ladder; offset: number; limit: number },
): Promise<LadderPage> {
  const ctx = await readContext(deps);
  const week = input.week ?? currentWeek(deps.season, ctx.now);
  assertWeek(week);
  const { type, offset, limit } = input;
  const finalized = ctx.finalized.has(week);
  const base = {
    week,
    type,
    championsEnabled: isChampionsEnabled(week),
    provisional: !finalized,
    offset,
    limit,
    cutoffRank: CUTOFFS[type],
  };
  if (type === "champions" && !isChampionsEnabled(week)) {
    return { ...base, total: 0, cutoffSp: null, rows: [] };
  }
  if (finalized) {
    // A finalized week's result never changes: the cache keeps it.
    const load = () => findFinalizedWeek(ctx.q, week);
    const stored = (await (ctx.cache ? ctx.cache.remember(`finalized:${week}`, load) : load()))!
      .result as FinalizeResult;
    const part = type === "qualification" ? stored.qualification : stored.champions;
    const page = await snapshotPage(ctx.q, week, type, offset, limit);
    return {
      ...base,
      total: part.participants,
      cutoffSp: part.cutoffSp,
      rows: page.map((r) => ({
        rank: r.rank,
        userId: r.userId,
        displayName: r.displayName,
        wallet: r.wallet,
        competitiveSp: r.sp,
        withinCutoff: r.withinCutoff,
        prizeMicro: r.prizeMicro,
      })),
    };
  }
  return type === "qualification" ? liveQualificationPage(ctx, base) : liveChampionsPage(ctx, base);
}

/** Ladder rows of ranked entries: display data from the cache or one query, cutoff flag, prize when paid. */
async function ladderRows(
  ctx: ReadContext,
  entries: RankedEntry[],
  cutoffRank: number,
  prizeOf: (e: RankedEntry) => bigint | null,
): Promise<LadderRow[]> {
  const users = await displayInfo(
    ctx,
    entries.map((e) => e.userId),
  );
  return entries.map((e) => {
    const u = users.get(e.userId)!;
    return {
      rank: e.rank,
      userId: e.userId,
      displayName: u.displayName,
      wallet: u.wallet,
      competitiveSp: e.sp,
      withinCutoff: withinCutoff(e.rank, cutoffRank),
      prizeMicro: prizeOf(e),
    };
  });
}

async function liveQualificationPage(
  ctx: ReadContext,
  base: Omit<LadderPage, "total" | "cutoffSp" | "rows">,
): Promise<LadderPage> {
  const { week, offset, limit, cutoffRank } = base;
  const ladder = await liveLadder(ctx, week);
  const [page, total, line] = await Promise.all([
    ladder.page(offset, limit),
    ladder.total(),
    ladder.spAtPosition(cutoffRank),
  ]);
  const firstAbove = page.length > 0 ? await ladder.countAbove(page[0]!.sp) : 0;
  const ranks = pageRanks(
    page.map((r) => r.sp),
    offset,
    1 + firstAbove,
  );
  const entries = page.map((r, i) => ({ userId: r.userId, sp: r.sp, rank: ranks[i]! }));
  return { ...base, total, cutoffSp: line, rows: await ladderRows(ctx, entries, cutoffRank, () => null) };
}

async function liveChampionsPage(
  ctx: ReadContext,
  base: Omit<LadderPage, "total" | "cutoffSp" | "rows">,
): Promise<LadderPage> {
  const { week, offset, limit, cutoffRank } = base;
  const ladder = await championsLadder(ctx, week);
  const { estimate } = await poolEstimateFor(ctx, week);
  const { prizes } = splitPrizes(ladder, estimate.estimatedMicro);
  const rows = await ladderRows(ctx, ladder.slice(offset, offset + limit), cutoffRank, (e) =>
    e.rank <= PAID_RANKS ? projectedPrizeFor(prizes, e.userId) : null,
  );
  return { ...base, total: ladder.length, cutoffSp: cutoffSp(ladder, cutoffRank), rows };
}

export interface MyStatus {
  week: number;
  provisional: boolean;
  qualification: { rank: number | null; competitiveSp: number; withinCutoff: boolean };
  champions: {
    enabled: boolean;
    eligible: boolean;
    eligibleVia: "qualification" | "champions" | null;
    rank: number | null;
    competitiveSp: number;
    withinCutoff: boolean;
    prizeMicro: bigint | null;
  };
  nextWeek: { week: number; eligible: boolean; via: "qualification" | "champions" | null };
}

/** One player's Qualification and Champions status for week W, and the projection for W+1. */
export async function getMyStatus(
  deps: CompetitionDeps,
  input: { userId: string; week?: number },
): Promise<MyStatus> {
  const ctx = await readContext(deps);
  const week = input.week ?? currentWeek(deps.season, ctx.now);
  assertWeek(week);
  const { userId } = input;
  const finalized = ctx.finalized.has(week);

  let qualRank: number | null = null;
  let sp = 0;
  if (finalized) {
    const row = await snapshotRowOf(ctx.q, week, "qualification", userId);
    qualRank = row?.rank ?? null;
    sp = row?.sp ?? 0;
  } else {
    const ladder = await liveLadder(ctx, week);
    sp = await ladder.spOf(userId);
    qualRank = sp > 0 ? 1 + (await ladder.countAbove(sp)) : null;
  }

  const enabled = isChampionsEnabled(week);
  const eligibleNow = enabled ? await eligibilityFor(ctx, week) : new Map();
  const via = eligibleNow.get(userId) ?? null;
  let champRank: number | null = null;
  let prizeMicro: bigint | null = null;
  if (via) {
    const ladder = await championsLadder(ctx, week);
    champRank = ladder.find((e) => e.userId === userId)?.rank ?? null;
    if (champRank !== null && champRank <= PAID_RANKS) {
      if (finalized) {
        prizeMicro = (await snapshotRowOf(ctx.q, week, "champions", userId))?.prizeMicro ?? null;
      } else {
        const { estimate } = await poolEstimateFor(ctx, week);
        prizeMicro = projectedPrizeFor(splitPrizes(ladder, estimate.estimatedMicro).prizes, userId);
      }
    }
  }
  const next = await eligibilityFor(ctx, week + 1);
  return {
    week,
    provisional: !finalized,
    qualification: {
      rank: qualRank,
      competitiveSp: sp,
      withinCutoff: withinCutoff(qualRank, CUTOFFS.qualification),
    },
    champions: {
      enabled,
      eligible: via !== null,
      eligibleVia: via,
      rank: champRank,
      competitiveSp: sp,
      withinCutoff: withinCutoff(champRank, CUTOFFS.champions),
      prizeMicro,
    },
    nextWeek: { week: week + 1, eligible: next.has(userId), via: next.get(userId) ?? null },
  };
}

/** The prize-pool estimate of week W (default: the current week). */
export async function getPrizePoolEstimate(deps: CompetitionDeps, input: { week?: number }) {
  const ctx = await readContext(deps);
  const week = input.week ?? currentWeek(deps.season, ctx.now);
  assertWeek(week);
  const { window, estimate } = await poolEstimateFor(ctx, week);
  return { week, window, estimate };
}

export { weekLabel };
