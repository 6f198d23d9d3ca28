/**
 * One player's standing in week W (SPEC §8 `/me`, default: the current week): Qualification rank and SP,
 * Champions eligibility, rank and prize (projected while the week is live), and eligibility for week W+1 as the
 * live ranks stand; for a finalized week, the player's prize with its Merkle proof and whether it was claimed.
 * One read of the standings (`Standings.playerStanding`), shaped for `/me`.
 */
import { currentWeek, isChampionsEnabled } from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import type { EligibleVia } from "./eligibility.js";
import type { MyPrizeClaim } from "./my-prize-claim.js";
import { CUTOFFS, withinCutoff } from "./ranking.js";
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
  const week = input.week ?? currentWeek(deps.season, standings.now);
  const championsEnabled = isChampionsEnabled(week);
  const s = await standings.playerStanding(week, input.userId);
  return {
    week,
    provisional: !s.finalized,
    qualification: {
      rank: s.qualification.rank,
      competitiveSp: s.qualification.sp,
      withinCutoff: withinCutoff(s.qualification.rank, CUTOFFS.qualification),
    },
    champions: {
      enabled: championsEnabled,
      eligible: s.champions.eligibleVia !== null,
      eligibleVia: s.champions.eligibleVia,
      rank: s.champions.rank,
      competitiveSp: s.qualification.sp,
      withinCutoff: withinCutoff(s.champions.rank, CUTOFFS.champions),
      prizeMicro: s.champions.prizeMicro,
    },
    nextWeek: { week: week + 1, eligible: s.nextWeek.eligibleVia !== null, via: s.nextWeek.eligibleVia },
    prizeClaim: s.prizeClaim,
  };
}
