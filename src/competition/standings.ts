/**
 * The competition's read model: the standings of any week (Qualification and Champions ladders, one player's
 * place) and Champions eligibility, from the stored snapshot once the week is finalized, otherwise derived live
 * from the per-week SP the ledger keeps (through the rank cache when it is on and the read is not inside a
 * transaction, from SQL otherwise). Live eligibility of week W derives from week W−1, recursively back to the last
 * finalized week.
 *
 * One instance serves one request (or one finalize transaction): it memoises each week's ladders and eligibility,
 * and sees the finalized weeks as of its opening. `playerStanding` answers one player's whole place in a week
 * (`/me`): ranks, SP, eligibility, prize and claim.
 */
import type { Queryable } from "../db/client.js";
import { isChampionsEnabled } from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { type EligibleVia, nextWeekEligibility } from "./eligibility.js";
import { type LiveLadder, sqlLadder } from "./live-ladder.js";
import { type MyPrizeClaim, myPrizeClaim } from "./my-prize-claim.js";
import { projectedPrizeFor, splitPrizes } from "./prizes.js";
import { cachedLadder } from "./rank-cache/cached-ladder.js";
import type { RankCache } from "./rank-cache/rank-cache.js";
import {
  competitionRank,
  type Ladder,
  PAID_RANKS,
  QUALIFICATION_CUTOFF,
  type RankedEntry,
  rankLadder,
} from "./ranking.js";
import {
  finalizedWeeks,
  findWeekResult,
  type SnapshotRow,
  snapshotPage,
  snapshotRowOf,
  snapshotTop,
  storedEligibility,
} from "./snapshot.repository.js";
import { weekPool } from "./week-pool.js";
import type { WeekResult } from "./week-result.js";

/** Every rank of a snapshot: the largest value of the integer `rank` column (a larger bound is a SQL range error). */
const ALL_RANKS = 2_147_483_647;

/** What Standings reads with: the database, the rank cache, and what a player's prize depends on. */
export type StandingsDeps = Pick<
  CompetitionDeps,
  "db" | "cache" | "clock" | "season" | "incentiveMicro" | "prizeDistributor"
>;

/** One player's place in week W (`Standings.playerStanding`). */
export interface PlayerStanding {
  week: number;
  finalized: boolean;
  /** Qualification rank (null when unranked) and competitive SP; the same SP counts on the Champions ladder. */
  qualification: { rank: number | null; sp: number };
  champions: {
    /** Why the player may play Champions week W; null when not eligible. */
    eligibleVia: EligibleVia | null;
    /** Null when not eligible or without SP. */
    rank: number | null;
    /** Paid ranks only: the stored prize once finalized, else the projected share of the live pool. */
    prizeMicro: bigint | null;
  };
  /** Eligibility for Champions week W+1 as the ranks of week W stand. */
  nextWeek: { eligibleVia: EligibleVia | null };
  /** A finalized week's prize with its Merkle proof; null when not finalized or nothing won. */
  prizeClaim: MyPrizeClaim | null;
}

export class Standings {
  private readonly eligibilityMemo = new Map<number, Promise<Map<string, EligibleVia>>>();
  private readonly championsMemo = new Map<number, Promise<RankedEntry[]>>();
  private readonly ladderMemo = new Map<number, Promise<LiveLadder>>();

  private constructor(
    private readonly deps: StandingsDeps,
    private readonly q: Queryable,
    /** Synced for this read; null inside a transaction (its own snapshot must rule) or when the cache is off. */
    private readonly cache: RankCache | null,
    private readonly finalized: ReadonlySet<number>,
    /** The clock's time at opening: the instant the live figures (a projected prize's pool) are read as of. */
    readonly now: Date,
  ) {}

