/** What goes out about a user: `{id, displayName, wallet}` with the wallet checksummed. */
import { Type } from "typebox";
import { getAddress } from "viem";

export const UserSchema = Type.Object({
  id: Type.String(),
  displayName: Type.String(),
  wallet: Type.Union([Type.String(), Type.Null()]),
});

export function checksumWallet(walletLower: string | null): string | null {
  return walletLower ? getAddress(walletLower) : null;
}

export function presentUser(u: { id: bigint | string; displayName: string; wallet: string | null }) {
  return { id: String(u.id), displayName: u.displayName, wallet: checksumWallet(u.wallet) };
}

/** Default display name of a wallet user: `0xAbCd…1234`. */
export function walletDisplayName(walletLower: string): string {
  const c = getAddress(walletLower);
  return `${c.slice(0, 6)}…${c.slice(-4)}`;
}
