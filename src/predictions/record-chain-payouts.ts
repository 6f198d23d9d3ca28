/**
 * Payouts as the chain holds them (SPEC §10): the payout indexer (chain/payout-indexer.ts) records each
 * PayoutClaimed log of the betting contract, which marks the bets of its nonce claimed; after a reorganisation it
 * removes the payouts read above the fork, un-claiming bets whose nonce no payout pays any more. Both run in the
 * indexer's transaction.
 */
import type { Tx } from "../db/client.js";
import { type ChainPayoutRecord, insertChainPayouts, removeChainPayoutsAbove } from "./payouts.repository.js";

export type { ChainPayoutRecord };

/** Stores the payouts (each log once) and marks their bets claimed; returns how many were new. */
export function recordChainPayouts(tx: Tx, records: readonly ChainPayoutRecord[]): Promise<number> {
  return insertChainPayouts(tx, records);
}

/** Removes the payouts of `contract` read above block `after`; returns how many. */
export function removeChainPayouts(
  tx: Tx,
  where: { chainId: number; contract: string; after: bigint },
): Promise<number> {
  return removeChainPayoutsAbove(tx, where);
}
