/**
 * Rules of version-2 (on-chain) bets, pure: the quote a player gets, whether a bet found on-chain counts, and
 * whether a player's report describes a bet found on-chain.
 *
 * Contract:
 * - `quoteExpiry`: a quote issued at `now` lasts `ttlSeconds`, but its expiry (the last unix second a block may
 *   carry) is always before kickoff.
 * - `judgeChainBet`: a BetPlaced log counts ("open") only when it was placed with a quote this service issued
 *   (its digest is stored) and signed by the quote's signer, at the quote's odds, outcome and market, by the
 *   quote's bettor, mined no later than the quote's expiry and before betting on the event closed (its kickoff,
 *   or earlier when its status changed or its result was posted: events/betting-window.ts), on an outcome the event
 *   still has, with a stake the service stores and SP that stay exact: at most MAX_STAKE_MICRO staked and at most
 *   MAX_BET_SP won. Otherwise it is rejected with the first reason found: a machine code (REJECT_CODES) and words.
 * - `matchReport`: the bet a `bet-placed-v2` report describes among the transaction's bets: one of the reporting
 *   wallet's bets equal to the report in event, market, outcome, stake and odds; otherwise why not (another
 *   wallet's bet, or the differences from the wallet's own bet).
 * - Amounts are integers: micro-USDC, odds in thousandths, SP. No I/O, no clock.
 */
import { getAddress } from "viem";
import type { StoredMarket } from "../events/events.js";
import { formatOdds, formatUsdc } from "../shared/money.js";
import type { RejectCode, Rejection } from "./rejection.js";
import { usdcPredictionSp } from "./settlement.js";

/** One million USDC: the largest stake a bet may count with. */
export const MAX_STAKE_MICRO = 10n ** 12n;
/** The most SP one bet may earn: far below 2^53, so a player's totals stay exact over thousands of bets. */
export const MAX_BET_SP = 10 ** 12;

/**
 * Why a v2 stake at these odds cannot count, or null: it must be in (0, MAX_STAKE_MICRO] and a win must earn at
 * most MAX_BET_SP (so its payout, at most 10^12 × 10^6 micro-USDC, and its SP always fit storage).
 */
export function stakeProblem(stakeMicro: bigint, oddsMilli: bigint, spPerUsdc: number): string | null {
  if (stakeMicro <= 0n || stakeMicro > MAX_STAKE_MICRO) {
    return `stake ${formatUsdc(stakeMicro)} USDC is outside the 0.000001 to 1000000 USDC a bet counts with`;
  }
  if (usdcPredictionSp(stakeMicro, oddsMilli, spPerUsdc, "won") > MAX_BET_SP) {
    return `a win would earn more than the ${MAX_BET_SP} SP one bet may earn`;
  }
  return null;
}

export type Verdict = { status: "open" } | ({ status: "rejected" } & Rejection);

/** The quote's expiry in unix seconds: now + ttl, but at the latest the last whole second before kickoff. */
export function quoteExpiry(now: Date, kickoffAt: Date, ttlSeconds: number): bigint {
  const byTtl = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const beforeKickoff = Math.ceil(kickoffAt.getTime() / 1000) - 1;
  return BigInt(Math.min(byTtl, beforeKickoff));
}

export interface StoredQuote {
  bettor: string;
  signer: string;
  marketId: string;
  outcome: string;
  outcomeIndex: number;
  oddsMilli: bigint;
  market: string;
  expiresAt: Date;
}

export interface PlacedLog {
  bettor: string;
  /** Lower-case address recovered from the log's signature over its quote fields; null when malformed. */
  signer: string | null;
  marketId: string;
  outcomeIndex: number;
  amount: bigint;
  odds: bigint;
  expiry: bigint;
  minedAt: Date;
}

export function judgeChainBet(input: {
  quote: StoredQuote;
  log: PlacedLog;
  /** `closesAt`: when betting on the event closed (events/betting-window.ts bettingClosesAt). */
  event: { closesAt: Date; markets: StoredMarket[] };
  spPerUsdc: number;
}): Verdict {
  const { quote, log, event } = input;
  const reject = (code: RejectCode, reason: string): Verdict => ({ status: "rejected", code, reason });
  if (log.signer === null || log.signer !== quote.signer.toLowerCase()) {
    return reject("QUOTE_INVALID", "the bet's quote signature is not the service's odds signer's");
  }
  if (
    log.bettor.toLowerCase() !== quote.bettor.toLowerCase() ||
    log.marketId.toLowerCase() !== quote.marketId.toLowerCase() ||
    log.outcomeIndex !== quote.outcomeIndex ||
    log.odds !== quote.oddsMilli ||
    log.expiry * 1000n !== BigInt(quote.expiresAt.getTime())
  ) {
    return reject("QUOTE_INVALID", "the bet differs from the quote it was placed with");
  }
  const minedSeconds = BigInt(Math.floor(log.minedAt.getTime() / 1000));
  if (minedSeconds > log.expiry) {
    return reject(
      "QUOTE_EXPIRED",
      `the bet was mined at ${log.minedAt.toISOString()}, after its quote expired`,
    );
  }
  if (log.minedAt.getTime() >= event.closesAt.getTime()) {
    return reject(
      "EVENT_CLOSED",
      `the bet was mined at ${log.minedAt.toISOString()}, once betting on the event had closed at ${event.closesAt.toISOString()}`,
    );
  }
  const market = event.markets.find((m) => m.key === quote.market);
  if (!market?.outcomes.some((o) => o.key === quote.outcome)) {
    return reject(
      "OUTCOME_UNAVAILABLE",
      `the event no longer has outcome ${quote.outcome} in market ${quote.market}`,
    );
  }
  const problem = stakeProblem(log.amount, log.odds, input.spPerUsdc);
  return problem ? reject("STAKE_LIMIT", problem) : { status: "open" };
}

export interface ReportedBet {
  eventId: string;
  market: string;
  outcome: string;
  stakeMicro: bigint;
  oddsMilli: bigint;
}

export interface FoundBet extends ReportedBet {
  walletLower: string;
}

export type ReportMatch<T> = { bet: T } | { otherWallet: string } | { differences: string[] };

export function matchReport<T extends FoundBet>(
  bets: readonly T[],
  report: ReportedBet,
  walletLower: string,
): ReportMatch<T> {
  const own = bets.filter((b) => b.walletLower === walletLower);
  if (own.length === 0) return { otherWallet: getAddress(bets[0]!.walletLower) };
  const exact = own.find((b) => differences(b, report).length === 0);
  return exact ? { bet: exact } : { differences: differences(own[0]!, report) };
}

function differences(bet: ReportedBet, report: ReportedBet): string[] {
  const found: string[] = [];
  if (bet.eventId !== report.eventId || bet.market !== report.market) {
    found.push(`the bet is on ${bet.eventId}/${bet.market}, reported ${report.eventId}/${report.market}`);
  } else if (bet.outcome !== report.outcome) {
    found.push(`outcome ${bet.outcome} on-chain, reported ${report.outcome}`);
  }
  if (bet.stakeMicro !== report.stakeMicro) {
    found.push(
      `stake ${formatUsdc(bet.stakeMicro)} USDC on-chain, reported ${formatUsdc(report.stakeMicro)}`,
    );
  }
  if (bet.oddsMilli !== report.oddsMilli) {
    found.push(`odds ${formatOdds(bet.oddsMilli)} on-chain, reported ${formatOdds(report.oddsMilli)}`);
  }
  return found;
}
