/**
 * Odds as the player chose to read them (kept in localStorage): decimal `2.15`, fractional `23/20`, American
 * `+115`. All from the integer thousandths of the decimal odds, never a float: fractional is (odds − 1) reduced,
 * American is +100 × (odds − 1) from evens up and −100 / (odds − 1) below, rounded to the nearest whole number
 * (halves away from zero), as bookmakers print them.
 */
import { formatOdds, oddsToMilli } from "./odds";

export type OddsFormat = "decimal" | "fractional" | "american";

export const ODDS_FORMATS: { value: OddsFormat; label: string; example: string }[] = [
  { value: "decimal", label: "Decimal", example: "2.15" },
  { value: "fractional", label: "Fractional", example: "23/20" },
  { value: "american", label: "American", example: "+115" },
];

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));

/** Integer division rounded to the nearest, halves away from zero (both operands positive). */
const roundDiv = (n: bigint, d: bigint): bigint => (2n * n + d) / (2n * d);

export function formatOddsAs(odds: number, format: OddsFormat): string {
  const milli = oddsToMilli(odds);
  if (format === "decimal" || milli === null || milli <= 1000n) return formatOdds(odds);
  const profit = milli - 1000n; // (odds − 1) in thousandths
  if (format === "fractional") {
    const g = gcd(profit, 1000n);
    return `${profit / g}/${1000n / g}`;
  }
  if (profit >= 1000n) return `+${roundDiv(profit, 10n)}`; // 100 × profit / 1000
  return `-${roundDiv(100_000n, profit)}`; // 100 / (profit / 1000)
}

const KEY = "sp-competition.odds-format";

export function storedOddsFormat(): OddsFormat {
  try {
    const v = localStorage.getItem(KEY);
    return v === "fractional" || v === "american" ? v : "decimal";
  } catch {
    return "decimal";
  }
}

export function rememberOddsFormat(format: OddsFormat): void {
  try {
    localStorage.setItem(KEY, format);
  } catch {
    // Storage disabled: the choice lasts for this page only.
  }
}
