/**
 * What finalizing a week decided (SPEC §8 finalize), in domain units: user ids, integer SP, micro-USDC. Stored
 * with the week, served again by every later finalize call, and formatted for the API by `presentFinalize`.
 *
 * Contract of `summarizeWeek` (pure, no I/O):
 * - qualification: `participants` as counted by the snapshot, `cutoffSp` the SP at position 25 (null when fewer
 *   are ranked), `qualifiers` the players with rank ≤ 25.
 * - champions: `enabled` for weeks with a Champions ladder; `participants`, `cutoffSp` at position 10 and
 *   `retained` (rank ≤ 10) of that ladder; zeros and null without one.
 * - prizes and pool: the prize split of the week's pool; undistributed = pool − distributed.
 */
import { isChampionsEnabled } from "../shared/season.js";
import type { PoolEstimate } from "./pool.js";
import type { PrizeRow, PrizeSplit } from "./prizes.js";
import { CUTOFFS, cutoffSp, type RankedEntry, withinCutoff } from "./ranking.js";

export interface WeekResult {
  week: number;
  finalizedAt: Date;
  qualification: { participants: number; cutoffSp: number | null; qualifiers: number };
  champions: { enabled: boolean; participants: number; cutoffSp: number | null; retained: number };
  /** Paid rows in ladder order. */
  prizes: PrizeRow[];
  /** The pool frozen at finalize (fees of week W−1 + subsidy) and how it was split. */
  pool: {
    estimatedMicro: bigint;
    protocolFeesMicro: bigint;
    incentiveMicro: bigint;
    distributedMicro: bigint;
    undistributedMicro: bigint;
  };
  /** Players eligible for Champions week W+1. */
  nextWeekEligible: number;
}

/** What finalizing week W answers: its result, whether an earlier call finalized it, the winners' wallets. */
export interface FinalizeOutcome {
  result: WeekResult;
  alreadyFinalized: boolean;
  /** Wallets of the prize winners as they stand now (null for a user without one). */
  wallets: Map<string, string | null>;
}

export interface WeekOutcome {
  week: number;
  finalizedAt: Date;
  /** Number of ranked players on the Qualification ladder. */
  qualificationParticipants: number;
  /** The Qualification top 25 plus ties (a prefix of the ladder ranks as the whole ladder does). */
  qualificationTop: readonly RankedEntry[];
  /** The whole Champions ladder; null for a week without one. */
  champions: readonly RankedEntry[] | null;
  pool: PoolEstimate;
  split: PrizeSplit;
  nextWeekEligible: number;
}

export function summarizeWeek(o: WeekOutcome): WeekResult {
  const champions = o.champions ?? [];
  const inside = (ladder: readonly RankedEntry[], cutoff: number) =>
    ladder.filter((e) => withinCutoff(e.rank, cutoff)).length;
  return {
    week: o.week,
    finalizedAt: o.finalizedAt,
    qualification: {
      participants: o.qualificationParticipants,
      cutoffSp: cutoffSp(o.qualificationTop, CUTOFFS.qualification),
      qualifiers: inside(o.qualificationTop, CUTOFFS.qualification),
    },
    champions: {
      enabled: isChampionsEnabled(o.week),
      participants: champions.length,
      cutoffSp: o.champions ? cutoffSp(champions, CUTOFFS.champions) : null,
      retained: inside(champions, CUTOFFS.champions),
    },
    prizes: o.split.prizes,
    pool: {
      estimatedMicro: o.pool.estimatedMicro,
      protocolFeesMicro: o.pool.protocolFeesMicro,
      incentiveMicro: o.pool.incentiveMicro,
      distributedMicro: o.split.distributedMicro,
      undistributedMicro: o.pool.estimatedMicro - o.split.distributedMicro,
    },
    nextWeekEligible: o.nextWeekEligible,
  };
}
