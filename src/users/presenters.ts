/** What goes out about a user: `{id, displayName, wallet}` with the wallet checksummed. */

import sha3 from "js-sha3";
import { Type } from "typebox";
import { getAddress } from "viem";
import { Nullable } from "../shared/schema-types.js";

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    displayName: Type.String(),
    wallet: Nullable(Type.String({ description: "Checksummed address; null for an identity-only player" })),
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
    c = eip55(walletLower);
    if (checksums.size >= MAX_CHECKSUMS) checksums.clear();
    checksums.set(walletLower, c);
  }
  return c;
}

const LOWER_ADDRESS = /^0x[0-9a-f]{40}$/;

/**
 * The EIP-55 form of a lower-case address: each letter upper-cased where the keccak-256 of the lower-case hex has
 * a nibble ≥ 8. js-sha3's keccak (≈ 5 µs) instead of viem's getAddress (≈ 22 µs: noble's keccak, plus its own
 * validation and caches), which was 13 % of the CPU of an ingest of new wallets (docs/performance.md). Anything
 * else (mixed case, not an address) goes to getAddress, which checks or refuses it.
 */
function eip55(wallet: string): string {
  if (!LOWER_ADDRESS.test(wallet)) return getAddress(wallet);
  const hex = wallet.slice(2);
  const hash = sha3.keccak256(hex);
  let out = "0x";
  for (let i = 0; i < 40; i++) {
    const ch = hex[i]!;
    out += ch > "9" && Number.parseInt(hash[i]!, 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

export function presentUser(u: { id: bigint | string; displayName: string; wallet: string | null }) {
  return { id: String(u.id), displayName: u.displayName, wallet: checksumWallet(u.wallet) };
}

/** Default display name of a wallet user: `0xAbCd…1234`. */
export function walletDisplayName(walletLower: string): string {
  const c = checksumWallet(walletLower)!;
  return `${c.slice(0, 6)}…${c.slice(-4)}`;
}
