/**
 * The chain verifier: confirms that a reported version-2 bet happened on-chain as reported. One interface, several
 * implementations: "none" (bets stay pending until a real verifier runs) and "trust" (development only: believes
 * the report). The RPC verifier reading transaction receipts plugs in here.
 */
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
  | { status: "rejected"; reason: string };

export interface ChainVerifier {
  verify(report: BetReport): Promise<Verification>;
}

export const pendingVerifier: ChainVerifier = { verify: async () => ({ status: "pending" }) };
export const trustVerifier: ChainVerifier = { verify: async () => ({ status: "confirmed" }) };

export function chainVerifierFor(kind: "none" | "trust"): ChainVerifier {
  return kind === "trust" ? trustVerifier : pendingVerifier;
}
