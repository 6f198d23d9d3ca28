/**
 * Records protocol fees: one from the admin / feed API or the CLI (`recordProtocolFee`), or those the fee indexer
 * read from the chain (`recordChainFees`, undone above a fork by `removeChainFeesAbove`). Lower-case tx hashes,
 * micro-USDC, idempotent on (txHash, logIndex).
 */
import type { Queryable, Tx } from "../db/client.js";
import { parseUsdc } from "../shared/money.js";
import { deleteFeesAbove, type FeeRow, insertFee } from "./fees.js";

/** One fee from the admin / feed API or the CLI; a replay returns the first record with `created: false`. */
export async function recordProtocolFee(
  q: Queryable,
  body: { txHash: string; logIndex: number; amountUsdc: string; occurredAt: string },
): Promise<{ fee: FeeRow; created: boolean }> {
  return insertFee(q, {
    txHash: body.txHash.toLowerCase(),
    logIndex: body.logIndex,
    amountMicro: parseUsdc(body.amountUsdc),
    occurredAt: new Date(body.occurredAt),
  });
}

/** A fee read from the chain by the fee indexer: addresses and hashes lower-case, amount in micro-USDC. */
export interface ChainFee {
  chainId: number;
  contract: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  amountMicro: bigint;
  occurredAt: Date;
}

/**
 * Records fees read from the chain, in the indexer's transaction, idempotently on (txHash, logIndex) like the feed
 * API (a fee the feed recorded first keeps its record); returns how many records were created.
 */
export async function recordChainFees(tx: Tx, fees: ChainFee[]): Promise<number> {
  let created = 0;
  for (const fee of fees) if ((await insertFee(tx, fee)).created) created++;
  return created;
}

/**
 * Deletes the indexer's fee records of these contracts read from blocks above `after` (a reorganisation took the
 * blocks away); returns how many. Records of the feed API are never touched.
 */
export function removeChainFeesAbove(
  tx: Tx,
  where: { chainId: number; contracts: string[]; after: bigint },
): Promise<number> {
  return deleteFeesAbove(tx, where);
}
