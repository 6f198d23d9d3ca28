/**
 * The fee indexer: copies the betting contract's FeeCollected logs into protocol fee records, which fund the
 * next week's prize pool (SPEC §5).
 *
 * Contract:
 * - Reads blocks in ranges of at most `blockRange` from the stored cursor (first run: `fromBlock`), only up to the
 *   newest block with `confirmations` confirmations (its own block counts as one); never ahead of it.
 * - Each log is decoded strictly with the FeeCollected ABI (a log that does not fit stops the indexer with an
 *   error rather than being skipped) and stored with its block's timestamp as `occurredAt`, idempotently on
 *   (txHash, logIndex).
 * - A range's fee records and the cursor move past it are one transaction: after a crash or restart the indexer
 *   resumes at the first block not stored, with no gap and no duplicate. The cursor only moves from where it was
 *   read, so a second indexer that slipped past the leader lock stores nothing twice.
 * - Runs only while holding the leader lock; checks that the node serves CHAIN_ID.
 */
import {
  type Address,
  decodeEventLog,
  encodeEventTopics,
  type Hex,
  numberToHex,
  type PublicClient,
} from "viem";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { insertFee } from "../fees/fees.js";
import { bettingAbi } from "./betting-abi.js";
import { advanceCursor, readCursor } from "./chain.repository.js";
import type { LeaderLock } from "./leader-lock.js";

export interface FeeIndexerDeps {
  db: Db;
  clock: Clock;
  client: PublicClient;
  chainId: number;
  /** Lower-case address of the betting contract. */
  contract: Address;
  confirmations: number;
  /** Where to start when no cursor is stored (the contract's deployment block). */
  fromBlock: bigint;
  blockRange: number;
  lock: LeaderLock;
}

export interface FeeIndexRun {
  /** not-leader: another instance indexes; caught-up: nothing confirmed left; lost-race: the cursor moved under us. */
  status: "not-leader" | "indexed" | "caught-up" | "lost-race";
  ranges: number;
  /** Fee records written (not counting ones already stored). */
  created: number;
  /** The first block still to index. */
  nextBlock: bigint | null;
}

const MAX_MICRO = 2n ** 63n - 1n;
const feeTopic = encodeEventTopics({ abi: bettingAbi, eventName: "FeeCollected" })[0]!;

class CursorMoved extends Error {}

/** The cursor's name: one per chain and contract, so pointing the service at a new contract starts afresh. */
export function feeCursorName(chainId: number, contract: string): string {
  return `fees:${chainId}:${contract.toLowerCase()}`;
}

/** Indexes up to `maxRanges` ranges (default: until caught up), then returns what it did. */
export async function indexFees(
  deps: FeeIndexerDeps,
  opts: { maxRanges?: number } = {},
): Promise<FeeIndexRun> {
  if (!(await deps.lock.acquire())) return { status: "not-leader", ranges: 0, created: 0, nextBlock: null };
  const served = await deps.client.getChainId();
  if (served !== deps.chainId) {
    throw new Error(`CHAIN_RPC_URL serves chain ${served}, not CHAIN_ID ${deps.chainId}; fees not indexed`);
  }
  const name = feeCursorName(deps.chainId, deps.contract);
  const run: FeeIndexRun = { status: "caught-up", ranges: 0, created: 0, nextBlock: null };
  const maxRanges = opts.maxRanges ?? Number.POSITIVE_INFINITY;
  while (run.ranges < maxRanges) {
    const stored = await readCursor(deps.db, name);
    const from = stored ?? deps.fromBlock;
    run.nextBlock = from;
    const safe = (await deps.client.getBlockNumber()) - BigInt(deps.confirmations - 1);
    if (from > safe) return run;
    const to = min(from + BigInt(deps.blockRange) - 1n, safe);
    const fees = await readFees(deps, from, to);
    try {
      await deps.db.transaction(async (tx) => {
        if (!(await advanceCursor(tx, name, stored, to + 1n, deps.clock.now()))) throw new CursorMoved();
        for (const fee of fees) {
          if ((await insertFee(tx, fee)).created) run.created++;
        }
      });
    } catch (err) {
      if (!(err instanceof CursorMoved)) throw err;
      return { ...run, status: "lost-race" };
    }
    run.ranges++;
    run.nextBlock = to + 1n;
    run.status = "indexed";
  }
  return run;
}

/** FeeCollected logs of the contract in [from, to], decoded strictly and stamped with their block's time. */
async function readFees(deps: FeeIndexerDeps, from: bigint, to: bigint) {
  const logs = await deps.client.request({
    method: "eth_getLogs",
    params: [
      { address: deps.contract, topics: [feeTopic], fromBlock: numberToHex(from), toBlock: numberToHex(to) },
    ],
  });
  const blockTimes = new Map<Hex, Date>();
  const fees: Array<{ txHash: string; logIndex: number; amountMicro: bigint; occurredAt: Date }> = [];
  for (const log of logs) {
    const where = `block ${BigInt(log.blockNumber!)} tx ${log.transactionHash} log ${BigInt(log.logIndex!)}`;
    if (log.removed)
      throw new Error(`FeeCollected log removed by a reorganisation below the confirmation depth (${where})`);
    let amount: bigint;
    try {
      const topics = log.topics as [Hex, ...Hex[]];
      const decoded = decodeEventLog({
        abi: bettingAbi,
        eventName: "FeeCollected",
        data: log.data,
        topics,
        strict: true,
      });
      amount = decoded.args.amount;
    } catch (err) {
      throw new Error(`FeeCollected log does not match the ABI (${where}): ${(err as Error).message}`);
    }
    if (amount > MAX_MICRO) throw new Error(`FeeCollected amount ${amount} is too large to store (${where})`);
    let occurredAt = blockTimes.get(log.blockHash!);
    if (!occurredAt) {
      const block = await deps.client.getBlock({ blockNumber: BigInt(log.blockNumber!) });
      if (block.hash !== log.blockHash)
        throw new Error(`block ${block.number} changed while indexing; retrying later`);
      occurredAt = new Date(Number(block.timestamp) * 1000);
      blockTimes.set(log.blockHash!, occurredAt);
    }
    fees.push({
      txHash: log.transactionHash!.toLowerCase(),
      logIndex: Number(BigInt(log.logIndex!)),
      amountMicro: amount,
      occurredAt,
    });
  }
  return fees;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
