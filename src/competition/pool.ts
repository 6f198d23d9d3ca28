/**
 * Champions prize-pool estimate (SPEC §5, description §2.4): which fees fund week W's pool, and the sum.
 *
 * Contract:
 * - Week W's pool is funded by protocol fees of week W−1, summed over the fee window
 *   [start(W−1), max(start(W−1), min(end(W−1), now))) in UTC, plus the protocol incentive.
 * - Week 0 has no prior week: no fee window (null) and zero protocol fees.
 * - Paid entries are not live: `entriesMicro` is always 0n.
 * - Pure: `now` is an argument; fee amounts are summed by the caller (the repository) over the window.
 */
import { assertWeek, type Season, weekBounds } from "../shared/season.js";

export interface FeeWindow {
  fundingWeekIndex: number;
  start: Date;
  end: Date;
}

export interface PoolEstimate {
  estimatedMicro: bigint;
  protocolFeesMicro: bigint;
  incentiveMicro: bigint;
  entriesMicro: bigint;
}

/** The half-open window of week W−1's fees that fund week W's pool, cut at `now`; null for week 0. */
export function feeWindow(season: Season, week: number, now: Date): FeeWindow | null {
  assertWeek(week);
  if (week === 0) return null;
  const funding = weekBounds(season, week - 1);
  const start = funding.start.getTime();
  const end = Math.max(start, Math.min(funding.end.getTime(), now.getTime()));
  if (Number.isNaN(end)) throw new RangeError("now is not a valid date");
  return { fundingWeekIndex: week - 1, start: new Date(start), end: new Date(end) };
}

/** Estimate = protocol fees of the funding week + protocol incentive (+ entries, always 0 for now). */
export function estimatePool(input: { protocolFeesMicro: bigint; incentiveMicro: bigint }): PoolEstimate {
  const entriesMicro = 0n;
  return {
    estimatedMicro: input.protocolFeesMicro + input.incentiveMicro + entriesMicro,
    protocolFeesMicro: input.protocolFeesMicro,
    incentiveMicro: input.incentiveMicro,
    entriesMicro,
  };
}
