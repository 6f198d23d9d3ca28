/**
 * When a failed webhook message is tried again (SPEC §11): about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h after the
 * 1st … 6th failed attempt; the 7th failure is final (`failed`).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
];

/** The delay before the next attempt after `attempts` failed attempts; null when there is none left. */
export function nextRetryDelayMs(
  attempts: number,
  schedule: readonly number[] = RETRY_DELAYS_MS,
): number | null {
  return attempts >= 1 && attempts <= schedule.length ? schedule[attempts - 1]! : null;
}
