/**
 * Signing and checking the EIP-712 messages of contracts/SpBetting.sol (their types: contracts/typed-data.ts).
 *
 * Contract:
 * - `quoteDigest` is the hash the odds signer signs and the contract recovers from (`quoteDigest(quote)` on-chain);
 *   it is also the nonce of the bet's payout voucher.
 * - `signQuote` signs with the odds signer's key; `recoverQuoteSigner` returns the lower-case address that signed a
 *   quote's fields, or null for a malformed signature.
 * - `signPayout` signs a payout voucher with the payout signer's key (`payoutDigest(payout)` on-chain).
 * - No I/O besides the signing itself (local, no network).
 */
import { type Address, type Hex, hashTypedData, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type PayoutMessage, payoutTypedData, type QuoteMessage, quoteTypedData } from "./typed-data.js";

export type { PayoutMessage, QuoteMessage };

export function quoteDigest(chainId: number, contract: Address, message: QuoteMessage): Hex {
  return hashTypedData(quoteTypedData(chainId, contract, message));
}

export function signQuote(key: Hex, chainId: number, contract: Address, message: QuoteMessage): Promise<Hex> {
  return privateKeyToAccount(key).signTypedData(quoteTypedData(chainId, contract, message));
}

export async function recoverQuoteSigner(
  chainId: number,
  contract: Address,
  message: QuoteMessage,
  signature: Hex,
): Promise<string | null> {
  try {
    const signer = await recoverTypedDataAddress({
      ...quoteTypedData(chainId, contract, message),
      signature,
    });
    return signer.toLowerCase();
  } catch {
    return null;
  }
}

export function signPayout(
  key: Hex,
  chainId: number,
  contract: Address,
  message: PayoutMessage,
): Promise<Hex> {
  return privateKeyToAccount(key).signTypedData(payoutTypedData(chainId, contract, message));
}
