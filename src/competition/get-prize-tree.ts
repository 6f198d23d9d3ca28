/**
 * A finalized week's prize tree as published (GET /api/competition/weeks/:week/prize-tree): the root, the leaves,
 * the total to fund and which accounts have claimed (PrizeClaimed logs of the configured distributor).
 *
 * Contract:
 * - A week not finalized: 409 WEEK_NOT_FINALIZED.
 * - The tree is the one finalize stored (weeks finalized before trees were stored got theirs from the start-up
 *   back-fill, backfill-prize-trees.ts). Reading never writes.
 * - A winner's account is their payout address when they set one (PUT /api/me/payout-address), else their
 *   sign-in wallet (prize-tree-of.ts).
 * - `claimed` is false for every leaf when no distributor is configured.
 * - A prize won without a wallet is awaiting until a later week's tree carries it (prize-tree.ts); from then on
 *   it names that week (`paidInWeek`), where the winner's leaf pays it.
 */
import { AppError } from "../errors.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { carriedFromWeek, type PrizeTree } from "./prize-tree.js";
import { claimedAccounts, findPrizeTree, prizeTreeArrears } from "./prize-tree.repository.js";
import { claimsSource } from "./prize-tree-claims.js";

export interface PublishedPrizeTree {
  tree: PrizeTree;
  /** Lower-case accounts that have claimed their leaf. */
  claimed: Set<string>;
  /** userId → the later week whose tree carried their awaiting prize of this week. */
  paidInWeek: Map<string, number>;
}

export async function getPrizeTree(
  deps: CompetitionDeps,
  input: { week: number },
): Promise<PublishedPrizeTree> {
  const source = claimsSource(deps.prizeDistributor);
  const tree = await findPrizeTree(deps.db, input.week);
  if (!tree) throw new AppError("WEEK_NOT_FINALIZED", `Week ${input.week} is not finalized yet`);
  const accounts = tree.leaves.map((l) => l.account);
  const claimed = source
    ? await claimedAccounts(deps.db, { ...source, week: tree.week, accounts })
    : new Set<string>();
  const trees = await prizeTreeArrears(deps.db);
  return { tree, claimed, paidInWeek: carriedFromWeek(trees, tree.week) };
}
