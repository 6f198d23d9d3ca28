/**
 * What a player needs, from the numbers the competition API gives: the SP still missing to reach a ladder's line,
 * and how a rank moved since the previous week. Pure functions.
 */

/**
 * SP still needed to reach a line drawn at `lineSp` (the SP at rank N; ties at the line are inside it, so
 * reaching `lineSp` is enough): 0 when already there, null when there is no line (fewer than N players ranked —
 * any competitive SP then gets the player inside).
 */
export function spToReach(mySp: number, lineSp: number | null): number | null {
  if (lineSp === null) return null;
  return Math.max(0, lineSp - mySp);
}

export type Movement =
  | { kind: "up" | "down"; places: number }
  | { kind: "same" }
  | { kind: "new" }
  | { kind: "none" };

/** How a rank moved since the previous week (a lower rank number is better). */
export function rankMovement(previousRank: number | null, rank: number | null): Movement {
  if (rank === null) return { kind: "none" };
  if (previousRank === null) return { kind: "new" };
  if (rank < previousRank) return { kind: "up", places: previousRank - rank };
  if (rank > previousRank) return { kind: "down", places: rank - previousRank };
  return { kind: "same" };
}

/** The SP at a 1-based position of a ladder's first rows (the position of a line, like cutoffSp), or null. */
export const spAtPosition = (rows: { competitiveSp: number }[], position: number): number | null =>
  rows[position - 1]?.competitiveSp ?? null;
