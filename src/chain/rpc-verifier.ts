/**
 * The RPC chain verifier (CHAIN_VERIFIER=rpc): confirms a reported version-2 bet from its transaction receipt.
 *
 * Contract, in order:
 * - A report for another chain than CHAIN_ID, or for an outcome its event does not have, is rejected.
 * - Trouble reaching the node, or a node serving another chain than CHAIN_ID, answers pending (and is logged): the
 *   background re-check asks again. Nothing is decided from a node we cannot trust.
 * - No receipt: pending, until the chain's confirmed head is at or past the event's kickoff; then the transaction
 *   can only ever be mined after kickoff (a replaced or dropped transaction never is), so it is rejected.
 * - A receipt with fewer than `confirmations` confirmations (its own block counts as one): pending. No verdict is
 *   drawn from a block that may still be reorganised away.
 * - Status not success (reverted): rejected.
 * - Logs: only those emitted by the configured contract, decoded strictly with the BetPlaced ABI; the first equal to
 *   the report (bettor = the reporting wallet, eventId, outcome, amount, odds; see bet-encoding.ts) confirms the
 *   bet with its log index; otherwise rejected naming the difference (bet-match.ts).
 * - A bet mined in a block whose timestamp is at or after kickoff is rejected: a report sent before kickoff must
 *   not become an option to place the bet later.
 */
import {
  type Address,
  decodeEventLog,
  type Hex,
  type PublicClient,
  TransactionReceiptNotFoundError,
} from "viem";
import type { ChainVerifier, Verification, VerifierLog } from "../predictions/chain-verifier.js";
import { type MarketOutcomes, onchainEventId, onchainOutcome } from "./bet-encoding.js";
import { matchPlacedBet, type PlacedBet } from "./bet-match.js";
import { bettingAbi } from "./betting-abi.js";

export interface RpcVerifierDeps {
  client: PublicClient;
  chainId: number;
  /** Lower-case address of the betting contract. */
  contract: Address;
  confirmations: number;
  /** The event a bet is on: kickoff and markets in served order; null when there is no such event. */
  findEvent(eventId: string): Promise<{ kickoffAt: Date; markets: MarketOutcomes[] } | null>;
  log?: VerifierLog;
}

const pending: Verification = { status: "pending" };
const rejected = (reason: string): Verification => ({ status: "rejected", reason });

export function createRpcVerifier(deps: RpcVerifierDeps): ChainVerifier {
  const { client, confirmations } = deps;
  const contract = deps.contract.toLowerCase();
  let nodeChainChecked = false;

  /** True once the node has said it serves CHAIN_ID (asked until it has). */
  async function nodeServesChain(): Promise<boolean> {
    if (nodeChainChecked) return true;
    const served = await client.getChainId();
    if (served !== deps.chainId) {
      deps.log?.warn({ served, expected: deps.chainId }, "CHAIN_RPC_URL serves another chain than CHAIN_ID");
      return false;
    }
    nodeChainChecked = true;
    return true;
  }

  return {
    async verify(report) {
      if (report.chainId !== deps.chainId) {
        return rejected(`bets are verified on chain ${deps.chainId}, not on chain ${report.chainId}`);
      }
      const event = await deps.findEvent(report.eventId);
      const outcome = event ? onchainOutcome(event.markets, report.market, report.outcome) : null;
      if (!event || outcome === null) {
        return rejected(`${report.eventId}/${report.market} has no outcome ${report.outcome}`);
      }
      const kickoffMs = event.kickoffAt.getTime();
      try {
        if (!(await nodeServesChain())) return pending;
        const receipt = await client
          .getTransactionReceipt({ hash: report.txHash as Hex })
          .catch((err: unknown) => {
            if (err instanceof TransactionReceiptNotFoundError) return null;
            throw err;
          });
        const head = await client.getBlockNumber();
        if (!receipt) {
          // The newest block with `confirmations` confirmations.
          const safe = head - BigInt(confirmations - 1);
          if (safe < 0n) return pending;
          const safeBlock = await client.getBlock({ blockNumber: safe });
          return Number(safeBlock.timestamp) * 1000 >= kickoffMs
            ? rejected("the transaction was not mined before kickoff")
            : pending;
        }
        if (head - receipt.blockNumber + 1n < BigInt(confirmations)) return pending;
        if (receipt.status !== "success") return rejected("the transaction reverted");

        const bets: PlacedBet[] = [];
        for (const log of receipt.logs) {
          if (log.address.toLowerCase() !== contract) continue;
          try {
            const decoded = decodeEventLog({
              abi: bettingAbi,
              data: log.data,
              topics: log.topics,
              strict: true,
            });
            if (decoded.eventName === "BetPlaced") bets.push({ logIndex: log.logIndex, ...decoded.args });
          } catch {
            // Another event of the contract, or a log that does not fit the ABI exactly: not a bet.
          }
        }
        const match = matchPlacedBet(bets, {
          contract,
          bettorLower: report.bettorLower,
          event: report.eventId,
          market: report.market,
          outcomeKey: report.outcome,
          eventId: onchainEventId(report.eventId, report.market),
          outcome,
          amount: report.stakeMicro,
          odds: report.oddsMilli,
        });
        if ("reason" in match) return rejected(match.reason);

        const block = await client.getBlock({ blockNumber: receipt.blockNumber });
        // The receipt's block was replaced between the two reads: ask again later.
        if (block.hash !== receipt.blockHash) return pending;
        const minedAt = new Date(Number(block.timestamp) * 1000);
        if (minedAt.getTime() >= kickoffMs) {
          return rejected(`the bet was mined at ${minedAt.toISOString()}, not before kickoff`);
        }
        return { status: "confirmed", logIndex: match.logIndex };
      } catch (err) {
        deps.log?.warn(
          { err, txHash: report.txHash },
          "chain verifier could not read the chain; bet stays pending",
        );
        return pending;
      }
    },
  };
}
