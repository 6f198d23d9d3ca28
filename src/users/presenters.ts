/** What goes out about a user: `{id, displayName, wallet}` with the wallet checksummed. */
import { Type } from "typebox";
import { getAddress } from "viem";

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    displayName: Type.String(),
    wallet: Type.Union([Type.String(), Type.Null()], {
      description: "Checksummed address; null for an identity-only player",
    }),
  },
  {
    title: "User",
    examples: [{ id: "1", displayName: "0x70F1…79C8", wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }],
  },
);

/** EIP-55 checksums of recently shown wallets: a keccak per wallet per ladder row showed up in the profile. */
const checksums = new Map<string, string>();
const MAX_CHECKSUMS = 100_000;

export function checksumWallet(walletLower: string | null): string | null {
  if (!walletLower) return null;
  let c = checksums.get(walletLower);
  if (c === undefined) {
    c = getAddress(walletLower);
    if (checksums.size >= MAX_CHECKSUMS) checksums.clear();
    checksums.set(walletLower, c);
  }
  return c;
}

export function presentUser(u: { id: bigint | string; displayName: string; wallet: string | null }) {
  return { id: String(u.id), displayName: u.displayName, wallet: checksumWallet(u.wallet) };
}

/** Default display name of a wallet user: `0xAbCd…1234`. */
export function walletDisplayName(walletLower: string): string {
  const c = checksumWallet(walletLower)!;
  return `${c.slice(0, 6)}…${c.slice(-4)}`;
}
