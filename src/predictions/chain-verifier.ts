/**
 * How version-2 bets are confirmed, as CHAIN_VERIFIER says:
 * - "rpc": the chain decides. Bets are the betting contract's BetPlaced logs, found by the bet indexer
 *   (src/chain/bet-indexer.ts) and, for a report, read from the transaction's receipt through a `ChainBetReader`
 *   (src/chain/tx-bets.ts). A report never creates a bet of its own.
 * - "none": a report is stored pending and stays so (no verifier runs).
 * - "trust" (development only, refused in production): a report is believed as sent.
 * The last two judge reports through a `ChainVerifier`.
 */
import type { Config } from "../config.js";
import type { ChainBetLog } from "./record-chain-bets.js";
import type { Rejection } from "./rejection.js";

export interface BetReport {
  chainId: number;
  txHash: string;
  bettorLower: string;
  eventId: string;
  market: string;
  outcome: string;
  stakeMicro: bigint;
  oddsMilli: bigint;
}

export type Verification =
  | { status: "confirmed" }
  | { status: "pending" }
  | ({ status: "rejected" } & Rejection);

export interface ChainVerifier {
  verify(report: BetReport): Promise<Verification>;
}

export const pendingVerifier: ChainVerifier = { verify: async () => ({ status: "pending" }) };
export const trustVerifier: ChainVerifier = { verify: async () => ({ status: "confirmed" }) };

/** What one transaction holds, as the chain says. */
export type TxBets =
  | { kind: "not-mined" }
  | { kind: "reverted" }
  | { kind: "mined"; final: boolean; bets: ChainBetLog[] };

export interface ChainBetReader {
  chainId: number;
  /** Lower-case address of the betting contract. */
  contract: string;
  /** Throws when the node cannot be reached or serves another chain. */
  readTransaction(txHash: `0x${string}`): Promise<TxBets>;
}

/** The report verifier of CHAIN_VERIFIER=none or trust ("rpc" reads the chain instead: chain/tx-bets.ts). */
export function chainVerifierFor(config: Pick<Config, "chainVerifier">): ChainVerifier {
  return config.chainVerifier === "trust" ? trustVerifier : pendingVerifier;
}
