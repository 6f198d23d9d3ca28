/**
 * The bet slip's arithmetic and checks, pure: several selections placed together as singles, each with its stake
 * in whole free credits. What a line returns is floor(stake × odds) in integers (odds.ts, as the server computes
 * it), its profit the return less the stake. Everything the server would refuse for the slip's own numbers is
 * refused here first, before any request: a stake that is not a whole number of credits, over the per-bet maximum,
 * or stakes adding up to more than the balance. A price that changed since the player saw it is never taken
 * silently: the line waits for "accept", unless it got better and the player said to always accept better odds.
 */
import { formatCredits, formatNumber } from "../format";
import { oddsToMilli, winningsOf } from "./odds";

/** The most one free-credit bet may stake (the API's limit on `stake`). */
export const MAX_STAKE_CREDITS = 1_000_000_000;

/** A stake as typed: a whole number of credits, or null. */
export function parseStake(raw: string): number | null {
  const s = raw.trim();
  return /^\d{1,10}$/.test(s) ? Number(s) : null;
}

export type PriceChange =
  | { kind: "same" }
  /** Better odds taken on the player's standing instruction ("always accept better odds"). */
  | { kind: "taken"; from: number; to: number }
  /** The price moved: the line waits for the player's "accept". */
  | { kind: "ask"; from: number; to: number }
  /** The outcome is no longer offered (market removed or event closed). */
  | { kind: "gone" };

/** How the price the player accepted compares with the one the server offers now (undefined: not offered). */
export function priceChange(
  accepted: number,
  current: number | undefined,
  acceptBetter: boolean,
): PriceChange {
  if (current === undefined) return { kind: "gone" };
  if (current === accepted) return { kind: "same" };
  const better = (oddsToMilli(current) ?? 0n) > (oddsToMilli(accepted) ?? 0n);
  return better && acceptBetter
    ? { kind: "taken", from: accepted, to: current }
    : { kind: "ask", from: accepted, to: current };
}

export interface LineInput {
  stake: string;
  /** The odds the bet is placed at: the ones the player accepted. */
  odds: number;
  /** The price waits for "accept" or is gone. */
  blocked: boolean;
}

export interface LineCheck {
  stake: number | null;
  /** floor(stake × odds), stake included; null without a valid stake. */
  returns: number | null;
  profit: number | null;
  problem: string | null;
}

export interface SlipCheck {
  lines: LineCheck[];
  totalStake: number;
  totalReturns: number;
  /** Why the slip cannot be placed as it is (the first reason), or null. */
  problem: string | null;
}

export function checkLine(line: LineInput): LineCheck {
  const stake = parseStake(line.stake);
  if (stake === null || stake < 1) {
    return {
      stake: null,
      returns: null,
      profit: null,
      problem: "Enter a whole number of credits (at least 1).",
    };
  }
  if (stake > MAX_STAKE_CREDITS) {
    return {
      stake,
      returns: null,
      profit: null,
      problem: `The most one bet may stake is ${formatCredits(MAX_STAKE_CREDITS)}.`,
    };
  }
  const returns = winningsOf(stake, line.odds);
  return { stake, returns, profit: returns === null ? null : returns - stake, problem: null };
}

/** Every line checked, the totals, and whether the balance covers them (balance null: not known yet). */
export function checkSlip(lines: LineInput[], balance: number | null): SlipCheck {
  const checked = lines.map(checkLine);
  const totalStake = checked.reduce((s, l) => s + (l.stake ?? 0), 0);
  const totalReturns = checked.reduce((s, l) => s + (l.returns ?? 0), 0);
  let problem: string | null = null;
  if (lines.length === 0) problem = "Pick an outcome to add it to the slip.";
  else if (checked.some((l) => l.problem)) problem = "Check the stakes marked in the slip.";
  else if (lines.some((l) => l.blocked))
    problem = "A price changed: accept the new odds or remove that selection.";
  else if (balance !== null && totalStake > balance) {
    problem = `Your stakes total ${formatCredits(totalStake)}; you have ${formatCredits(balance)}.`;
  }
  return { lines: checked, totalStake, totalReturns, problem };
}

/** `Returns 215 credits (profit 115)`. */
export const describeReturn = (returns: number, profit: number): string =>
  `Returns ${formatCredits(returns)} (profit ${formatNumber(profit)})`;
