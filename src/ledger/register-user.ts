/**
 * Opening an account: finding or creating a user, whose first entry is WELCOME_CREDITS in the credits ledger,
 * granted in the same transaction that creates the user. Here, above users and the credits ledger, so the users
 * capability never imports the ledger.
 */
import type { Tx } from "../db/client.js";
import { walletDisplayName } from "../users/presenters.js";
import { findOrCreateWalletUser, type UserRow } from "../users/users.js";
import { appendCredits } from "./credits.js";

export async function grantWelcomeCredits(tx: Tx, user: UserRow, welcomeCredits: number): Promise<void> {
  if (welcomeCredits > 0) {
    await appendCredits(tx, {
      userId: user.id,
      reason: "WELCOME",
      amount: welcomeCredits,
      externalId: `welcome:${user.id}`,
    });
  }
}

/** The user of a wallet, created (with welcome credits and an optional referrer) when unknown. */
export async function ensureWalletUser(
  tx: Tx,
  input: { walletLower: string; welcomeCredits: number; referredBy?: bigint | null },
): Promise<{ user: UserRow; created: boolean }> {
  const result = await findOrCreateWalletUser(tx, {
    walletLower: input.walletLower,
    displayName: walletDisplayName(input.walletLower),
    referredBy: input.referredBy ?? null,
  });
  if (result.created) await grantWelcomeCredits(tx, result.user, input.welcomeCredits);
  return result;
}
