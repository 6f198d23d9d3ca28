/**
 * The bet indexer (CHAIN_VERIFIER=rpc): finds every bet in the betting contract's BetPlaced logs, whether or not
 * anyone reported it, and records it as its bettor's prediction (predictions/record-chain-bets.ts). The reading,
 * finality and reorganisation handling are log-indexer.ts's: bets are judged only from final blocks; after reading
 * a range, predictions a report recorded from a block of that range that no longer holds their log are orphaned;
 * after a reorganisation, the bets read above the fork are orphaned and their SP reversed.
 */
import type { Address, PublicClient } from "viem";
import type { Db, Queryable } from "../db/client.js";
import type { LeaderLock } from "../db/leader-lock.js";
import {
  type ChainBetsDeps,
  orphanChainBetsAbove,
  orphanUnseenChainBets,
  recordChainBets,
} from "../predictions/record-chain-bets.js";
import { BET_PLACED_TOPIC, decodeBetLogs } from "./bet-logs.js";
import { storedBlocks } from "./chain.repository.js";
import type { Finality } from "./finality.js";
import { type IndexRun, indexLogs, type LogStream } from "./log-indexer.js";

export interface BetIndexerDeps {
  bets: ChainBetsDeps;
  db: Db;
  client: PublicClient;
  chainId: number;
  /** Lower-case address of the betting contract. */
  contract: Address;
  finality: Finality;
  /** Where to start when no cursor is stored (the contract's deployment block). */
  fromBlock: bigint;
  blockRange: number;
  lock: LeaderLock;
}

/** The cursor's name: one per chain and betting contract. */
export function betCursorName(chainId: number, contract: string): string {
  return `bets:${chainId}:${contract.toLowerCase()}`;
}

export function betStream(deps: BetIndexerDeps): LogStream {
  const { chainId, bets } = deps;
  const contract = deps.contract.toLowerCase() as Address;
  return {
    name: betCursorName(chainId, contract),
    addresses: [contract],
    topic0: BET_PLACED_TOPIC,
    fromBlock: deps.fromBlock,
    store: async (tx, logs, range) => {
      const found = await decodeBetLogs(chainId, logs);
      const { created } = await recordChainBets(tx, bets, found, { final: true });
      await orphanUnseenChainBets(tx, bets, { chainId, contract, ...range, seen: found });
      return created;
    },
    rollback: (tx, after) => orphanChainBetsAbove(tx, bets, { chainId, contract, after }),
  };
}

/** The time of the newest final block the bet indexer has read (null before its first range). */
export async function betsIndexedThrough(
  q: Queryable,
  bets: { chainId: number; contract: string },
): Promise<Date | null> {
  const [newest] = await storedBlocks(q, betCursorName(bets.chainId, bets.contract), 1);
  return newest?.blockTime ?? null;
}

/** Indexes up to `maxRanges` ranges (default: until caught up), then returns what it did. */
export function indexBets(deps: BetIndexerDeps, opts: { maxRanges?: number } = {}): Promise<IndexRun> {
  return indexLogs({ ...deps, clock: deps.bets.clock }, betStream(deps), opts);
}
