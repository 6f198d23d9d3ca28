/**
 * Odds arithmetic of the bet slip, exact like the server's (SPEC conventions): decimal odds are integer
 * thousandths, and every `floor(stake × odds)` is `floor(stake × oddsMilli / 1000)` in integers.
 */

/** Decimal odds (at most 3 decimals, as the API sends them) in thousandths: 2.15 → 2150; null if malformed. */
export function oddsToMilli(odds: number): bigint | null {
  const m = /^(\d+)(?:\.(\d{1,3}))?$/.exec(String(odds));
  if (!m) return null;
  return BigInt(m[1]!) * 1000n + BigInt((m[2] ?? "").padEnd(3, "0"));
}

/** `2.15` → `"2.15"`, `3.4` → `"3.40"`: odds shown with at least two decimals, as bookmakers do. */
export function formatOdds(odds: number): string {
  const milli = oddsToMilli(odds);
  if (milli === null) return String(odds);
  const whole = milli / 1000n;
  const frac = (milli % 1000n).toString().padStart(3, "0");
  return `${whole}.${frac.endsWith("0") ? frac.slice(0, 2) : frac}`;
}

/** What a won free-credit bet pays (credits, stake included) and earns (SP): floor(stake × odds). */
export function winningsOf(stake: number, odds: number): number | null {
  const milli = oddsToMilli(odds);
  if (milli === null || !Number.isSafeInteger(stake) || stake < 0) return null;
  return Number((BigInt(stake) * milli) / 1000n);
}

/** What a won USDC bet pays back, stake included, in micro-USDC: floor(stake × odds). */
export function usdcWinningsOf(stakeMicro: bigint, odds: number): bigint | null {
  const milli = oddsToMilli(odds);
  return milli === null ? null : (stakeMicro * milli) / 1000n;
}
