/** The demo's competition season, placed around the day `npm run demo` starts (pure). */

const DAY_MS = 86_400_000;

/** A season around `now`: week 1 began on the Tuesday two to three weeks ago, the 8-day opening week before it. */
export function demoSeason(now: Date): { seasonStart: string; weekOneStart: string } {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const sinceTuesday = (new Date(midnight).getUTCDay() + 5) % 7; // Tue → 0, Wed → 1, … Mon → 6
  const weekOne = midnight - (sinceTuesday + 14) * DAY_MS;
  return {
    seasonStart: new Date(weekOne - 8 * DAY_MS).toISOString(),
    weekOneStart: new Date(weekOne).toISOString(),
  };
}
