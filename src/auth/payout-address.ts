/**
 * The player's payout address (SPEC §10): where their USDC prizes go.
 *
 * Contract:
 * - `setPayoutAddress`: the signed-in player proves an address with an EIP-4361 message that address signed (the
 *   same checks as a wallet sign-in: domain, chain id, time, signature, a fresh nonce bound to this client), and
 *   it becomes where their prizes go. An address that is another account's sign-in wallet or payout address is
 *   409 CONFLICT: one address belongs to one account, so a week's prize list never holds it twice.
 * - `getPayoutAddress`: `{address, verifiedAt}`; without one set, the sign-in wallet with `verifiedAt` null (an
 *   identity-only player without one has `address` null: their prizes wait until they set one).
 * - Prize trees built from then on pay that address (competition/get-prize-tree.ts); a published root never changes.
 */
import { AppError } from "../errors.js";
import { findUserById, setPayoutAddress as storePayoutAddress } from "../users/users.js";
import { type AuthDeps, type SignedMessage, verifySignedMessage } from "./sign-in.js";

export interface PayoutAddress {
  /** Lower-case. */
  address: string | null;
  verifiedAt: Date | null;
}

export async function getPayoutAddress(deps: Pick<AuthDeps, "db">, userId: bigint): Promise<PayoutAddress> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError("NOT_FOUND", "No such player");
  return user.payoutAddress
    ? { address: user.payoutAddress, verifiedAt: user.payoutVerifiedAt }
    : { address: user.wallet, verifiedAt: null };
}

export async function setPayoutAddress(
  deps: AuthDeps,
  input: SignedMessage & { userId: bigint },
): Promise<PayoutAddress> {
  const address = await verifySignedMessage(deps, input, "Payout address refused");
  const verifiedAt = deps.clock.now();
  if (!(await storePayoutAddress(deps.db, input.userId, address, verifiedAt))) {
    throw new AppError(
      "CONFLICT",
      "This address is another account's wallet or payout address: an address pays one account",
    );
  }
  return { address, verifiedAt };
}