  /**
   * Standings read on `q` (default: the database). Outside a transaction with the rank cache on, one cache sync
   * (shared with concurrent requests) brings the live ranks and the finalized weeks up to date; otherwise both
   * come from SQL on `q`.
   */
  static async open(
    deps: StandingsDeps,
    q: Queryable = deps.db,
    /** The rank cache's ticket taken when the request arrived (default: now). */
    ticket?: number,
  ): Promise<Standings> {
    const cache = deps.cache && q === deps.db ? deps.cache : null;
    if (cache) await cache.sync(ticket);
    const finalized = cache ? cache.finalizedWeeks() : await finalizedWeeks(q);
    return new Standings(deps, q, cache, finalized, deps.clock.now());
  }

  /**
   * A value derived from the live ranks, the finalized weeks and the displayed profiles (e.g. a live ladder
   * page): shared by the requests served after the same rank-cache sync; computed each time without the cache.
   */
  shared<T>(key: string, make: () => Promise<T>): Promise<T> {
    return this.cache ? this.cache.derive(key, make) : make();
  }

  isFinalized(week: number): boolean {
    return this.finalized.has(week);
  }

  /** The stored result of a finalized week (it never changes: the cache keeps it). */
  async weekResult(week: number): Promise<WeekResult> {
    const load = () => findWeekResult(this.q, week);
    const stored = await (this.cache ? this.cache.remember(`finalized:${week}`, load) : load());
    if (!stored) throw new Error(`week ${week} is not finalized`);
    return stored;
  }

  /** One page of a finalized week's ladder. */
  snapshotPage(week: number, ladder: Ladder, offset: number, limit: number): Promise<SnapshotRow[]> {
    return snapshotPage(this.q, week, ladder, offset, limit);
  }

  /** One player's row on a finalized week's ladder, or null when they are not on it. */
  snapshotRowOf(week: number, ladder: Ladder, userId: string): Promise<SnapshotRow | null> {
    return snapshotRowOf(this.q, week, ladder, userId);
  }

  /** Week W's live ladder for pages and ranks: from the rank cache (loading the week), or SQL. */
  liveLadder(week: number): Promise<LiveLadder> {
    return memo(this.ladderMemo, week, async () =>
      this.cache ? cachedLadder(await this.cache.week(week)) : sqlLadder(this.q, week),
    );
  }

  /** A player's Qualification rank (null when unranked) and competitive SP in week W. */
  async qualificationOf(week: number, userId: string): Promise<{ rank: number | null; sp: number }> {
    if (this.isFinalized(week)) {
      const row = await this.snapshotRowOf(week, "qualification", userId);
      return { rank: row?.rank ?? null, sp: row?.sp ?? 0 };
    }
    const ladder = await this.liveLadder(week);
    const sp = await ladder.spOf(userId);
    return { rank: sp > 0 ? competitionRank(await ladder.countAbove(sp)) : null, sp };
  }

  /** One player's ranks, SP, eligibility (week W and W+1), prize and claim in week W. */
  async playerStanding(week: number, userId: string): Promise<PlayerStanding> {
    const finalized = this.isFinalized(week);
    const qualification = await this.qualificationOf(week, userId);
    const eligibleVia = (await this.eligibility(week)).get(userId) ?? null;
    const { rank, prizeMicro } = eligibleVia
      ? await this.championsPlaceOf(week, userId)
      : { rank: null, prizeMicro: null };
    const next = await this.eligibility(week + 1);
    const prizeClaim = finalized ? await myPrizeClaim(this.deps, this.q, { week, userId }) : null;
    return {
      week,
      finalized,
      qualification,
      champions: { eligibleVia, rank, prizeMicro },
      nextWeek: { eligibleVia: next.get(userId) ?? null },
      prizeClaim,
    };
  }

