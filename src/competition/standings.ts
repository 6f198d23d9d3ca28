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
 *
 * Live ranks come through one port, `LiveLadder` (live-ladder.ts): `cachedLadder` (rank-cache/rank-index.ts) when
 * the rank cache serves the read, `sqlLadder` (live-ladder.repository.ts) otherwise; finalized weeks from
 * snapshot.repository.ts. Each read below picks its source once, then reads values.
 */
import type { Queryable } from "../db/client.js";
import { isChampionsEnabled } from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { type EligibleVia, nextWeekEligibility } from "./eligibility.js";
import type { LiveLadder } from "./live-ladder.js";
import { sqlLadder } from "./live-ladder.repository.js";
import { type MyPrizeClaim, myPrizeClaim } from "./my-prize-claim.js";
import { projectedPrizeFor, splitPrizes } from "./prizes.js";
import type { RankCache } from "./rank-cache/rank-cache.js";
import { type Ladder, PAID_RANKS, QUALIFICATION_CUTOFF, type RankedEntry, rankLadder } from "./ranking.js";
import {
  finalizedWeeks,
  findWeekResult,
  type SnapshotRow,
  snapshotPage,
  snapshotPlaceOf,
  snapshotRanks,
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
    const finalized = cache ? await cache.sync(ticket) : await finalizedWeeks(q);
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

  /** Week W's live ladder for pages and ranks: from the rank cache (loading the week), or SQL. */
  liveLadder(week: number): Promise<LiveLadder> {
    return memo(this.ladderMemo, week, () => this.ladder(week, true));
  }

  /**
   * One player's ranks, SP, eligibility (week W and W+1), prize and claim in week W: the player's row (live
   * ladder or snapshot), then the week's values (eligibility, Champions ladder, pool) it is read against.
   */
  async playerStanding(week: number, userId: string): Promise<PlayerStanding> {
    const finalized = this.finalized.has(week);
    // A live week's ladder is read first: loaded into the cache, the eligibility reads below find it in memory.
    const place = !finalized
      ? { qualification: await (await this.liveLadder(week)).placeOf(userId), championsPrizeMicro: null }
      : await snapshotPlaceOf(this.q, week, userId);
    const eligibleVia = (await this.eligibility(week)).get(userId) ?? null;
    const champions = eligibleVia ? await this.championsLadder(week) : [];
    const nextVia = (await this.eligibility(week + 1)).get(userId) ?? null;
    const rank = champions.find((e) => e.userId === userId)?.rank ?? null;
    // Paid ranks: the stored prize once finalized, else the projected share of the pool as it stands now.
    const paid = rank !== null && rank <= PAID_RANKS;
    let prizeMicro: bigint | null = null;
    if (paid && finalized) prizeMicro = place.championsPrizeMicro;
    else if (paid) {
      const { estimate } = await weekPool(this.deps, this.q, week, this.now);
      prizeMicro = projectedPrizeFor(splitPrizes(champions, estimate.estimatedMicro).prizes, userId);
    }
    return {
      week,
      finalized,
      qualification: place.qualification,
      champions: { eligibleVia, rank, prizeMicro },
      nextWeek: { eligibleVia: nextVia },
      prizeClaim: finalized ? await myPrizeClaim(this.deps, this.q, { week, userId }) : null,
    };
  }

  /** Qualification ranks ≤ 25 (plus ties) of week W, finalized or live. */
  async qualificationTop(week: number): Promise<RankedEntry[]> {
    if (this.finalized.has(week)) return snapshotRanks(this.q, week, "qualification", QUALIFICATION_CUTOFF);
    // A prefix of the ladder order ranks exactly as the whole ladder does.
    return rankLadder(await (await this.ladder(week, false)).topWithTies(QUALIFICATION_CUTOFF));
  }

  /** The whole Champions ladder of week W (eligible players with SP > 0), finalized or live; [] without one. */
  championsLadder(week: number): Promise<RankedEntry[]> {
    return memo(this.championsMemo, week, async () => {
      if (!isChampionsEnabled(week)) return [];
      if (this.finalized.has(week)) return snapshotRanks(this.q, week, "champions", ALL_RANKS);
      // Derived from live ranks: shared by the requests served after the same cache sync.
      return this.shared(`champions:${week}`, async () => {
        const eligible = await this.eligibility(week);
        return rankLadder(await (await this.ladder(week, false)).spOfUsers([...eligible.keys()]));
      });
    });
  }

  /** Who may play Champions week W: derived from live W−1 ranks, or the stored rows once W−1 is finalized. */
  eligibility(week: number): Promise<Map<string, EligibleVia>> {
    return memo(this.eligibilityMemo, week, async () => {
      if (!isChampionsEnabled(week)) return new Map();
      const source = week - 1;
      // Derived from live ranks: shared by the requests served after the same cache sync.
      if (!this.finalized.has(source))
        return this.shared(`eligibility:${week}`, () => this.eligibilityAfter(source));
      // Stored when week−1 was finalized and never changed afterwards: safe to keep in memory.
      const load = () => storedEligibility(this.q, week);
      return this.cache ? this.cache.remember(`eligibility:${week}`, load) : load();
    });
  }

  /** Who may play Champions week W+1 as the live ranks of week W stand (`nextWeekEligibility`). */
  private async eligibilityAfter(week: number): Promise<Map<string, EligibleVia>> {
    const qualification = await this.qualificationTop(week);
    // Nobody ranked in W means an empty Champions ladder too: nobody carries over, so stop recursing here
    // (otherwise a far-future week walks back through every empty week, one round of queries each).
    if (qualification.length === 0) return new Map<string, EligibleVia>();
    return nextWeekEligibility({
      week,
      qualification,
      champions: isChampionsEnabled(week) ? await this.championsLadder(week) : null,
      eligibleThisWeek: new Set((await this.eligibility(week)).keys()),
    });
  }

  /**
   * Week W's live ladder, the one way to one: from the rank cache, loading the week when `load` (pages, a player's
   * rank), else only when it is loaded already; otherwise from SQL. The small reads of eligibility (top 25 plus
   * ties, a few players' SP) do not load: deriving eligibility must not pull whole past weeks into memory.
   */
  private async ladder(week: number, load: boolean): Promise<LiveLadder> {
    return (await this.cache?.ladder(week, load)) ?? sqlLadder(this.q, week);
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
