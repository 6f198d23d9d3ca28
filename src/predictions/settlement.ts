/**
 * Settlement rules (SPEC §3, §6), pure: how a prediction ends given its event's result, what it pays and what
 * SP it earns. All arithmetic is integer: odds in thousandths, USDC in micro-units, floors exact.
 *
 * - cancelled event ⇒ void; finished ⇒ won when the prediction's outcome is its market's winner, lost when the
 *   market has another winner, void when the result names no winner for that market.
 * - v1 (credits): won pays and earns floor(stake × odds); void refunds the stake and earns 0; lost pays 0.
 * - v2 (USDC): won pays floor(stakeMicro × odds); void refunds; SP = floor(stakeUsdc × SP_PER_USDC × odds),
 *   computed as one floor over micro-units: floor(stakeMicro × spPerUsdc × oddsMilli / 10⁹).
 * - A v2 bet mined at or after betting on its event closed (`lateChainBet`) is not settled but rejected
 *   (EVENT_CLOSED): it earns nothing and only its stake is owed back, whatever its quote said.
 */
import { mulOddsFloor } from "../shared/money.js";
import type { Rejection } from "./rejection.js";

export type EventResult = { status: "finished"; winners: Record<string, string> } | { status: "cancelled" };
export type SettledStatus = "won" | "lost" | "void";

export function settledStatus(p: { market: string; outcome: string }, result: EventResult): SettledStatus {
  if (result.status === "cancelled") return "void";
  const winner = result.winners[p.market];
  if (winner === undefined) return "void";
  return winner === p.outcome ? "won" : "lost";
}

/** Why a v2 bet placed at `placedAt` cannot count when betting closed at `closesAt`; null when it can. */
export function lateChainBet(p: { version: number; placedAt: Date }, closesAt: Date): Rejection | null {
  if (p.version !== 2 || p.placedAt.getTime() < closesAt.getTime()) return null;
  return {
    code: "EVENT_CLOSED",
    reason: `the bet was mined at ${p.placedAt.toISOString()}, once betting on the event had closed at ${closesAt.toISOString()}`,
  };
}

/** Credits paid back for a v1 prediction (won: stake × odds floored; void: the stake; lost: 0). */
export function creditsPayout(stake: number, oddsMilli: bigint, status: SettledStatus): number {
  if (status === "won") return Number(mulOddsFloor(BigInt(stake), oddsMilli));
  return status === "void" ? stake : 0;
}

/** Micro-USDC paid back for a v2 prediction. */
export function usdcPayout(stakeMicro: bigint, oddsMilli: bigint, status: SettledStatus): bigint {
  if (status === "won") return mulOddsFloor(stakeMicro, oddsMilli);
  return status === "void" ? stakeMicro : 0n;
}

/** SP a won v1 prediction earns: floor(stake × odds). */
export function creditsPredictionSp(stake: number, oddsMilli: bigint, status: SettledStatus): number {
  return status === "won" ? Number(mulOddsFloor(BigInt(stake), oddsMilli)) : 0;
}

/** SP a won v2 prediction earns: floor(stakeUsdc × spPerUsdc × odds), exact over micro-USDC. */
export function usdcPredictionSp(
  stakeMicro: bigint,
  oddsMilli: bigint,
  spPerUsdc: number,
  status: SettledStatus,
): number {
  if (status !== "won") return 0;
  return Number((stakeMicro * BigInt(spPerUsdc) * oddsMilli) / 1_000_000_000n);
}
