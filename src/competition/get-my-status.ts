/**
 * One player's standing in week W (SPEC §8 `/me`, default: the current week): Qualification rank and SP,
 * Champions eligibility, rank and prize (projected while the week is live), and eligibility for week W+1 as the
 * live ranks stand; for a finalized week, the player's prize with its Merkle proof and whether it was claimed.
 */
import { currentWeek, isChampionsEnabled } from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import type { EligibleVia } from "./eligibility.js";
import { weekPool } from "./get-pool-estimate.js";
import { type MyPrizeClaim, myPrizeClaim } from "./get-prize-tree.js";
import { projectedPrizeFor, splitPrizes } from "./prizes.js";
import { CUTOFFS, PAID_RANKS, withinCutoff } from "./ranking.js";
import { Standings } from "./standings.js";

export interface MyStatus {
  week: number;
  provisional: boolean;
  qualification: { rank: number | null; competitiveSp: number; withinCutoff: boolean };
  champions: {
    enabled: boolean;
    eligible: boolean;
    eligibleVia: EligibleVia | null;
    rank: number | null;
    competitiveSp: number;
    withinCutoff: boolean;
    prizeMicro: bigint | null;
  };
  nextWeek: { week: number; eligible: boolean; via: EligibleVia | null };
  /** A finalized week's prize of this player with its Merkle proof; null when not finalized or nothing won. */
  prizeClaim: MyPrizeClaim | null;
}

export async function getMyStatus(
  deps: CompetitionDeps,
  input: { userId: string; week?: number; ticket?: number },
): Promise<MyStatus> {
  const standings = await Standings.open(deps, deps.db, input.ticket);
  const now = deps.clock.now();
  const week = input.week ?? currentWeek(deps.season, now);
  const { userId } = input;
  const finalized = standings.isFinalized(week);
  const qualification = await standings.qualificationOf(week, userId);

  const via = (await standings.eligibility(week)).get(userId) ?? null;
  let championsRank: number | null = null;
  let prizeMicro: bigint | null = null;
  if (via) {
    const ladder = await standings.championsLadder(week);
    championsRank = ladder.find((e) => e.userId === userId)?.rank ?? null;
    if (championsRank !== null && championsRank <= PAID_RANKS) {
      if (finalized) {
        prizeMicro = (await standings.snapshotRowOf(week, "champions", userId))?.prizeMicro ?? null;
      } else {
        const { estimate } = await weekPool(deps, deps.db, week, now);
        prizeMicro = projectedPrizeFor(splitPrizes(ladder, estimate.estimatedMicro).prizes, userId);
      }
    }
  }
  const next = await standings.eligibility(week + 1);
  const prizeClaim = finalized ? await myPrizeClaim(deps, deps.db, { week, userId }) : null;
  return {
    week,
    provisional: !finalized,
    qualification: {
      rank: qualification.rank,
      competitiveSp: qualification.sp,
      withinCutoff: withinCutoff(qualification.rank, CUTOFFS.qualification),
    },
    champions: {
      enabled: isChampionsEnabled(week),
      eligible: via !== null,
      eligibleVia: via,
      rank: championsRank,
      competitiveSp: qualification.sp,
      withinCutoff: withinCutoff(championsRank, CUTOFFS.champions),
      prizeMicro,
    },
    nextWeek: { week: week + 1, eligible: next.has(userId), via: next.get(userId) ?? null },
    prizeClaim,
  };
}
