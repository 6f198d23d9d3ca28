/**
 * The chain indexers' common loop: copies one kind of log (a first topic, at one or more addresses) from final
 * blocks into the database, and rolls back what a reorganisation took away. The fee indexer and the bet indexer
 * are two streams of it (fee-indexer.ts, bet-indexer.ts).
 *
 * Contract:
 * - Reads blocks in ranges of at most `blockRange` from the stored cursor (first run: the stream's `fromBlock`),
 *   never past the newest final block (finality.ts).
 * - A range's records, the cursor's move past it and the range's last block (number, hash, time) are stored in
 *   one transaction: after a crash or restart the indexer resumes at the first block not stored, with no gap and
 *   no duplicate. The cursor only moves from where it was read, so a second indexer that slipped past the leader
 *   lock stores nothing twice ("lost-race").
 * - Every run first re-checks the stored blocks against the chain, newest first. One above the node's newest block
 *   proves nothing: when every stored block the node has matches, the node is behind (a lagging backend), not
 *   reorganised, and the run stops ("node-behind") with nothing rolled back. A different hash (or a block missing
 *   below the node's newest) is a reorganisation: the stored blocks are walked
 *   back, newest first, to the newest one the chain still has; everything the stream stored above it is rolled
 *   back (`rollback`) in one transaction, the cursor returns just above it, and the blocks are read again. With no
 *   stored block matching, the stream starts over from `fromBlock`.
 * - A log is stored only if it is what was asked for: one of the stream's addresses, its first topic, a block of
 *   the range. A node answering anything else is an error (nothing of the range is stored).
 * - A range is stored only when the chain did not move while it was read: the range's first block must sit on
 *   the stored block before it, every log's block hash must be the chain's, and the range's last block must be
 *   the same before and after reading the logs. Otherwise the run stops ("chain-moved") and the next run
 *   re-checks.
 * - Runs only while holding the leader lock; checks that the node serves CHAIN_ID.
 */
import { type Address, BlockNotFoundError, type Hex, numberToHex, type PublicClient } from "viem";
import type { Clock } from "../clock.js";
import type { Db, Tx } from "../db/client.js";
import type { LeaderLock } from "../db/leader-lock.js";
import {
  advanceCursor,
  forgetBlocksAbove,
  pruneBlocks,
  readCursor,
  recordBlock,
  storedBlocks,
} from "./chain.repository.js";
import { type Finality, finalHead } from "./finality.js";

export interface LogIndexerDeps {
  db: Db;
  clock: Clock;
  client: PublicClient;
  chainId: number;
  finality: Finality;
  blockRange: number;
  lock: LeaderLock;
}

/** A log as the streams get it: addresses and hashes lower-case, with its block's time. */
export interface ChainLog {
  address: Address;
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: number;
  topics: [Hex, ...Hex[]];
  data: Hex;
  blockTime: Date;
}

/** Where a log sits on chain `chainId`: the key (chain, tx hash, log index) and block of a row read from it. */
export function logPlace(chainId: number, log: ChainLog) {
  return {
    chainId,
    contract: log.address,
    txHash: log.transactionHash,
    logIndex: log.logIndex,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
  };
}

export interface LogStream {
  /** The cursor's name; also names the stored blocks. */
  name: string;
  addresses: Address[];
  topic0: Hex;
  /** Where to start when no cursor is stored (the contract's deployment block). */
  fromBlock: bigint;
  /** Stores what the logs of blocks [from, to] hold, in `tx`; returns how many records it created. */
  store(tx: Tx, logs: ChainLog[], range: { from: bigint; to: bigint }): Promise<number>;
  /** Removes or rejects, in `tx`, everything it stored from blocks above `after`; returns how many records. */
  rollback(tx: Tx, after: bigint): Promise<number>;
}

