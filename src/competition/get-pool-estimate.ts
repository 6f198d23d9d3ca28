/**
 * The prize-pool estimate of week W (SPEC §5, default: the current week): protocol fees of week W−1 over the fee
 * window [start, min(end, now)), plus the weekly subsidy. `weekPool` is the same figure for the use cases that
 * split it (the live Champions ladder page, a player's projected prize, finalize). Once week W is finalized the
 * estimate is the pool finalize froze and paid, read from the stored week: a fee recorded later for W−1's window
 * no longer changes it.
 */
import type { Queryable } from "../db/client.js";
import { sumFees } from "../fees/fees.js";
import { currentWeek } from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { estimatePool, type FeeWindow, feeWindow, type PoolEstimate } from "./pool.js";
import { findWeekResult } from "./snapshot.repository.js";

export interface WeekPool {
  week: number;
  /** The fee window of week W−1; null for the opening week. */
  window: FeeWindow | null;
  estimate: PoolEstimate;
  /** Read from the finalized week (it can no longer change), rather than estimated from the fees as of now. */
  finalized: boolean;
}

/** Week W's pool as of `now`, with fees read on `q` (a transaction reads its own snapshot). */
export async function weekPool(
  deps: Pick<CompetitionDeps, "season" | "incentiveMicro">,
  q: Queryable,
  week: number,
  now: Date,
): Promise<WeekPool> {
  const window = feeWindow(deps.season, week, now);
  const protocolFeesMicro = window ? await sumFees(q, window.start, window.end) : 0n;
  return {
    week,
    window,
    estimate: estimatePool({ protocolFeesMicro, incentiveMicro: deps.incentiveMicro }),
    finalized: false,
  };
}

export async function getPrizePoolEstimate(
  deps: CompetitionDeps,
  input: { week?: number },
): Promise<WeekPool> {
  const now = deps.clock.now();
  const week = input.week ?? currentWeek(deps.season, now);
  const stored = await findWeekResult(deps.db, week);
  if (!stored) return weekPool(deps, deps.db, week, now);
  const { protocolFeesMicro, incentiveMicro } = stored.pool;
  return {
    week,
    window: feeWindow(deps.season, week, stored.finalizedAt),
    estimate: estimatePool({ protocolFeesMicro, incentiveMicro }),
    finalized: true,
  };
}
