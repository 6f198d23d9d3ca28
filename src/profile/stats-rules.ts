/**
 * Profile statistics rules, pure: win rate and win streaks over settled predictions.
 * - winRate = won / (won + lost), rounded to 4 decimals; 0 when nothing is won or lost. Voids do not count.
 * - Streaks run over won/lost results in settlement order (voids skipped): `current` is the run of wins at the
 *   end, `best` the longest run of wins anywhere.
 */
export function winRate(won: number, lost: number): number {
  const settled = won + lost;
  if (settled === 0) return 0;
  // Integer rounding first, so the only float is the final display value.
  return Math.round((won * 10_000) / settled) / 10_000;
}

export function winStreaks(results: ReadonlyArray<"won" | "lost">): { current: number; best: number } {
  let current = 0;
  let best = 0;
  for (const r of results) {
    current = r === "won" ? current + 1 : 0;
    if (current > best) best = current;
  }
  return { current, best };
}
