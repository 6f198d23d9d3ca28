/**
 * The prize-claim indexer (PRIZE_DISTRIBUTOR_ADDRESS): copies the distributor's PrizeClaimed logs into prize
 * claims, so /me and the prize tree show which prizes were paid. The reading, finality and reorganisation handling
 * are log-indexer.ts's: claims count from final blocks; a reorganisation deletes the claims read above the fork.
 *
 * Contract:
 * - Each log is decoded strictly with the contract's ABI; one that does not decode stops the indexer with an error
 *   (the address is not a PrizeDistributor).
 * - A week beyond MAX_WEEK or an amount beyond 64 bits cannot be a prize of this service (the distributor's owner
 *   sets only the service's roots): such a log is logged and not stored; indexing carries on.
 */
import { type Address, decodeEventLog, encodeEventTopics, type Hex } from "viem";
import { prizeDistributorAbi } from "../../contracts/abi.js";
import {
  type PrizeClaimRecord,
  recordPrizeClaims,
  removePrizeClaimsAbove,
} from "../competition/prize-claims.js";
import { MAX_WEEK } from "../shared/season.js";
import {
  type ChainLog,
  type IndexRun,
  indexLogs,
  type LogIndexerDeps,
  type LogStream,
  logPlace,
} from "./log-indexer.js";

export interface PrizeClaimIndexerDeps extends LogIndexerDeps {
  /** The distributor's address. */
  contract: Address;
  fromBlock: bigint;
  log?: { warn(details: object, message: string): void };
}

export const PRIZE_CLAIMED_TOPIC: Hex = encodeEventTopics({
  abi: prizeDistributorAbi,
  eventName: "PrizeClaimed",
})[0] as Hex;

const MAX_AMOUNT = 2n ** 63n - 1n;

/** The cursor's name: one per chain and distributor. */
export function prizeClaimCursorName(chainId: number, contract: string): string {
  return `prize-claims:${chainId}:${contract.toLowerCase()}`;
}

export function prizeClaimStream(deps: PrizeClaimIndexerDeps): LogStream {
  const { chainId } = deps;
  const contract = deps.contract.toLowerCase() as Address;
  return {
    name: prizeClaimCursorName(chainId, contract),
    addresses: [contract],
    topic0: PRIZE_CLAIMED_TOPIC,
    fromBlock: deps.fromBlock,
    store: (tx, logs) =>
      recordPrizeClaims(
        tx,
        logs.flatMap((log) => claimOf(deps, log)),
      ),
    rollback: (tx, after) => removePrizeClaimsAbove(tx, { chainId, contract, after }),
  };
}

/** Indexes up to `maxRanges` ranges (default: until caught up), then returns what it did. */
export function indexPrizeClaims(
  deps: PrizeClaimIndexerDeps,
  opts: { maxRanges?: number } = {},
): Promise<IndexRun> {
  return indexLogs(deps, prizeClaimStream(deps), opts);
}

function claimOf(deps: PrizeClaimIndexerDeps, log: ChainLog): PrizeClaimRecord[] {
  const where = `block ${log.blockNumber} tx ${log.transactionHash} log ${log.logIndex}`;
  let args: { week: bigint; account: Address; amount: bigint };
  try {
    args = decodeEventLog({
      abi: prizeDistributorAbi,
      eventName: "PrizeClaimed",
      data: log.data,
      topics: log.topics,
      strict: true,
    }).args;
  } catch (err) {
    throw new Error(`PrizeClaimed log does not decode (${where}): ${(err as Error).message}`);
  }
  if (args.week > BigInt(MAX_WEEK) || args.amount > MAX_AMOUNT) {
    deps.log?.warn(
      { week: args.week.toString(), amount: args.amount.toString(), where },
      "PrizeClaimed log outside the service's weeks or amounts not recorded",
    );
    return [];
  }
  return [
    {
      ...logPlace(deps.chainId, log),
      week: Number(args.week),
      account: args.account.toLowerCase(),
      amountMicro: args.amount,
      claimedAt: log.blockTime,
    },
  ];
}
