/** Display helpers. USDC amounts are shown exactly as the API sends them (6-decimal strings), never re-rounded. */

const spFormat = new Intl.NumberFormat("en-US");

export const formatNumber = (n: number): string => spFormat.format(n);

export const formatSp = (sp: number): string => `${formatNumber(sp)} SP`;

export const formatUsdc = (amount: string): string => `${amount} USDC`;

const dayFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** `Nov 17, 00:00 UTC`: all competition times are UTC (SPEC conventions). */
export const formatInstant = (iso: string): string => `${dayFormat.format(new Date(iso))} UTC`;

const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** `Nov 10 – Nov 16`: a week's [start, end) as inclusive days. */
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
