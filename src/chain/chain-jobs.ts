/**
 * The chain's background jobs, as configured: with CHAIN_VERIFIER=rpc, the re-check of pending version-2 bets
 * (a bounded batch per run); with FEE_INDEXER=on, the fee indexer. Each runs every CHAIN_POLL_MS on the one
 * instance holding its leader lock (leader-lock.ts). The server starts them after listening and stops them
 * before closing the database.
 */
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { chainVerifierFor, type VerifierLog } from "../predictions/chain-verifier.js";
import { type OnchainBetDeps, recheckPendingBets } from "../predictions/report-onchain-bet.js";
import { createChainClient } from "./chain-client.js";
import { indexFees } from "./fee-indexer.js";
import { type JobLog, type PollingJob, type RunningJobs, startJobs } from "./job-runner.js";
import { type LeaderLock, LOCK_KEYS, leaderLockFor } from "./leader-lock.js";

/** Pending bets asked about per run. */
export const RECHECK_BATCH = 50;

export interface ChainJobsDeps {
  config: Config;
  database: Database;
  clock: Clock;
  log: JobLog & VerifierLog;
}

/** The dependencies of the v2 bet use cases, as the app builds them for its routes. */
export function onchainBetDeps(deps: ChainJobsDeps): OnchainBetDeps {
  const { config, database, clock } = deps;
  return {
    db: database.db,
    clock,
    season: { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart },
    spPerUsdc: config.spPerUsdc,
    verifier: chainVerifierFor(config, database.db, deps.log),
    acceptedChainIds: config.siweChainIds,
  };
}

/** The pending-bet re-check as a job: one batch per run, continuing round the pending bets. */
export function pendingBetsJob(bets: OnchainBetDeps, lock: LeaderLock, intervalMs: number): PollingJob {
  let afterId = 0n;
  return {
    name: "pending-bets",
    intervalMs,
    run: async () => {
      if (!(await lock.acquire())) return;
      afterId = (await recheckPendingBets(bets, { afterId, limit: RECHECK_BATCH })).nextAfterId;
    },
  };
}

export function startChainJobs(deps: ChainJobsDeps): RunningJobs {
  const { config, database } = deps;
  const chain = config.chain;
  if (!chain) return startJobs([], deps.log);
  const lock = (key: number) => leaderLockFor(config.databaseUrl, database, key);
  const locks: LeaderLock[] = [];
  const jobs: PollingJob[] = [];
  if (config.chainVerifier === "rpc") {
    const l = lock(LOCK_KEYS.pendingBets);
    locks.push(l);
    jobs.push(pendingBetsJob(onchainBetDeps(deps), l, chain.pollMs));
  }
  if (config.feeIndexer) {
    const l = lock(LOCK_KEYS.feeIndexer);
    locks.push(l);
    const indexer = {
      db: database.db,
      clock: deps.clock,
      client: createChainClient(chain.rpcUrl),
      chainId: chain.chainId,
      contract: chain.contract,
      confirmations: chain.confirmations,
      fromBlock: config.feeIndexer.fromBlock,
      blockRange: config.feeIndexer.blockRange,
      lock: l,
    };
    // At most 10 ranges per run, so a long catch-up still yields to shutdown between runs.
    jobs.push({
      name: "fee-indexer",
      intervalMs: chain.pollMs,
      run: () => indexFees(indexer, { maxRanges: 10 }),
    });
  }
  const running = startJobs(jobs, deps.log);
  return {
    async stop() {
      await running.stop();
      await Promise.all(locks.map((l) => l.release()));
    },
  };
}
