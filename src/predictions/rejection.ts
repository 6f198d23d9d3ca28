/** Why a version-2 prediction was rejected: a machine code (SPEC §10) and the words for a player. Pure. */

/** Machine codes of a rejected prediction (SPEC §10), beside the words in `reason`. */
export const REJECT_CODES = [
  "EVENT_CLOSED",
  "QUOTE_INVALID",
  "QUOTE_EXPIRED",
  "OUTCOME_UNAVAILABLE",
  "STAKE_LIMIT",
  "REORGANISED",
] as const;
export type RejectCode = (typeof REJECT_CODES)[number];
export interface Rejection {
  code: RejectCode;
  reason: string;
}