  /** An eligible player's Champions rank and prize (paid ranks: stored once finalized, else projected). */
  private async championsPlaceOf(
    week: number,
    userId: string,
  ): Promise<{ rank: number | null; prizeMicro: bigint | null }> {
    const ladder = await this.championsLadder(week);
    const rank = ladder.find((e) => e.userId === userId)?.rank ?? null;
    if (rank === null || rank > PAID_RANKS) return { rank, prizeMicro: null };
    if (this.isFinalized(week)) {
      return { rank, prizeMicro: (await this.snapshotRowOf(week, "champions", userId))?.prizeMicro ?? null };
    }
    const { estimate } = await weekPool(this.deps, this.q, week, this.now);
    return {
      rank,
      prizeMicro: projectedPrizeFor(splitPrizes(ladder, estimate.estimatedMicro).prizes, userId),
    };
  }

  /** Qualification ranks ≤ 25 (plus ties) of week W, finalized or live. */
  async qualificationTop(week: number): Promise<RankedEntry[]> {
    if (this.isFinalized(week)) {
      const top = await snapshotTop(this.q, week, "qualification", QUALIFICATION_CUTOFF);
      return top.map((r) => ({ userId: r.userId, sp: r.sp, rank: r.rank }));
    }
    // A prefix of the ladder order ranks exactly as the whole ladder does.
    return rankLadder(await this.smallReads(week).topWithTies(QUALIFICATION_CUTOFF));
  }

  /** The whole Champions ladder of week W (eligible players with SP > 0), finalized or live; [] without one. */
  championsLadder(week: number): Promise<RankedEntry[]> {
    return memo(this.championsMemo, week, async () => {
      if (!isChampionsEnabled(week)) return [];
      if (this.isFinalized(week)) {
        const all = await snapshotTop(this.q, week, "champions", ALL_RANKS);
        return all.map((r) => ({ userId: r.userId, sp: r.sp, rank: r.rank }));
      }
      const live = async () => {
        const eligible = await this.eligibility(week);
        return rankLadder(await this.smallReads(week).spOfUsers([...eligible.keys()]));
      };
      // Derived from live ranks: shared by the requests served after the same cache sync.
      return this.cache ? this.cache.derive(`champions:${week}`, live) : live();
    });
  }

  /** Who may play Champions week W: stored rows once W−1 is finalized, otherwise derived from live W−1 ranks. */
  eligibility(week: number): Promise<Map<string, EligibleVia>> {
    return memo(this.eligibilityMemo, week, async () => {
      if (!isChampionsEnabled(week)) return new Map();
      const source = week - 1;
      if (this.isFinalized(source)) {
        // Stored when week−1 was finalized and never changed afterwards: safe to keep in memory.
        const load = () => storedEligibility(this.q, week);
        return this.cache ? this.cache.remember(`eligibility:${week}`, load) : load();
      }
      const live = async () => {
        const qualification = await this.qualificationTop(source);
        // Nobody ranked in W−1 means an empty Champions ladder too: nobody carries over, so stop recursing here
        // (otherwise a far-future week walks back through every empty week, one round of queries each).
        if (qualification.length === 0) return new Map<string, EligibleVia>();
        return nextWeekEligibility({
          week: source,
          qualification,
          champions: isChampionsEnabled(source) ? await this.championsLadder(source) : null,
          eligibleThisWeek: new Set((await this.eligibility(source)).keys()),
        });
      };
      // Derived from live ranks: shared by the requests served after the same cache sync.
      return this.cache ? this.cache.derive(`eligibility:${week}`, live) : live();
    });
  }

  /**
   * Week W's ladder for the small reads of eligibility (top 25 plus ties, a few players' SP): the cache when the
   * week is loaded, else indexed SQL queries — deriving eligibility must not pull whole past weeks into memory.
   */
  private smallReads(week: number): LiveLadder {
    const loaded = this.cache?.peek(week);
    return loaded ? cachedLadder(loaded) : sqlLadder(this.q, week);
  }
}

function memo<T>(cache: Map<number, Promise<T>>, key: number, make: () => Promise<T>): Promise<T> {
  let p = cache.get(key);
  if (!p) {
    p = make();
    cache.set(key, p);
  }
  return p;
}
