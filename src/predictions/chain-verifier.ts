/**
 * The chain verifier: confirms that a reported version-2 bet happened on-chain as reported. One interface, several
 * implementations: "none" (bets stay pending until a real verifier runs), "trust" (development only: believes
 * the report) and "rpc" (reads the transaction receipt from a node: src/chain/rpc-verifier.ts).
 */
import { createChainClient } from "../chain/chain-client.js";
import { createRpcVerifier } from "../chain/rpc-verifier.js";
import type { Config } from "../config.js";
import type { Queryable } from "../db/client.js";
import { findEvent, type StoredMarket } from "../events/events.js";

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

/** `logIndex`: the log that backs a confirmed bet, when the verifier knows it. */
export type Verification =
  | { status: "confirmed"; logIndex?: number }
  | { status: "pending" }
  | { status: "rejected"; reason: string };

export interface ChainVerifier {
  verify(report: BetReport): Promise<Verification>;
}

/** Where a verifier reports trouble it answers "pending" for (an unreachable node); pino-compatible. */
export interface VerifierLog {
  warn(details: object, message: string): void;
}

export const pendingVerifier: ChainVerifier = { verify: async () => ({ status: "pending" }) };
export const trustVerifier: ChainVerifier = { verify: async () => ({ status: "confirmed" }) };

/** The verifier CHAIN_VERIFIER names; "rpc" reads events (kickoff, outcome order) from `db`. */
export function chainVerifierFor(
  config: Pick<Config, "chainVerifier" | "chain">,
  db: Queryable,
  log?: VerifierLog,
): ChainVerifier {
  if (config.chainVerifier === "trust") return trustVerifier;
  if (config.chainVerifier !== "rpc") return pendingVerifier;
  const chain = config.chain;
  if (!chain) throw new Error("CHAIN_VERIFIER=rpc needs the chain configuration");
  return createRpcVerifier({
    client: createChainClient(chain.rpcUrl),
    chainId: chain.chainId,
    contract: chain.contract,
    confirmations: chain.confirmations,
    findEvent: async (id) => {
      const event = await findEvent(db, id);
      return event && { kickoffAt: event.kickoffAt, markets: event.markets as StoredMarket[] };
    },
    log,
  });
}
