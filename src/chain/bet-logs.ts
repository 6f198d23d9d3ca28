/**
 * BetPlaced logs of the betting contract, decoded for the bets use cases (predictions/record-chain-bets.ts).
 *
 * Contract:
 * - Each log is decoded strictly with the contract's ABI; a log with BetPlaced's topic that does not fit it stops
 *   the caller with an error naming the log (BETTING_CONTRACT_ADDRESS points at another contract).
 * - The quote fields the log carries (bettor, marketId, outcome, odds, expiry) give the quote's EIP-712 digest
 *   under this chain and the emitting contract, and its signature gives the address that signed them.
 */
import { type Address, decodeEventLog, encodeEventTopics, type Hex } from "viem";
import { spBettingAbi } from "../../contracts/abi.js";
import { quoteDigest, recoverQuoteSigner } from "../../contracts/quote-typed-data.js";
import type { ChainBetLog } from "../predictions/record-chain-bets.js";

/** The first topic of BetPlaced. */
export const BET_PLACED_TOPIC = encodeEventTopics({ abi: spBettingAbi, eventName: "BetPlaced" })[0] as Hex;

export interface RawBetLog {
  address: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date;
  topics: readonly Hex[];
  data: Hex;
}

export async function decodeBetLogs(chainId: number, logs: readonly RawBetLog[]): Promise<ChainBetLog[]> {
  const bets: ChainBetLog[] = [];
  for (const log of logs) {
    let args: {
      bettor: Address;
      marketId: Hex;
      outcome: number;
      amount: bigint;
      odds: bigint;
      expiry: bigint;
      signature: Hex;
    };
    try {
      args = decodeEventLog({
        abi: spBettingAbi,
        eventName: "BetPlaced",
        data: log.data,
        topics: log.topics as [Hex, ...Hex[]],
        strict: true,
      }).args;
    } catch (err) {
      const where = `block ${log.blockNumber} tx ${log.transactionHash} log ${log.logIndex}`;
      throw new Error(`BetPlaced log does not match the betting ABI (${where}): ${(err as Error).message}`);
    }
    const contract = log.address.toLowerCase() as Address;
    const quote = {
      bettor: args.bettor,
      marketId: args.marketId,
      outcome: args.outcome,
      odds: args.odds,
      expiry: args.expiry,
    };
    bets.push({
      chainId,
      contract,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: log.logIndex,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash.toLowerCase(),
      minedAt: log.blockTime,
      bettor: args.bettor.toLowerCase(),
      marketId: args.marketId.toLowerCase(),
      outcomeIndex: args.outcome,
      amount: args.amount,
      odds: args.odds,
      expiry: args.expiry,
      digest: quoteDigest(chainId, contract, quote).toLowerCase(),
      signer: await recoverQuoteSigner(chainId, contract, quote, args.signature),
    });
  }
  return bets;
}
