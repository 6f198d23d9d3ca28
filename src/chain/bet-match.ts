/**
 * Matches the BetPlaced logs of a transaction against a reported bet.
 *
 * Contract:
 * - The first log equal to the report in every field (bettor, eventId, outcome, amount, odds) backs the bet.
 * - Otherwise the answer is a reason naming what differs, taken from the first log placed by the reporting wallet
 *   (or, when none is, naming the wallet that placed the bet), so a player can tell what they got wrong.
 * - Addresses compare case-insensitively and are shown checksummed. Pure: no I/O.
 */
import { getAddress, type Hex } from "viem";
import { formatOdds, formatUsdc } from "../shared/money.js";

export interface PlacedBet {
  logIndex: number;
  bettor: string;
  eventId: Hex;
  outcome: number;
  amount: bigint;
  odds: bigint;
}

export interface ExpectedBet {
  contract: string;
  bettorLower: string;
  /** For messages: the service's event id, market and outcome keys. */
  event: string;
  market: string;
  outcomeKey: string;
  eventId: Hex;
  outcome: number;
  amount: bigint;
  odds: bigint;
}

export function matchPlacedBet(
  bets: PlacedBet[],
  expected: ExpectedBet,
): { logIndex: number } | { reason: string } {
  if (bets.length === 0) {
    return {
      reason: `the transaction has no BetPlaced event of the betting contract ${getAddress(expected.contract)}`,
    };
  }
  const exact = bets.find((b) => mismatches(b, expected).length === 0);
  if (exact) return { logIndex: exact.logIndex };
  const own = bets.find((b) => b.bettor.toLowerCase() === expected.bettorLower);
  if (!own) {
    return {
      reason: `the bet was placed by ${getAddress(bets[0]!.bettor)}, not by the signed-in wallet ${getAddress(expected.bettorLower)}`,
    };
  }
  return { reason: mismatches(own, expected).join("; ") };
}

function mismatches(bet: PlacedBet, expected: ExpectedBet): string[] {
  const found: string[] = [];
  if (bet.bettor.toLowerCase() !== expected.bettorLower) found.push("placed by another wallet");
  if (bet.eventId.toLowerCase() !== expected.eventId.toLowerCase()) {
    found.push(`the bet is on another event or market than ${expected.event}/${expected.market}`);
  }
  if (bet.outcome !== expected.outcome) {
    found.push(
      `outcome index ${bet.outcome} on-chain, but ${expected.outcomeKey} is index ${expected.outcome}`,
    );
  }
  if (bet.amount !== expected.amount) {
    found.push(`stake ${formatUsdc(bet.amount)} USDC on-chain, reported ${formatUsdc(expected.amount)}`);
  }
  if (bet.odds !== expected.odds) {
    found.push(`odds ${formatOdds(bet.odds)} on-chain, reported ${formatOdds(expected.odds)}`);
  }
  return found;
}
