/**
 * The SP ledger's types (SPEC §3), the vocabulary every capability shares: which exist (`SP_TYPES`) and which
 * count on the weekly ladders (`COMPETITIVE_SP_TYPES`, the allowlist). REFERRAL, RAFFLE and ADJUSTMENT never count.
 * Pure: no I/O.
 */

export const COMPETITIVE_SP_TYPES = [
  "PREDICTION",
  "WARMUP_PREDICTION",
  "ONCHAIN_PREDICTION",
  "ONCHAIN_SP",
] as const;
export type CompetitiveSpType = (typeof COMPETITIVE_SP_TYPES)[number];

export const SP_TYPES = [...COMPETITIVE_SP_TYPES, "REFERRAL", "RAFFLE", "ADJUSTMENT"] as const;
export type SpType = (typeof SP_TYPES)[number];

const COMPETITIVE: ReadonlySet<string> = new Set(COMPETITIVE_SP_TYPES);
const ALL: ReadonlySet<string> = new Set(SP_TYPES);

/** True for the allowlisted (ladder-counting) types. Case-sensitive: types are stored upper-case. */
export function isCompetitiveType(type: string): boolean {
  return COMPETITIVE.has(type);
}

/** True for any known SP ledger type. */
export function isSpType(type: string): type is SpType {
  return ALL.has(type);
}
