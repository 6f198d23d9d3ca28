/**
 * The payout indexer (CHAIN_VERIFIER=rpc with a payout signer): copies the betting contract's PayoutClaimed logs
 * into chain payouts, which mark the bets of their nonces `claimed` (predictions/payouts.repository.ts). The
 * reading, finality and reorganisation handling are log-indexer.ts's: a payout counts from a final block; a
 * reorganisation deletes the payouts read above the fork and un-claims their bets (the nonce is unspent on the
 * chain that won, so the bet can be paid there once).
 *
 * Contract: each log is decoded strictly with the contract's ABI (one that does not decode stops the indexer with
 * an error naming it); an amount beyond 64 bits cannot be a payout of this service and is logged, not stored.
 */
import { type Address, decodeEventLog, encodeEventTopics, type Hex } from "viem";
import { spBettingAbi } from "../../contracts/abi.js";
import {
  type ChainPayoutRecord,
  recordChainPayouts,
  removeChainPayouts,
} from "../predictions/record-chain-payouts.js";
import {
  type ChainLog,
  type IndexRun,
  indexLogs,
  type LogIndexerDeps,
  type LogStream,
  logPlace,
} from "./log-indexer.js";

export interface PayoutIndexerDeps extends LogIndexerDeps {
  /** The betting contract's address. */
  contract: Address;
  fromBlock: bigint;
  log?: { warn(details: object, message: string): void };
}

export const PAYOUT_CLAIMED_TOPIC: Hex = encodeEventTopics({
  abi: spBettingAbi,
  eventName: "PayoutClaimed",
})[0] as Hex;

const MAX_AMOUNT = 2n ** 63n - 1n;

/** The cursor's name: one per chain and betting contract. */
export function payoutCursorName(chainId: number, contract: string): string {
  return `payouts:${chainId}:${contract.toLowerCase()}`;
}

export function payoutStream(deps: PayoutIndexerDeps): LogStream {
  const { chainId } = deps;
  const contract = deps.contract.toLowerCase() as Address;
  return {
    name: payoutCursorName(chainId, contract),
    addresses: [contract],
    topic0: PAYOUT_CLAIMED_TOPIC,
    fromBlock: deps.fromBlock,
    store: (tx, logs) =>
      recordChainPayouts(
        tx,
        logs.flatMap((log) => payoutOf(deps, log)),
      ),
    rollback: (tx, after) => removeChainPayouts(tx, { chainId, contract, after }),
  };
}

/** Indexes up to `maxRanges` ranges (default: until caught up), then returns what it did. */
export function indexPayouts(deps: PayoutIndexerDeps, opts: { maxRanges?: number } = {}): Promise<IndexRun> {
  return indexLogs(deps, payoutStream(deps), opts);
}

function payoutOf(deps: PayoutIndexerDeps, log: ChainLog): ChainPayoutRecord[] {
  const where = `block ${log.blockNumber} tx ${log.transactionHash} log ${log.logIndex}`;
  let args: { nonce: Hex; account: Address; predictionId: bigint; amount: bigint };
  try {
    args = decodeEventLog({
      abi: spBettingAbi,
      eventName: "PayoutClaimed",
      data: log.data,
      topics: log.topics,
      strict: true,
    }).args;
  } catch (err) {
    throw new Error(`PayoutClaimed log does not decode (${where}): ${(err as Error).message}`);
  }
  if (args.amount > MAX_AMOUNT) {
    deps.log?.warn(
      { amount: args.amount.toString(), where },
      "PayoutClaimed log beyond 64 bits not recorded",
    );
    return [];
  }
  const place = logPlace(deps.chainId, log);
  return [
    {
      ...place,
      nonce: args.nonce.toLowerCase(),
      account: args.account.toLowerCase(),
      predictionRef: args.predictionId,
      amountMicro: args.amount,
      paidAt: log.blockTime,
    },
  ];
}
