/**
 * Display helpers. USDC arrives as decimal strings with 6 decimals and is shown as money (`$2,600.50`) with the
 * exact amount kept for a tooltip; it is never turned into a float. Times are shown in the player's time zone,
 * with the UTC instant kept for a tooltip.
 */

const integerFormat = new Intl.NumberFormat("en-US");

export const formatNumber = (n: number): string => integerFormat.format(n);

export const formatSp = (sp: number): string => `${formatNumber(sp)} SP`;

export const formatCredits = (credits: number): string =>
  `${formatNumber(credits)} credit${credits === 1 ? "" : "s"}`;

/** `1234567` → `1,234,567`, for digit strings of any length (no float on the way). */
function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A USDC amount as money: `"2600.500000"` → `$2,600.50`. Cents are truncated, never rounded up, so the page
 * never shows more than the amount; a positive amount under one cent reads `<$0.01`. Malformed input is
 * returned unchanged.
 */
export function formatUsdc(amount: string): string {
  const m = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!m) return amount;
  const [, sign, whole, frac = ""] = m;
  const cents = frac.padEnd(6, "0").slice(0, 2);
  const wholeDigits = whole!.replace(/^0+(?=\d)/, "");
  if (wholeDigits === "0" && cents === "00" && /[1-9]/.test(frac)) return sign ? "-<$0.01" : "<$0.01";
  const negative = sign === "-" && /[1-9]/.test(wholeDigits + cents);
  return `${negative ? "-" : ""}$${groupDigits(wholeDigits)}.${cents}`;
}

/** The exact amount for a tooltip: `"2600.500000"` → `2,600.500000 USDC`. */
export function exactUsdc(amount: string): string {
  const m = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!m) return `${amount} USDC`;
  const [, sign, whole, frac = ""] = m;
  return `${sign}${groupDigits(whole!.replace(/^0+(?=\d)/, ""))}.${frac.padEnd(6, "0")} USDC`;
}

/**
 * Micro-USDC (an integer as bigint) as the API's 6-decimal string: `2_600_500_000n` → `"2600.500000"`. Used to
 * turn a stake typed by the player into the exact amount sent to the wallet and the API.
 */
export function microToUsdc(micro: bigint): string {
  const sign = micro < 0n ? "-" : "";
  const abs = micro < 0n ? -micro : micro;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, "0")}`;
}

/** A typed USDC amount (`"12.5"`, `"0.25"`, up to 6 decimals) in micro-USDC, or null when it is not one. */
export function parseUsdcInput(raw: string): bigint | null {
  const m = /^(\d{1,12})(?:\.(\d{0,6}))?$/.exec(raw.trim());
  if (!m) return null;
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"));
}

const localOptions: Intl.DateTimeFormatOptions = {
  weekday: "short",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZoneName: "short",
};
const localFormat = new Intl.DateTimeFormat("en-US", localOptions);

const utcFormat = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/**
 * `Wed, Nov 25, 19:00 GMT+1`: in the player's time zone, with the zone named (`timeZone` for tests; default the
 * browser's).
 */
export const formatLocal = (iso: string, timeZone?: string): string =>
  (timeZone ? new Intl.DateTimeFormat("en-US", { ...localOptions, timeZone }) : localFormat).format(
    new Date(iso),
  );

/** `Wed, Nov 25, 2026, 18:00 UTC`, for the tooltip of a local time. */
export const formatUtc = (iso: string): string => `${utcFormat.format(new Date(iso))} UTC`;

const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** `Nov 10 – Nov 16`: a week's [start, end) as inclusive UTC days (weeks are UTC calendar weeks). */
export function formatWeekSpan(startsAt: string, endsAt: string): string {
  const lastDay = new Date(new Date(endsAt).getTime() - 1);
  return `${shortDay.format(new Date(startsAt))} – ${shortDay.format(lastDay)}`;
}

/** `3d 04h 05m 06s` for a positive number of seconds. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86_400);
  const pad = (n: number) => String(n).padStart(2, "0");
  const hms = `${pad(Math.floor((s % 86_400) / 3600))}h ${pad(Math.floor((s % 3600) / 60))}m ${pad(s % 60)}s`;
  return days > 0 ? `${days}d ${hms}` : hms;
}

/** `0xAbCd…1234`. */
export const shortWallet = (wallet: string): string => `${wallet.slice(0, 6)}…${wallet.slice(-4)}`;

/** `1st`, `2nd`, `23rd`, `11th`. */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}
