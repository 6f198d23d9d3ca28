/**
 * What the competition use cases share: their dependencies, and a per-call read context that memoises the
 * finalized weeks and each week's Champions eligibility (live eligibility of week W derives from week W−1,
 * recursively back to the last finalized week).
 */
import type { Clock } from "../clock.js";
import type { Db, Queryable } from "../db/client.js";
import { sumFees } from "../fees/fees.repository.js";
import { findDisplayInfo } from "../users/users.repository.js";
import type { Season } from "./calendar.js";
import { finalizedWeeks, snapshotTop, storedEligibility } from "./competition.repository.js";
import { type EligibleVia, nextWeekEligibility } from "./eligibility.js";
import type { LadderCache } from "./ladder-cache.js";
import { cachedLadder, type LiveLadder, sqlLadder } from "./live-ladder.js";
import { estimatePool, feeWindow, type PoolEstimate } from "./pool.js";
import { CHAMPIONS_CUTOFF, QUALIFICATION_CUTOFF, type RankedEntry, rankLadder } from "./ranking.js";

export interface CompetitionDeps {
  db: Db;
  clock: Clock;
  season: Season;
  incentiveMicro: bigint;
  /** In-memory ranks of live weeks; null reads every rank from SQL. */
  cache?: LadderCache | null;
  /** With the fee indexer on: the time up to which chain fees are recorded (null: none yet). Finalize waits on it. */
  feesIndexedThrough?: (() => Promise<Date | null>) | null;
}

export interface ReadContext {
  q: Queryable;
  deps: CompetitionDeps;
  now: Date;
  finalized: Set<number>;
  eligibility: Map<number, Promise<Map<string, EligibleVia>>>;
  champions: Map<number, Promise<RankedEntry[]>>;
  ladders: Map<number, Promise<LiveLadder>>;
  /** The rank cache, synced for this read; null inside a transaction (its snapshot must rule) or when off. */
  cache: LadderCache | null;
}

/**
 * A read context. Outside a transaction with the rank cache on, one cache sync (shared with concurrent
 * requests) brings the live ranks and the finalized weeks up to date; otherwise both come from SQL.
 */
export async function readContext(deps: CompetitionDeps, q: Queryable = deps.db): Promise<ReadContext> {
  const cache = deps.cache && q === deps.db ? deps.cache : null;
  if (cache) await cache.sync();
  return {
    q,
    deps,
    cache,
    now: deps.clock.now(),
    finalized: cache ? cache.finalizedWeeks() : await finalizedWeeks(q),
    eligibility: new Map(),
    champions: new Map(),
    ladders: new Map(),
  };
}

/** Week W's live ladder for pages and ranks: from the rank cache (loading the week), or SQL in a transaction. */
export function liveLadder(ctx: ReadContext, week: number): Promise<LiveLadder> {
  return memo(ctx.ladders, week, async () => {
    return ctx.cache ? cachedLadder(await ctx.cache.week(week)) : sqlLadder(ctx.q, week);
  });
}

/**
 * Week W's ladder for the small reads of eligibility (top 25 plus ties, a few players' SP): the cache when the
 * week is loaded, else two indexed SQL queries — deriving eligibility must not pull whole past weeks into memory.
 */
function smallReads(ctx: ReadContext, week: number): LiveLadder {
  const loaded = ctx.cache?.peek(week);
  return loaded ? cachedLadder(loaded) : sqlLadder(ctx.q, week);
}

function memo<T>(cache: Map<number, Promise<T>>, key: number, make: () => Promise<T>): Promise<T> {
  let p = cache.get(key);
  if (!p) {
    p = make();
    cache.set(key, p);
  }
  return p;
}

/** Who may play Champions week W: stored rows once W−1 is finalized, otherwise derived from live W−1 ranks. */
export function eligibilityFor(ctx: ReadContext, week: number): Promise<Map<string, EligibleVia>> {
  return memo(ctx.eligibility, week, async () => {
    if (week < 1) return new Map();
    const source = week - 1;
    if (ctx.finalized.has(source)) {
      // Stored when week−1 was finalized and never changed afterwards: safe to keep in memory.
      return ctx.cache
        ? ctx.cache.remember(`eligibility:${week}`, () => storedEligibility(ctx.q, week))
        : storedEligibility(ctx.q, week);
    }
    const qualification = await qualificationTop(ctx, source);
    // Nobody ranked in W−1 means an empty Champions ladder too: nobody carries over, so stop recursing here
    // (otherwise a far-future week walks back through every empty week, one round of queries each).
    if (qualification.length === 0) return new Map();
    const eligibleThisWeek = await eligibilityFor(ctx, source);
    const champions = source >= 1 ? await championsLadder(ctx, source) : null;
    return nextWeekEligibility({
      week: source,
      qualification,
      champions,
      eligibleThisWeek: new Set(eligibleThisWeek.keys()),
    });
  });
}

/** Qualification ranks ≤ 25 (plus ties) of week W, finalized or live. */
export async function qualificationTop(ctx: ReadContext, week: number): Promise<RankedEntry[]> {
  if (ctx.finalized.has(week)) {
    const top = await snapshotTop(ctx.q, week, "qualification", QUALIFICATION_CUTOFF);
    return top.map((r) => ({ userId: r.userId, sp: r.sp, rank: r.rank }));
  }
  // A prefix of the ladder order ranks exactly as the whole ladder does.
  return rankLadder(await smallReads(ctx, week).topWithTies(QUALIFICATION_CUTOFF));
}

/** The whole Champions ladder of week W ≥ 1 (eligible players with SP > 0), finalized or live. */
export function championsLadder(ctx: ReadContext, week: number): Promise<RankedEntry[]> {
  return memo(ctx.champions, week, async () => {
    if (week < 1) return [];
    if (ctx.finalized.has(week)) {
      // Every rank: the largest value of the integer `rank` column (a larger bound is a SQL range error).
      const all = await snapshotTop(ctx.q, week, "champions", 2_147_483_647);
      return all.map((r) => ({ userId: r.userId, sp: r.sp, rank: r.rank }));
    }
    const eligible = await eligibilityFor(ctx, week);
    return rankLadder(await smallReads(ctx, week).spOfUsers([...eligible.keys()]));
  });
}

export const CUTOFFS = { qualification: QUALIFICATION_CUTOFF, champions: CHAMPIONS_CUTOFF } as const;

/** The prize-pool estimate of week W: fees of W−1 over [start, min(end, now)) plus the subsidy. */
export async function poolEstimateFor(ctx: ReadContext, week: number) {
  const window = feeWindow(ctx.deps.season, week, ctx.now);
  const protocolFeesMicro = window ? await sumFees(ctx.q, window.start, window.end) : 0n;
  const estimate: PoolEstimate = estimatePool({ protocolFeesMicro, incentiveMicro: ctx.deps.incentiveMicro });
  return { window, estimate };
}

/** Display data (name, wallet) of ladder rows: from the cache when on, else one query. */
export function displayInfo(ctx: ReadContext, userIds: string[]) {
  return ctx.cache
    ? ctx.cache.displayOf(userIds, (missing) => findDisplayInfo(ctx.q, missing))
    : findDisplayInfo(ctx.q, userIds);
}
