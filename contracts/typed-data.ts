/**
 * The EIP-712 typed data of contracts/SpBetting.sol, exactly as the contract hashes it: the domain
 * {name "SpBetting", version "1", chainId, verifyingContract} and its two messages,
 * `Quote(address bettor,bytes32 marketId,uint8 outcome,uint256 odds,uint256 expiry)` (signed by the odds signer)
 * and `Payout(uint256 predictionId,address account,uint256 amount,bytes32 nonce,uint256 deadline)` (signed by the
 * payout signer). Pure data (viem types only), shared by the server and the web app; a chain test checks both
 * digests against the contract's own `quoteDigest` / `payoutDigest`.
 */
import type { Address, Hex } from "viem";

export interface QuoteMessage {
  bettor: Address;
  marketId: Hex;
  outcome: number;
  /** Thousandths. */
  odds: bigint;
  /** Unix seconds: the last block timestamp at which the quote can be used. */
  expiry: bigint;
}

export interface PayoutMessage {
  predictionId: bigint;
  /** Where the USDC goes. */
  account: Address;
  /** Micro-USDC. */
  amount: bigint;
  /** The EIP-712 digest of the bet's quote: one payout per bet, whatever the service records. */
  nonce: Hex;
  /** Unix seconds: the last block timestamp at which the voucher can be used. */
  deadline: bigint;
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

export const PAYOUT_TYPES = {
  Payout: [
    { name: "predictionId", type: "uint256" },
    { name: "account", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "nonce", type: "bytes32" },
    { name: "deadline", type: "uint256" },
  ],
} as const;

export function bettingDomain(chainId: number, contract: Address) {
  return { name: "SpBetting", version: "1", chainId, verifyingContract: contract } as const;
}

export function quoteTypedData(chainId: number, contract: Address, message: QuoteMessage) {
  return {
    domain: bettingDomain(chainId, contract),
    types: QUOTE_TYPES,
    primaryType: "Quote" as const,
    message,
  };
}

export function payoutTypedData(chainId: number, contract: Address, message: PayoutMessage) {
  return {
    domain: bettingDomain(chainId, contract),
    types: PAYOUT_TYPES,
    primaryType: "Payout" as const,
    message,
  };
}
