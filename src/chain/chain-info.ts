/**
 * `GET /api/chain/info`: what a client needs to place a version-2 bet (public, no sign-in).
 *
 * Contract:
 * - `chainId`, `bettingContract`, `usdc`, `oddsSigner`, `payoutSigner`, `prizeDistributorAddress` are null when
 *   not configured;
 *   addresses are checksummed.
 * - `usdc` is USDC_ADDRESS when set, else read once from the betting contract's `usdc()` (immutable there) and
 *   kept; while the node cannot answer it is null, asked again at most every 30 s and never waited on for more
 *   than 3 s.
 */
import { type Address, getAddress, type PublicClient } from "viem";
import { spBettingAbi } from "../../contracts/abi.js";
import type { ChainConfig, PayoutConfig, QuoteConfig } from "../config.js";
import { withTimeout } from "../shared/bounded-wait.js";

export interface ChainInfo {
  chainId: number | null;
  bettingContract: string | null;
  usdc: string | null;
  oddsSigner: string | null;
  /** The address whose payout vouchers the betting contract honours; null when not configured. */
  payoutSigner: string | null;
  quoteTtlSeconds: number;
  confirmations: number;
  finality: "finalized" | "confirmations";
  /** The Champions prize distributor (claim prizes there), checksummed; null when not configured. */
  prizeDistributorAddress: string | null;
}

export interface ChainInfoDeps {
  chain: ChainConfig | null;
  quotes: QuoteConfig | null;
  payouts: PayoutConfig | null;
  /** Lower-case address of the prize distributor; null when not configured. */
  prizeDistributor: string | null;
  /** Reads the USDC address from the contract; null when there is no node or contract to ask. */
  contractUsdc: (() => Promise<string | null>) | null;
  /** Defaults when nothing is configured: what QUOTE_TTL_SECONDS and CHAIN_CONFIRMATIONS default to. */
  defaults: { quoteTtlSeconds: number; confirmations: number };
}

export async function chainInfo(deps: ChainInfoDeps): Promise<ChainInfo> {
  const { chain, quotes } = deps;
  const configured = chain?.usdc ?? null;
  return {
    chainId: chain?.chainId ?? null,
    bettingContract: chain?.contract ? getAddress(chain.contract) : null,
    usdc: configured ? getAddress(configured) : ((await deps.contractUsdc?.()) ?? null),
    oddsSigner: quotes?.signer ?? null,
    payoutSigner: deps.payouts?.signer ?? null,
    quoteTtlSeconds: quotes?.ttlSeconds ?? deps.defaults.quoteTtlSeconds,
    confirmations: chain?.confirmations ?? deps.defaults.confirmations,
    finality: chain?.finality ?? "finalized",
    prizeDistributorAddress: deps.prizeDistributor ? getAddress(deps.prizeDistributor) : null,
  };
}

/** Reads `usdc()` of the betting contract: kept once known; after a failure, asked again 30 s later at the soonest. */
export function contractUsdcReader(client: PublicClient, contract: Address): () => Promise<string | null> {
  let known: string | null = null;
  let retryAt = 0;
  return async () => {
    if (known || Date.now() < retryAt) return known;
    try {
      const read = client.readContract({ address: contract, abi: spBettingAbi, functionName: "usdc" });
      known = getAddress(await withTimeout(read, 3000, "usdc() timed out"));
    } catch {
      retryAt = Date.now() + 30_000;
    }
    return known;
  };
}
