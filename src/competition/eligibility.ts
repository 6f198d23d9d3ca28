/**
 * Champions eligibility (SPEC §4): who may play the Champions ladder of week W+1, derived from week W.
 *
 * Contract:
 * - Qualification rank ≤ 25 (plus ties) in week W ⇒ eligible via "qualification". This takes precedence when
 *   both routes apply.
 * - Otherwise, for a week with a Champions ladder (`isChampionsEnabled`) only: eligible for week W AND Champions
 *   rank ≤ 10 (plus ties) in week W ⇒ eligible via "champions". Champions entries of users not in
 *   `eligibleThisWeek` are ignored (defensive: the Champions ladder should only ever hold eligible players).
 * - For a week without a Champions ladder `champions` is ignored: the week after draws only from Qualification.
 * - Everyone else is not eligible (absent from the result).
 * - The result lists qualifiers in Qualification ladder order, then retained players in Champions ladder order.
 * - Pure: no I/O, inputs not mutated.
 */
import { isChampionsEnabled } from "../shared/season.js";
import { CHAMPIONS_CUTOFF, QUALIFICATION_CUTOFF, type RankedEntry, withinCutoff } from "./ranking.js";

export type EligibleVia = "qualification" | "champions";

export interface NextWeekEligibilityInput {
  /** The week W whose results decide eligibility for W+1. */
  week: number;
  /** Qualification ladder of week W (from `rankLadder`). */
  qualification: readonly RankedEntry[];
  /** Champions ladder of week W; null (or ignored) for week 0. */
  champions: readonly RankedEntry[] | null;
  /** Users eligible for Champions week W. */
  eligibleThisWeek: ReadonlySet<string>;
}

/** Users eligible for Champions week `week + 1`, with the route that made them eligible. */
export function nextWeekEligibility(input: NextWeekEligibilityInput): Map<string, EligibleVia> {
  const next = new Map<string, EligibleVia>();
  for (const entry of input.qualification) {
    if (withinCutoff(entry.rank, QUALIFICATION_CUTOFF)) next.set(entry.userId, "qualification");
  }
  if (isChampionsEnabled(input.week) && input.champions !== null) {
    for (const entry of input.champions) {
      if (next.has(entry.userId)) continue;
      if (!input.eligibleThisWeek.has(entry.userId)) continue;
      if (withinCutoff(entry.rank, CHAMPIONS_CUTOFF)) next.set(entry.userId, "champions");
    }
  }
  return next;
}
