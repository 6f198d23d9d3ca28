/**
 * The chain's background jobs, as configured: with CHAIN_VERIFIER=rpc, the bet indexer and the payout indexer;
 * with FEE_INDEXER=on, the fee indexer; with PRIZE_DISTRIBUTOR_ADDRESS, the prize-claim indexer. Each runs every CHAIN_POLL_MS on the one instance holding its leader lock (leader-lock.ts), at most
 * 10 block ranges per run so a long catch-up still yields to shutdown. The server starts them after listening and
 * stops them before closing the database.
 */
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { type LeaderLock, LOCK_KEYS, leaderLockFor } from "../db/leader-lock.js";
import { indexBets } from "./bet-indexer.js";
import { createChainClient } from "./chain-client.js";
import { onchainBetDeps } from "./chain-deps.js";
import { indexFees } from "./fee-indexer.js";
import { type IndexerName, recordIndexerCheck } from "./indexer-health.js";
import { type JobLog, type PollingJob, type RunningJobs, startJobs } from "./job-runner.js";
import type { IndexRun } from "./log-indexer.js";
import { indexPayouts } from "./payout-indexer.js";
import { indexPrizeClaims } from "./prize-claim-indexer.js";

export interface ChainJobsDeps {
  config: Config;
  database: Database;
  clock: Clock;
  log: JobLog & { warn(details: object, message: string): void };
}

export interface ChainIndexers {
  /** One run of the bet indexer; null when CHAIN_VERIFIER is not rpc. */
  bets: (() => Promise<IndexRun>) | null;
  /** One run of the payout indexer; null when CHAIN_VERIFIER is not rpc. */
  payouts: (() => Promise<IndexRun>) | null;
  /** One run of the fee indexer; null when FEE_INDEXER=off. */
  fees: (() => Promise<IndexRun>) | null;
  /** One run of the prize-claim indexer; null without PRIZE_DISTRIBUTOR_ADDRESS. */
  prizeClaims: (() => Promise<IndexRun>) | null;
  /** Gives up the leader locks. */
  release(): Promise<void>;
}

/** The configured indexers, each with its own leader lock; `maxRanges` bounds one run (default: until caught up). */
export function chainIndexers(deps: ChainJobsDeps, opts: { maxRanges?: number } = {}): ChainIndexers {
  const { config, database, clock } = deps;
  const chain = config.chain;
  const locks: LeaderLock[] = [];
  const lock = (key: number) => {
    const l = leaderLockFor(config.databaseUrl, database, key);
    locks.push(l);
    return l;
  };
  const client = chain?.rpcUrl ? createChainClient(chain.rpcUrl) : null;
  const common = chain &&
    client && {
      db: database.db,
      client,
      chainId: chain.chainId,
      finality: { mode: chain.finality, confirmations: chain.confirmations },
    };
  const betDeps =
    common && config.betIndexer && chain.contract
      ? {
          ...common,
          bets: onchainBetDeps(config, database.db, clock, deps.log),
          contract: chain.contract,
          fromBlock: config.betIndexer.fromBlock,
          blockRange: config.betIndexer.blockRange,
          lock: lock(LOCK_KEYS.betIndexer),
        }
      : null;
  const payoutDeps =
    common && betDeps && config.payouts
      ? {
          ...common,
          clock,
          contract: betDeps.contract,
          fromBlock: betDeps.fromBlock,
          blockRange: betDeps.blockRange,
          lock: lock(LOCK_KEYS.payoutIndexer),
          log: deps.log,
        }
      : null;
  const feeDeps =
    common && config.feeIndexer
      ? {
          ...common,
          clock,
          addresses: config.feeIndexer.addresses,
          event: config.feeIndexer.event,
          fromBlock: config.feeIndexer.fromBlock,
          blockRange: config.feeIndexer.blockRange,
          lock: lock(LOCK_KEYS.feeIndexer),
          log: deps.log,
        }
      : null;
  const prizeDeps =
    common && config.prizeDistributor
      ? {
          ...common,
          clock,
          contract: config.prizeDistributor.contract,
          fromBlock: config.prizeDistributor.fromBlock,
          blockRange: config.prizeDistributor.blockRange,
          lock: lock(LOCK_KEYS.prizeClaimIndexer),
          log: deps.log,
        }
      : null;
  return {
    bets: betDeps && (() => indexBets(betDeps, opts)),
    payouts: payoutDeps && (() => indexPayouts(payoutDeps, opts)),
    fees: feeDeps && (() => indexFees(feeDeps, opts)),
    prizeClaims: prizeDeps && (() => indexPrizeClaims(prizeDeps, opts)),
    release: async () => {
      await Promise.all(locks.map((l) => l.release()));
    },
  };
}

export function startChainJobs(deps: ChainJobsDeps): RunningJobs {
  const pollMs = deps.config.chain?.pollMs ?? 5000;
  const indexers = chainIndexers(deps, { maxRanges: 10 });
  const jobs: PollingJob[] = [];
  // Each run leaves what it saw for every instance's lag figures (indexer-health.ts).
  const checked = (indexer: IndexerName, run: () => Promise<IndexRun>) => async () => {
    const result = await run();
    if (result.status === "node-behind") {
      deps.log.warn(
        { indexer, cursor: result.cursor },
        "the chain node is behind the blocks already indexed (a lagging backend?); nothing indexed, nothing rolled back",
      );
    }
    await recordIndexerCheck(deps.database.db, indexer, result, deps.clock.now());
    return result;
  };
  if (indexers.bets)
    jobs.push({ name: "bet-indexer", intervalMs: pollMs, run: checked("bets", indexers.bets) });
  if (indexers.payouts)
    jobs.push({ name: "payout-indexer", intervalMs: pollMs, run: checked("payouts", indexers.payouts) });
  if (indexers.fees)
    jobs.push({ name: "fee-indexer", intervalMs: pollMs, run: checked("fees", indexers.fees) });
  if (indexers.prizeClaims) {
    jobs.push({
      name: "prize-claim-indexer",
      intervalMs: pollMs,
      run: checked("prize-claims", indexers.prizeClaims),
    });
  }
  const running = startJobs(jobs, deps.log);
  return {
    async stop() {
      await running.stop();
      await indexers.release();
    },
  };
}