export interface IndexRun {
  /**
   * not-leader: another instance indexes; caught-up: no final block left to read; lost-race: the cursor moved under
   * us; chain-moved: the chain changed while a range was read (the next run re-checks); node-behind: the node has not
   * got the newest block this stream read (a lagging backend, not a reorganisation: nothing rolled back).
   */
  status: "not-leader" | "indexed" | "caught-up" | "lost-race" | "chain-moved" | "node-behind";
  ranges: number;
  /** Records created (not counting ones already stored). */
  created: number;
  /** Records rolled back after a reorganisation. */
  rolledBack: number;
  /** The first block still to index. */
  nextBlock: bigint | null;
  /** The newest final block the run saw (null: none final yet, or the run did not get that far). */
  head: bigint | null;
  /** The stream's cursor name. */
  cursor: string;
}

/** Stored blocks re-checked per walk-back step. */
const WALK_BACK_BATCH = 100;
/** Stored blocks deeper than this below the cursor are forgotten: a reorganisation that deep starts over. */
const KEEP_BLOCKS = 100_000n;

class CursorMoved extends Error {}
/** The node's newest block is below the newest block this stream stored: it is behind (a lagging backend). */
class NodeBehind extends Error {}

/** Indexes up to `maxRanges` ranges (default: until caught up), then returns what it did. */
export async function indexLogs(
  deps: LogIndexerDeps,
  stream: LogStream,
  opts: { maxRanges?: number } = {},
): Promise<IndexRun> {
  const run: IndexRun = {
    status: "caught-up",
    ranges: 0,
    created: 0,
    rolledBack: 0,
    nextBlock: null,
    head: null,
    cursor: stream.name,
  };
  if (!(await deps.lock.acquire())) return { ...run, status: "not-leader" };
  const served = await deps.client.getChainId();
  if (served !== deps.chainId) {
    throw new Error(
      `CHAIN_RPC_URL serves chain ${served}, not CHAIN_ID ${deps.chainId}; ${stream.name} not indexed`,
    );
  }
  try {
    run.rolledBack = await reconcile(deps, stream);
    const maxRanges = opts.maxRanges ?? Number.POSITIVE_INFINITY;
    while (run.ranges < maxRanges) {
      const stored = await readCursor(deps.db, stream.name);
      const from = stored ?? stream.fromBlock;
      run.nextBlock = from;
      const head = await finalHead(deps.client, deps.finality);
      run.head = head;
      if (head === null || from > head) return run;
      const to = min(from + BigInt(deps.blockRange) - 1n, head);
      const read = await readRange(deps, stream, from, to);
      if (!read) return { ...run, status: "chain-moved" };
      await deps.db.transaction(async (tx) => {
        if (!(await advanceCursor(tx, stream.name, stored, to + 1n, deps.clock.now())))
          throw new CursorMoved();
        await recordBlock(tx, {
          name: stream.name,
          number: to,
          hash: read.last.hash,
          blockTime: read.last.time,
        });
        await pruneBlocks(tx, stream.name, to - KEEP_BLOCKS);
        run.created += await stream.store(tx, read.logs, { from, to });
      });
      run.ranges++;
      run.nextBlock = to + 1n;
      run.status = "indexed";
    }
    return run;
  } catch (err) {
    if (err instanceof NodeBehind) return { ...run, status: "node-behind" };
    if (!(err instanceof CursorMoved)) throw err;
    return { ...run, status: "lost-race" };
  }
}

/**
 * Re-checks the stored blocks against the chain, newest first; after a reorganisation, rolls the stream back to the
 * newest stored block the chain still has (walking back through the stored blocks in batches, as far as needed;
 * none left: to the start) in one transaction, and returns how many records were rolled back. A stored block above
 * the node's newest proves nothing either way: when every block the node has matches, the node is behind (a
 * lagging backend), not reorganised, and nothing is rolled back (NodeBehind).
 */
