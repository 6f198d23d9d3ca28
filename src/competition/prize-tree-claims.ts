/**
 * Whose PrizeClaimed logs count as claims of a stored prize tree: those of the configured distributor (chain and
 * contract, the contract lower-case as the indexer stores it); none when no distributor is configured, so every
 * leaf reads unclaimed. Pure: the readers (get-prize-tree.ts, my-prize-claim.ts) read the claims themselves.
 */
import type { CompetitionDeps } from "./competition-deps.js";

export interface ClaimsSource {
  chainId: number;
  contract: string;
}

export function claimsSource(distributor: CompetitionDeps["prizeDistributor"]): ClaimsSource | null {
  if (!distributor) return null;
  return { chainId: distributor.chainId, contract: distributor.contract.toLowerCase() };
}
