/**
 * Checks of a signing key (ODDS_SIGNER_PRIVATE_KEY, PAYOUT_SIGNER_PRIVATE_KEY), for the configuration.
 *
 * Contract:
 * - A key is 32 bytes written as 0x + 64 hex digits, a valid secp256k1 scalar (0 < key < n).
 * - In production, a publicly known key is refused (shared/known-secrets.ts: the development mnemonics'
 *   accounts, small or patterned keys, any key written in this repository).
 */
import { publicKeyProblem } from "./known-secrets.js";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** Why `raw` cannot be a signing key (without echoing it), or null when it can. */
export function signerKeyProblem(raw: string, production: boolean): string | null {
  if (!/^0x[0-9a-fA-F]{64}$/.test(raw)) return "must be a private key: 0x followed by 64 hex digits";
  const key = BigInt(raw);
  if (key === 0n || key >= SECP256K1_N) return "is not a valid secp256k1 private key";
  const known = production ? publicKeyProblem(raw) : null;
  return known ? `${known}, refused in production` : null;
}
