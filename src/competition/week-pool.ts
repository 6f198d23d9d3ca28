/**
 * Week W's prize pool as of `now` (SPEC §5): protocol fees of week W−1 over the fee window [start, min(end, now)),
 * plus the weekly subsidy. The figure the use cases that split a pool share: the pool estimate, the live Champions
 * ladder page, a player's projected prize, finalize.
 */
import type { Queryable } from "../db/client.js";
import { sumFees } from "../fees/fees.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { estimatePool, type FeeWindow, feeWindow, type PoolEstimate } from "./pool.js";

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
