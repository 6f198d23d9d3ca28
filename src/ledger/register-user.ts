/**
 * Opening an account: finding or creating a user, whose first entry is WELCOME_CREDITS in the credits ledger,
 * granted in the same transaction that creates the user. Here, above users and the credits ledger, so the users
 * capability never imports the ledger.
 */
import type { Tx } from "../db/client.js";
import { walletDisplayName } from "../users/presenters.js";
import {
  findOrCreateWalletUser,
  findUserIdsByWallets,
  insertWalletUsers,
  type UserRow,
} from "../users/users.js";
import { appendCredits, appendOpeningCredits } from "./credits.js";

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

/**
 * The users of many wallets (lower-case), the unknown ones created set-based: one lookup, one INSERT … ON CONFLICT
 * DO NOTHING of all missing wallets (sorted) with their welcome credits as opening balance, the matching credit rows
 * in one statement; a wallet the insert skipped
 * (created concurrently, or a referral-code collision) is looked up, then created alone. Returns every wallet's id.
 */
export async function ensureWalletUsers(
  tx: Tx,
  walletsLower: string[],
  welcomeCredits: number,
): Promise<Map<string, bigint>> {
  const ids = await findUserIdsByWallets(tx, walletsLower);
  const missing = walletsLower.filter((w) => !ids.has(w));
  if (missing.length === 0) return ids;
  const opening = Math.max(0, welcomeCredits);
  const created = await insertWalletUsers(
    tx,
    missing.map((walletLower) => ({ walletLower, displayName: walletDisplayName(walletLower) })),
    opening,
  );
  await appendOpeningCredits(tx, [...created.values()], opening);
  for (const [w, id] of created) ids.set(w, id);
  const skipped = missing.filter((w) => !ids.has(w));
  if (skipped.length > 0) for (const [w, id] of await findUserIdsByWallets(tx, skipped)) ids.set(w, id);
  for (const walletLower of skipped.filter((w) => !ids.has(w)).sort()) {
    const { user } = await ensureWalletUser(tx, { walletLower, welcomeCredits });
    ids.set(walletLower, user.id);
  }
  return ids;
}
