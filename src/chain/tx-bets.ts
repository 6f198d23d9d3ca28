/**
 * Reads the bets of one transaction from its receipt, for a `bet-placed-v2` report (CHAIN_VERIFIER=rpc).
 *
 * Contract:
 * - No receipt: "not-mined". Status not success: "reverted".
 * - Otherwise "mined" with the BetPlaced logs the betting contract emitted in it (decoded as bet-logs.ts does),
 *   stamped with the block's time, and `final` when the block is final (finality.ts) and still the chain's block
 *   at that height. A receipt whose block the chain no longer has at that height counts as "not-mined".
 * - A node that cannot be reached, or serves another chain than CHAIN_ID, throws: the report is answered 503.
 */
import {
  type Address,
  BlockNotFoundError,
  type Hex,
  type PublicClient,
  TransactionReceiptNotFoundError,
} from "viem";
import type { Config } from "../config.js";
import type { ChainBetReader, TxBets } from "../predictions/chain-verifier.js";
import { BET_PLACED_TOPIC, decodeBetLogs } from "./bet-logs.js";
import { createChainClient } from "./chain-client.js";
import { type Finality, finalHead } from "./finality.js";

export function createTxBetReader(deps: {
  client: PublicClient;
  chainId: number;
  /** Lower-case address of the betting contract. */
  contract: Address;
  finality: Finality;
}): ChainBetReader {
  const { client, chainId } = deps;
  const contract = deps.contract.toLowerCase();
  let nodeChecked = false;
  return {
    chainId,
    contract,
    async readTransaction(txHash: Hex): Promise<TxBets> {
      if (!nodeChecked) {
        const served = await client.getChainId();
        if (served !== chainId)
          throw new Error(`CHAIN_RPC_URL serves chain ${served}, not CHAIN_ID ${chainId}`);
        nodeChecked = true;
      }
      const receipt = await client.getTransactionReceipt({ hash: txHash }).catch((err: unknown) => {
        if (err instanceof TransactionReceiptNotFoundError) return null;
        throw err;
      });
      if (!receipt) return { kind: "not-mined" };
      if (receipt.status !== "success") return { kind: "reverted" };
      const block = await client.getBlock({ blockNumber: receipt.blockNumber }).catch((err: unknown) => {
        if (err instanceof BlockNotFoundError) return null;
        throw err;
      });
      if (block?.hash !== receipt.blockHash) return { kind: "not-mined" };
      const head = await finalHead(client, deps.finality);
      const logs = receipt.logs
        .filter((l) => l.address.toLowerCase() === contract && l.topics[0] === BET_PLACED_TOPIC)
        .map((l) => ({
          address: l.address,
          transactionHash: l.transactionHash,
          logIndex: l.logIndex,
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash,
          blockTime: new Date(Number(block.timestamp) * 1000),
          topics: l.topics,
          data: l.data,
        }));
      return {
        kind: "mined",
        final: head !== null && receipt.blockNumber <= head,
        bets: await decodeBetLogs(chainId, logs),
      };
    },
  };
}

/** The receipt reader of CHAIN_VERIFIER=rpc; null otherwise. */
export function chainBetReaderFor(config: Pick<Config, "chainVerifier" | "chain">): ChainBetReader | null {
  const chain = config.chain;
  if (config.chainVerifier !== "rpc" || !chain?.rpcUrl || !chain.contract) return null;
  return createTxBetReader({
    client: createChainClient(chain.rpcUrl),
    chainId: chain.chainId,
    contract: chain.contract,
    finality: { mode: chain.finality, confirmations: chain.confirmations },
  });
}
