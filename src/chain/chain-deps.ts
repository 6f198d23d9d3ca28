/**
 * The chain-related dependencies the app and the chain jobs build from the configuration: the v2 bet use cases,
 * the quote signer, GET /api/chain/info, and how far the fee indexer has read (for finalize).
 */
import type { Clock } from "../clock.js";
import { type Config, DEFAULT_CONFIRMATIONS, DEFAULT_QUOTE_TTL_SECONDS } from "../config.js";
import type { Db } from "../db/client.js";
import { chainVerifierFor } from "../predictions/chain-verifier.js";
import type { QuoteDeps } from "../predictions/quote-bet.js";
import type { OnchainBetDeps } from "../predictions/report-onchain-bet.js";
import { betsIndexedThrough } from "./bet-indexer.js";
import { createChainClient } from "./chain-client.js";
import { type ChainInfoDeps, contractUsdcReader } from "./chain-info.js";
import { contractBalanceReader } from "./contract-balance.js";
import { feesIndexedThrough } from "./fee-indexer.js";
import { chainBetReaderFor } from "./tx-bets.js";

type WarnLog = { warn(details: object, message: string): void };

/** The dependencies of the v2 bet use cases (routes, bet indexer). */
export function onchainBetDeps(config: Config, db: Db, clock: Clock, log?: WarnLog): OnchainBetDeps {
  const { chain, payouts } = config;
  return {
    payouts:
      payouts && chain?.rpcUrl && chain.contract
        ? {
            signerKey: payouts.signerKey,
            chainId: chain.chainId,
            contract: chain.contract,
            ttlSeconds: payouts.ttlSeconds,
            liquidity: contractBalanceReader(createChainClient(chain.rpcUrl), chain.contract, chain.usdc),
          }
        : null,
    db,
    clock,
    season: { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart },
    spPerUsdc: config.spPerUsdc,
    welcomeCredits: config.welcomeCredits,
    verifier: chainVerifierFor(config),
    chain: chainBetReaderFor(config),
    acceptedChainIds: config.siweChainIds,
    log,
  };
}

/** The quote use case's dependencies: the odds signer for CHAIN_ID and the betting contract, when configured. */
export function quoteDeps(config: Config, db: Db, clock: Clock): QuoteDeps {
  const { chain, quotes } = config;
  return {
    db,
    clock,
    signer:
      chain?.contract && quotes
        ? {
            key: quotes.signerKey,
            address: quotes.signer,
            chainId: chain.chainId,
            contract: chain.contract,
            ttlSeconds: quotes.ttlSeconds,
          }
        : null,
  };
}

export function chainInfoDeps(config: Config): ChainInfoDeps {
  const { chain } = config;
  return {
    chain,
    quotes: config.quotes,
    payouts: config.payouts,
    prizeDistributor: config.chain ? (config.prizeDistributor?.contract ?? null) : null,
    contractUsdc:
      chain?.rpcUrl && chain.contract
        ? contractUsdcReader(createChainClient(chain.rpcUrl), chain.contract)
        : null,
    defaults: { quoteTtlSeconds: DEFAULT_QUOTE_TTL_SECONDS, confirmations: DEFAULT_CONFIRMATIONS },
  };
}

/** With the fee indexer on: the time up to which chain fees are recorded; null when it is off. */
export function feeProgress(config: Config, db: Db): (() => Promise<Date | null>) | null {
  const { chain, feeIndexer } = config;
  return chain && feeIndexer ? () => feesIndexedThrough(db, { chainId: chain.chainId, ...feeIndexer }) : null;
}

/** With the bet indexer on: the time up to which chain bets are recorded; null when it is off. */
export function betProgress(config: Config, db: Db): (() => Promise<Date | null>) | null {
  const { chain, betIndexer } = config;
  return chain?.contract && betIndexer
    ? () => betsIndexedThrough(db, { chainId: chain.chainId, contract: chain.contract! })
    : null;
}

/** The configured prize distributor whose PrizeClaimed logs mark prizes claimed; null when none. */
export function prizeDistributorOf(config: Config): { chainId: number; contract: string } | null {
  const { chain, prizeDistributor } = config;
  return chain && prizeDistributor ? { chainId: chain.chainId, contract: prizeDistributor.contract } : null;
}
