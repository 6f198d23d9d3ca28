/**
 * Champions prize split (SPEC §4): the top 5 of a week's Champions ladder share the week's pool.
 *
 * Contract:
 * - Input is the Champions ladder as produced by `rankLadder` (ladder order, "1224" ranks, eligible players only).
 * - Rank r ≤ 5 is worth PRIZE_SPLIT_PCT[r−1] % of the pool. The `splitAmong` players holding rank r each get
 *   floor(pool × pct / (100 × splitAmong)) micro-USDC. `rankPct` is the full percentage of the rank, before the
 *   split.
 * - A rank nobody holds (rank 2 after a two-way tie at rank 1) is not paid. Its percentage, rounding dust and the
 *   whole pool when nobody plays are undistributed: distributed + undistributed = pool, always.
 * - Prize rows come in ladder order. With a pool of 0 the paid ranks still get rows, with amount 0.
 * - All money is bigint micro-USDC; a negative pool is a programming error (RangeError). Pure: no I/O.
 */
import { PAID_RANKS, type RankedEntry } from "./ranking.js";

export const PRIZE_SPLIT_PCT = [35, 30, 20, 10, 5] as const;

export interface PrizeRow {
  rank: number;
  userId: string;
  sp: number;
  rankPct: number;
  splitAmong: number;
  amountMicro: bigint;
}

export interface PrizeSplit {
  prizes: PrizeRow[];
  distributedMicro: bigint;
  undistributedMicro: bigint;
}

/** Splits `poolMicro` among the paid ranks of the Champions ladder. */
export function splitPrizes(champions: readonly RankedEntry[], poolMicro: bigint): PrizeSplit {
  if (poolMicro < 0n) throw new RangeError("prize pool must not be negative");
  const holders = new Map<number, number>();
  for (const entry of champions) holders.set(entry.rank, (holders.get(entry.rank) ?? 0) + 1);

  const prizes: PrizeRow[] = [];
  let distributedMicro = 0n;
  for (const entry of champions) {
    if (entry.rank < 1 || entry.rank > PAID_RANKS) continue;
    const rankPct = PRIZE_SPLIT_PCT[entry.rank - 1] as number;
    const splitAmong = holders.get(entry.rank) as number;
    const amountMicro = (poolMicro * BigInt(rankPct)) / (100n * BigInt(splitAmong));
    distributedMicro += amountMicro;
    prizes.push({ rank: entry.rank, userId: entry.userId, sp: entry.sp, rankPct, splitAmong, amountMicro });
  }
  return { prizes, distributedMicro, undistributedMicro: poolMicro - distributedMicro };
}

/** The prize of `userId`, or null when they hold no paid rank. */
export function projectedPrizeFor(prizes: readonly PrizeRow[], userId: string): bigint | null {
  return prizes.find((p) => p.userId === userId)?.amountMicro ?? null;
}
