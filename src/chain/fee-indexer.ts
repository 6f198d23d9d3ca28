/**
 * The fee indexer: copies the configured fee event's logs (FEE_EVENT_SIGNATURE at FEE_CONTRACT_ADDRESSES, by
 * default SpBetting's FeeCollected) into protocol fee records, which fund the next week's prize pool (SPEC §5).
 * The reading, finality and reorganisation handling are log-indexer.ts's.
 *
 * Contract:
 * - Each log is decoded strictly with the configured event; a log that does not fit it stops the indexer with an
 *   error rather than being skipped (a misdeclared event must not silently drop fees; finalize then answers
 *   FEES_NOT_INDEXED until it is fixed).
 * - The amount argument, in token units (FEE_TOKEN_DECIMALS), becomes micro-USDC (floored). An amount above
 *   MAX_FEE_MICRO (one billion USDC: far beyond any real fee, and small enough that a week of them sums safely in
 *   64 bits) is not stored; it is logged and indexing carries on.
 * - Records carry their chain, contract and block and are written idempotently on (txHash, logIndex) (shared with
 *   the feed API: whichever records a fee first wins); a reorganisation deletes the indexer's records above the
 *   fork, so the pool estimate follows the chain.
 */
import { type Address, decodeEventLog } from "viem";
import type { Queryable } from "../db/client.js";
import { type ChainFee, recordChainFees, removeChainFeesAbove } from "../fees/record-fee.js";
import { type FeeEvent, toMicroUsdc } from "../shared/fee-event.js";
import { storedBlocks } from "./chain.repository.js";
import {
  type ChainLog,
  type IndexRun,
  indexLogs,
  type LogIndexerDeps,
  type LogStream,
  logPlace,
} from "./log-indexer.js";

export interface FeeIndexerDeps extends LogIndexerDeps {
  /** Lower-case addresses of the contracts whose fee events are read. */
  addresses: Address[];
  event: FeeEvent;
  /** Where to start when no cursor is stored (the contracts' deployment block). */
  fromBlock: bigint;
  log?: { warn(details: object, message: string): void };
}

/** One billion USDC in micro-USDC: the largest single fee stored. */
export const MAX_FEE_MICRO = 10n ** 15n;

/**
 * The cursor's name: one per chain, fee event and set of contracts, so pointing the service at another contract
 * or event starts afresh (records already stored stay, and are not stored twice).
 */
export function feeCursorName(chainId: number, topic0: string, addresses: readonly string[]): string {
  const sorted = addresses.map((a) => a.toLowerCase()).sort();
  return `fees:${chainId}:${topic0}:${sorted.join(",")}`;
}

export function feeStream(deps: FeeIndexerDeps): LogStream {
  const { event, chainId } = deps;
  const addresses = deps.addresses.map((a) => a.toLowerCase() as Address);
  return {
    name: feeCursorName(chainId, event.topic0, addresses),
    addresses,
    topic0: event.topic0,
    fromBlock: deps.fromBlock,
    store: async (tx, logs) =>
      recordChainFees(
        tx,
        logs.flatMap((log) => feeOf(deps, log)),
      ),
    rollback: (tx, after) => removeChainFeesAbove(tx, { chainId, contracts: addresses, after }),
  };
}

/**
 * How far the fee records are complete: the time of the newest block the fee indexer has read (every fee of a
 * block before it is recorded, block times never decreasing); null before its first range.
 */
export async function feesIndexedThrough(
  q: Queryable,
  fees: { chainId: number; event: FeeEvent; addresses: readonly string[] },
): Promise<Date | null> {
  const [newest] = await storedBlocks(q, feeCursorName(fees.chainId, fees.event.topic0, fees.addresses), 1);
  return newest?.blockTime ?? null;
}

/** Indexes up to `maxRanges` ranges (default: until caught up), then returns what it did. */
export function indexFees(deps: FeeIndexerDeps, opts: { maxRanges?: number } = {}): Promise<IndexRun> {
  return indexLogs(deps, feeStream(deps), opts);
}

/** The fee record of one log; none (logged) when its amount is beyond what is stored. */
function feeOf(deps: FeeIndexerDeps, log: ChainLog): ChainFee[] {
  const where = `block ${log.blockNumber} tx ${log.transactionHash} log ${log.logIndex}`;
  let amount: bigint;
  try {
    const decoded = decodeEventLog({
      abi: [deps.event.abi],
      data: log.data,
      topics: log.topics,
      strict: true,
    });
    amount = (decoded.args as unknown as Record<string, bigint>)[deps.event.amountArg]!;
  } catch (err) {
    throw new Error(`fee log does not match FEE_EVENT_SIGNATURE (${where}): ${(err as Error).message}`);
  }
  const amountMicro = toMicroUsdc(amount, deps.event.decimals);
  if (amountMicro > MAX_FEE_MICRO) {
    deps.log?.warn({ amount: amount.toString(), where }, "fee amount above one billion USDC not recorded");
    return [];
  }
  return [
    {
      ...logPlace(deps.chainId, log),
      amountMicro,
      occurredAt: log.blockTime,
    },
  ];
}
