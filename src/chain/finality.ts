/**
 * Which blocks are final, i.e. may be counted: bets and fees are read only from final blocks.
 *
 * Contract:
 * - "confirmations": the newest block with CHAIN_CONFIRMATIONS confirmations (its own block counts as one).
 * - "finalized" (default): the older of that block and the node's `finalized` block, where the node serves the
 *   tag. A node that answers the tag with a JSON-RPC error, or with no block, does not serve it: then the
 *   confirmations alone decide. (Ganache 7.9 answers `finalized` with the latest block, so on it the
 *   confirmations decide too.) A node that cannot be reached throws: nothing is decided without it.
 * - null while the chain is shorter than the confirmations.
 */
import { BlockNotFoundError, type PublicClient, RpcError } from "viem";

export interface Finality {
  mode: "finalized" | "confirmations";
  confirmations: number;
}

/** The number of the newest final block; null when no block is final yet. */
export async function finalHead(client: PublicClient, finality: Finality): Promise<bigint | null> {
  const latest = await client.getBlockNumber({ cacheTime: 0 });
  let head = latest - BigInt(finality.confirmations - 1);
  if (finality.mode === "finalized") {
    const finalized = await finalizedBlockNumber(client);
    if (finalized !== null && finalized < head) head = finalized;
  }
  return head < 0n ? null : head;
}

async function finalizedBlockNumber(client: PublicClient): Promise<bigint | null> {
  try {
    return (await client.getBlock({ blockTag: "finalized" })).number;
  } catch (err) {
    if (err instanceof RpcError || err instanceof BlockNotFoundError) return null;
    throw err;
  }
}
