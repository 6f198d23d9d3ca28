/**
 * What a stored prize tree's readers add to it: which accounts claimed their leaf (PrizeClaimed logs of the
 * configured distributor; none claimed when no distributor is configured) and which later week's tree carried an
 * awaiting prize.
 */
import type { Queryable } from "../db/client.js";
import type { CompetitionDeps } from "./competition-deps.js";
import type { PrizeTree } from "./prize-tree.js";
import { claimedAccounts, prizeTreeArrears } from "./prize-tree.repository.js";

/** The lower-case accounts among `accounts` that claimed their leaf of `tree`; none without a distributor. */
export function claimsOf(
  deps: Pick<CompetitionDeps, "db" | "prizeDistributor">,
  tree: PrizeTree,
  accounts: string[],
): Promise<Set<string>> {
  const distributor = deps.prizeDistributor;
  if (!distributor) return Promise.resolve(new Set());
  return claimedAccounts(deps.db, {
    chainId: distributor.chainId,
    contract: distributor.contract.toLowerCase(),
    week: tree.week,
    accounts,
  });
}

/** userId → the week whose tree carried that user's awaiting prize of week `week`. */
export async function carriedFrom(q: Queryable, week: number): Promise<Map<string, number>> {
  const paid = new Map<string, number>();
  for (const t of await prizeTreeArrears(q)) {
    for (const c of t.carried) if (c.fromWeek === week) paid.set(c.userId, t.week);
  }
  return paid;
}
