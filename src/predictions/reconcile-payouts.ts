/**
 * `GET /api/admin/reconcile` (SPEC §10): what the betting contract owes against what it holds, the vouchers signed
 * against the payouts made, and every bet a voucher was signed for that a reorganisation then removed from the
 * chain (listed for the operator, never paid again: its nonce is spent or will be, once).
 *
 * Contract: PAYOUTS_UNAVAILABLE (409) without a payout signer; SERVICE_UNAVAILABLE (503) when the contract's
 * balance cannot be read. Read only.
 */
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import type { PayoutDeps } from "./claim-payout.js";
import {
  type OrphanedClaim,
  orphanedClaims,
  owedBy,
  type PayoutTotals,
  payoutTotals,
} from "./payouts.repository.js";

export interface Reconciliation {
  chainId: number;
  contract: string;
  balanceMicro: bigint;
  owed: { micro: bigint; bets: number };
  totals: PayoutTotals;
  orphaned: OrphanedClaim[];
}

export async function reconcilePayouts(deps: {
  db: Db;
  payouts: PayoutDeps | null;
}): Promise<Reconciliation> {
  const payouts = deps.payouts;
  if (!payouts) {
    throw new AppError(
      "PAYOUTS_UNAVAILABLE",
      "No payout signer is configured: USDC payouts are not on-chain here",
    );
  }
  let balanceMicro: bigint;
  try {
    balanceMicro = await payouts.liquidity();
  } catch {
    throw new AppError("SERVICE_UNAVAILABLE", "The betting contract's balance cannot be read right now");
  }
  return {
    chainId: payouts.chainId,
    contract: payouts.contract,
    balanceMicro,
    owed: await owedBy(deps.db, payouts.contract),
    totals: await payoutTotals(deps.db, payouts.contract),
    orphaned: await orphanedClaims(deps.db, payouts.contract),
  };
}
