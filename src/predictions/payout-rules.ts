/**
 * What a version-2 bet is owed, pure (SPEC §10): a won bet its winnings, a void one its stake, a rejected one its
 * stake back (the USDC sits in the betting contract) — except a bet orphaned by a reorganisation, whose
 * transaction the chain no longer holds, so nothing of it sits in the contract. Other bets are owed nothing.
 *
 * - `owedMicro`: the micro-USDC owed, or null when nothing is.
 * - `voucherDeadline`: a voucher issued at `now` can be used until now + ttl (unix seconds).
 * - `voucherStillUsable`: an issued voucher is handed out again (the same nonce, amount and signature) while at
 *   least a minute of it is left, so a claim repeated while the first is in flight gets the same answer.
 */
export interface OwedBet {
  version: number;
  status: string;
  stakeMicro: bigint | null;
  payoutMicro: bigint | null;
  orphanedAt: Date | null;
}

export function owedMicro(p: OwedBet): bigint | null {
  if (p.version !== 2 || p.orphanedAt !== null) return null;
  if (p.status === "won" || p.status === "void") return p.payoutMicro ?? null;
  if (p.status === "rejected") return p.stakeMicro;
  return null;
}

export function voucherDeadline(now: Date, ttlSeconds: number): bigint {
  return BigInt(Math.floor(now.getTime() / 1000) + ttlSeconds);
}

/** Seconds a handed-out voucher must still have left to be handed out again. */
export const VOUCHER_MIN_REMAINING_SECONDS = 60;

export function voucherStillUsable(v: { deadline: Date }, now: Date): boolean {
  return v.deadline.getTime() - now.getTime() >= VOUCHER_MIN_REMAINING_SECONDS * 1000;
}
