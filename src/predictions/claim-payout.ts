/**
 * Claims the payout of a won or void prediction exactly once: credits for v1 (into the credits ledger), a USDC
 * claim record for v2. The conditional update on claimed_at lets exactly one of many concurrent claims through.
 */
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { appendCredits, creditsBalance } from "../ledger/ledger.js";
import {
  claimPrediction,
  findPrediction,
  insertUsdcClaim,
  type PredictionRow,
} from "./predictions.repository.js";

export interface ClaimResult {
  prediction: PredictionRow;
  claimedAt: Date;
  balance: number;
}

export async function claimPayout(
  deps: { db: Db; clock: Clock },
  input: { userId: bigint; predictionId: bigint },
): Promise<ClaimResult> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const claimed = await claimPrediction(tx, input.predictionId, input.userId, now);
    if (!claimed) {
      const p = await findPrediction(tx, input.predictionId);
      if (!p || p.userId !== input.userId)
        throw new AppError("NOT_FOUND", `Prediction ${input.predictionId} not found`);
      if (p.claimedAt) throw new AppError("ALREADY_CLAIMED", "This payout was already claimed");
      throw new AppError("NOT_CLAIMABLE", `A ${p.status} prediction has no payout to claim`);
    }
    if (claimed.version === 1) {
      const { balance } = await appendCredits(tx, {
        userId: input.userId,
        reason: "PAYOUT",
        amount: claimed.payout ?? 0,
        externalId: `payout:${claimed.id}`,
      });
      return { prediction: claimed, claimedAt: now, balance };
    }
    await insertUsdcClaim(tx, claimed.id, input.userId, claimed.payoutMicro ?? 0n, now);
    return { prediction: claimed, claimedAt: now, balance: await creditsBalance(tx, input.userId) };
  });
}