async function reconcile(deps: LogIndexerDeps, stream: LogStream): Promise<number> {
  const [newest] = await storedBlocks(deps.db, stream.name, 1);
  if (!newest) return 0;
  const head = await deps.client.getBlockNumber();
  let fork: bigint | null = null;
  let mismatched = false;
  let below: bigint | undefined;
  walk: for (;;) {
    const blocks = await storedBlocks(deps.db, stream.name, WALK_BACK_BATCH, below);
    if (blocks.length === 0) break;
    for (const block of blocks) {
      if (block.number > head) continue;
      if ((await hashAt(deps.client, block.number)) === block.hash) {
        fork = block.number;
        break walk;
      }
      mismatched = true;
    }
    below = blocks.at(-1)!.number;
  }
  if (!mismatched) {
    if (fork === newest.number) return 0;
    throw new NodeBehind();
  }
  // No stored block is on the chain any more: the fork is below all of them, and the stream starts over.
  const after = fork ?? stream.fromBlock - 1n;
  return deps.db.transaction(async (tx) => {
    const cursor = await readCursor(tx, stream.name);
    const next = after + 1n > stream.fromBlock ? after + 1n : stream.fromBlock;
    if (!(await advanceCursor(tx, stream.name, cursor, next, deps.clock.now()))) throw new CursorMoved();
    await forgetBlocksAbove(tx, stream.name, after);
    return stream.rollback(tx, after);
  });
}

/** The logs of [from, to] with their block times, and the range's last block; null when the chain moved. */
async function readRange(deps: LogIndexerDeps, stream: LogStream, from: bigint, to: bigint) {
  const { client } = deps;
  const last = await blockAt(client, to);
  if (!last) return null;
  const [before] = await storedBlocks(deps.db, stream.name, 1);
  if (before && before.number === from - 1n) {
    const first = from === to ? last : await blockAt(client, from);
    if (first?.parentHash !== before.hash) return null;
  }
  const raw = await client.request({
    method: "eth_getLogs",
    params: [
      {
        address: stream.addresses,
        topics: [stream.topic0],
        fromBlock: numberToHex(from),
        toBlock: numberToHex(to),
      },
    ],
  });
  const blocks = new Map<bigint, { hash: Hex; time: Date }>([[to, last]]);
  const logs: ChainLog[] = [];
  const addresses = new Set(stream.addresses.map((a) => a.toLowerCase()));
  for (const log of raw) {
    if (log.removed || log.blockNumber === null || log.blockHash === null) return null;
    const number = BigInt(log.blockNumber);
    // Only what was asked for: a node that ignored the filter would otherwise have another contract's logs
    // recorded as ours (a fee of anyone's contract in the prize pool), or a block past `to` judged as final.
    if (
      !addresses.has(log.address.toLowerCase()) ||
      log.topics[0]?.toLowerCase() !== stream.topic0.toLowerCase() ||
      number < from ||
      number > to ||
      log.transactionHash === null ||
      log.logIndex === null
    ) {
      throw new Error(
        `the node's eth_getLogs answered a log it was not asked for (contract ${log.address}, block ${number}, topic ${log.topics[0]}) for ${stream.name} blocks ${from}–${to}; nothing stored`,
      );
    }
    let block = blocks.get(number);
    if (!block) {
      const read = await blockAt(client, number);
      if (!read) return null;
      block = read;
      blocks.set(number, block);
    }
    if (block.hash !== log.blockHash.toLowerCase()) return null;
    logs.push({
      address: log.address.toLowerCase() as Address,
      blockNumber: number,
      blockHash: block.hash,
      transactionHash: log.transactionHash.toLowerCase() as Hex,
      logIndex: Number(BigInt(log.logIndex)),
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
      blockTime: block.time,
    });
  }
  if ((await blockAt(client, to))?.hash !== last.hash) return null;
  return { logs, last };
}

/** The chain's block at `number` (hash lower-case); null when the chain has no such block (any more). */
async function blockAt(client: PublicClient, number: bigint) {
  try {
    const block = await client.getBlock({ blockNumber: number });
    return {
      hash: block.hash!.toLowerCase() as Hex,
      parentHash: block.parentHash.toLowerCase() as Hex,
      time: new Date(Number(block.timestamp) * 1000),
    };
  } catch (err) {
    if (err instanceof BlockNotFoundError) return null;
    throw err;
  }
}

async function hashAt(client: PublicClient, number: bigint): Promise<Hex | null> {
  return (await blockAt(client, number))?.hash ?? null;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
