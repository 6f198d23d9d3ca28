/**
 * Money and odds as exact integers (SPEC conventions).
 *
 * Contract:
 * - USDC amounts are bigint micro-USDC (10^-6) in arithmetic and storage, and decimal strings with exactly
 *   6 decimals in JSON ("1234.500000"). Parsing is strict: `USDC_PATTERN`, no sign, no exponent, no spaces,
 *   at most 12 integer digits and 6 decimals, so a parsed amount is at most 10^18 − 1 micro-USDC and always fits
 *   a 64-bit column (sums of amounts are stored as `numeric`).
 * - Odds are decimal odds with at most 3 decimals, ≥ 1.001, held as bigint thousandths ("2.15" → 2150n).
 *   They are parsed from their decimal text only, never through float arithmetic.
 * - `mulOddsFloor` is the one place a stake meets odds: floor(amount × oddsMilli / 1000), exact.
 * - Invalid input throws RangeError; the HTTP edge validates by schema first, so this is a last line of defence.
 * - Pure: no I/O.
 */

const MICRO_PER_USDC = 1_000_000n;
const MILLI_PER_UNIT = 1000n;
const MIN_ODDS_MILLI = 1001n;

/** Regex source for a USDC amount string, for JSON schemas. */
export const USDC_PATTERN = "^\\d{1,12}(\\.\\d{1,6})?$";
/** Regex source for decimal odds text (range ≥ 1.001 is checked separately), for JSON schemas. */
export const ODDS_PATTERN = "^\\d{1,6}(\\.\\d{1,3})?$";

const USDC_RE = new RegExp(USDC_PATTERN);
const ODDS_RE = new RegExp(ODDS_PATTERN);

/** "1234.500000" for 1234500000n; negative amounts get a leading "-". */
export function formatUsdc(micro: bigint): string {
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = abs / MICRO_PER_USDC;
  const frac = (abs % MICRO_PER_USDC).toString().padStart(6, "0");
  return `${negative ? "-" : ""}${whole}.${frac}`;
}

/** Strict parse of a non-negative USDC decimal string into micro-USDC. */
export function parseUsdc(s: string): bigint {
  if (typeof s !== "string" || !USDC_RE.test(s)) {
    throw new RangeError(`invalid USDC amount: ${JSON.stringify(s)}`);
  }
  const [whole = "", frac = ""] = s.split(".");
  return BigInt(whole) * MICRO_PER_USDC + BigInt(frac.padEnd(6, "0"));
}

/** floor(amount × oddsMilli / 1000), exact (rounds towards −∞ for negative products too). */
export function mulOddsFloor(amount: bigint, oddsMilli: bigint): bigint {
  const product = amount * oddsMilli;
  const quotient = product / MILLI_PER_UNIT;
  return product % MILLI_PER_UNIT < 0n ? quotient - 1n : quotient;
}

/**
 * Decimal odds → thousandths. A number is read through its shortest decimal form (`String(2.15)` is "2.15"),
 * so 2.15 → 2150n exactly; forms with an exponent, more than 3 decimals, or a value under 1.001 are rejected.
 */
export function parseOddsMilli(s: string | number): bigint {
  let text: string;
  if (typeof s === "number") text = String(s);
  else if (typeof s === "string") text = s;
  else throw new RangeError(`invalid odds: ${String(s)}`);
  if (!ODDS_RE.test(text)) throw new RangeError(`invalid odds: ${JSON.stringify(text)}`);
  const [whole = "", frac = ""] = text.split(".");
  const milli = BigInt(whole) * MILLI_PER_UNIT + BigInt(frac.padEnd(3, "0"));
  if (milli < MIN_ODDS_MILLI) throw new RangeError(`odds must be at least 1.001, got ${text}`);
  return milli;
}

/** Odds for JSON display only (2150n → 2.15); never compute with the result. */
export function formatOdds(milli: bigint): number {
  return Number(milli) / 1000;
}
