/**
 * The prize-pool estimate of week W (SPEC §5, default: the current week): protocol fees of week W−1 over the fee
 * window [start, min(end, now)), plus the weekly subsidy (week-pool.ts). Once week W is finalized the
 * estimate is the pool finalize froze and paid, read from the stored week: a fee recorded later for W−1's window
 * no longer changes it.
 */
import { currentWeek } from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { estimatePool, feeWindow } from "./pool.js";
import { findWeekResult } from "./snapshot.repository.js";
import { type WeekPool, weekPool } from "./week-pool.js";

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
