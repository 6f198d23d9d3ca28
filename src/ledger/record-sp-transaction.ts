/**
 * Records one SP ledger row from the admin / feed API: resolves the user (created for an unknown wallet),
 * appends the row idempotently on externalId, and updates the maintained totals in the same transaction.
 */
import type { Season } from "../competition/calendar.js";
import type { SpType } from "../competition/competitive-sp.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { ensureWalletUser } from "../users/register-user.js";
import { findUserById } from "../users/users.js";
import { appendSpEntry, type SpLedgerRow } from "./ledger.repository.js";

export interface RecordSpInput {
  wallet?: string;
  userId?: string;
  type: SpType;
  amount: number;
  eventId?: string;
  externalId: string;
}

export async function recordSpTransaction(
  deps: { db: Db; season: Season; welcomeCredits?: number },
  input: RecordSpInput,
): Promise<{ row: SpLedgerRow; created: boolean }> {
  if ((input.wallet === undefined) === (input.userId === undefined)) {
    throw new AppError("VALIDATION_FAILED", "body must name exactly one of wallet or userId", [
      { field: "body.wallet", message: "give exactly one of wallet or userId" },
    ]);
  }
  if (input.amount < 0 && input.type !== "ADJUSTMENT") {
    throw new AppError("VALIDATION_FAILED", "body.amount may be negative only for ADJUSTMENT", [
      { field: "body.amount", message: "must be >= 0 unless type is ADJUSTMENT" },
    ]);
  }
  return deps.db.transaction(async (tx) => {
    let userId: bigint;
    if (input.wallet !== undefined) {
      const walletLower = input.wallet.toLowerCase();
      userId = (await ensureWalletUser(tx, { walletLower, welcomeCredits: deps.welcomeCredits ?? 0 })).user
        .id;
    } else {
      const user = await findUserById(tx, BigInt(input.userId!));
      if (!user) throw new AppError("NOT_FOUND", `User ${input.userId} not found`);
      userId = user.id;
    }
    return appendSpEntry(tx, deps.season, {
      userId,
      type: input.type,
      amount: input.amount,
      eventId: input.eventId ?? null,
      externalId: input.externalId,
    });
  });
}
