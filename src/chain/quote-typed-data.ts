/**
 * The EIP-712 typed data of a version-2 quote, exactly as contracts/SpBetting.sol verifies it: domain
 * {name "SpBetting", version "1", chainId, verifyingContract} and
 * `Quote(address bettor,bytes32 marketId,uint8 outcome,uint256 odds,uint256 expiry)`.
 *
 * Contract:
 * - `quoteDigest` is the hash the odds signer signs and the contract recovers from (`quoteDigest(quote)` on-chain).
 * - `signQuote` signs with the odds signer's key; `recoverQuoteSigner` returns the lower-case address that signed a
 *   quote's fields, or null for a malformed signature.
 * - No I/O besides the signing itself (local, no network).
 */
import { type Address, type Hex, hashTypedData, recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface QuoteMessage {
  bettor: Address;
  marketId: Hex;
  outcome: number;
  /** Thousandths. */
  odds: bigint;
  /** Unix seconds: the last block timestamp at which the quote can be used. */
  expiry: bigint;
}

export const QUOTE_TYPES = {
  Quote: [
    { name: "bettor", type: "address" },
    { name: "marketId", type: "bytes32" },
    { name: "outcome", type: "uint8" },
    { name: "odds", type: "uint256" },
    { name: "expiry", type: "uint256" },
  ],
} as const;

export function quoteTypedData(chainId: number, contract: Address, message: QuoteMessage) {
  return {
    domain: { name: "SpBetting", version: "1", chainId, verifyingContract: contract },
    types: QUOTE_TYPES,
    primaryType: "Quote" as const,
    message,
  };
}

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
