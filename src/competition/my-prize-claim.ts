/**
 * One winner's claim on a finalized week's stored prize tree (`/me`): their leaf with its Merkle proof and whether
 * it was claimed, or the prize awaiting a wallet and the later week that carried it. Reads only.
 */
import type { Queryable } from "../db/client.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { carriedFromWeek, prizeProof } from "./prize-tree.js";
import { claimedAccounts, findPrizeTree, prizeTreeArrears } from "./prize-tree.repository.js";
import { claimsSource } from "./prize-tree-claims.js";

export interface MyPrizeClaim {
  week: number;
  root: string | null;
  /** Checksummed wallet of the leaf; null while the winner has no wallet (awaiting a supplementary root). */
  account: string | null;
  amountMicro: bigint;
  /** The part of `amountMicro` carried from earlier weeks' prizes awaiting a wallet. */
  carriedMicro: bigint;
  proof: string[];
  claimed: boolean;
  /** Won without a wallet, not yet carried into a later week's tree. */
  awaitingWallet: boolean;
  /** Won without a wallet and carried into this later week's tree: claim it there. */
  paidInWeek: number | null;
}

/**
 * The prize of `userId` in finalized week W with its proof; null when W has no stored tree or they won nothing.
 * Reads first (the tree, then the leaf's claim or, for a prize awaiting a wallet, the trees that carry arrears),
 * then derives.
 */
export async function myPrizeClaim(
  deps: Pick<CompetitionDeps, "db" | "prizeDistributor">,
  q: Queryable,
  input: { week: number; userId: string },
): Promise<MyPrizeClaim | null> {
  const source = claimsSource(deps.prizeDistributor);
  const tree = await findPrizeTree(q, input.week);
  if (!tree) return null;
  const leaf = tree.leaves.find((l) => l.userId === input.userId);
  const awaiting = leaf ? undefined : tree.awaitingWallet.find((a) => a.userId === input.userId);
  if (!leaf && !awaiting) return null;
  const claimed =
    leaf && source
      ? await claimedAccounts(deps.db, { ...source, week: tree.week, accounts: [leaf.account] })
      : new Set<string>();
  const trees = awaiting ? await prizeTreeArrears(q) : [];
  if (leaf) {
    return {
      week: tree.week,
      root: tree.root,
      account: leaf.account,
      amountMicro: leaf.amountMicro,
      carriedMicro: leaf.carriedMicro,
      proof: prizeProof(tree, leaf.account) ?? [],
      claimed: claimed.has(leaf.account.toLowerCase()),
      awaitingWallet: false,
      paidInWeek: null,
    };
  }
  const paidInWeek = carriedFromWeek(trees, tree.week).get(input.userId) ?? null;
  return {
    week: tree.week,
    root: tree.root,
    account: null,
    amountMicro: awaiting!.amountMicro,
    carriedMicro: 0n,
    proof: [],
    claimed: false,
    awaitingWallet: paidInWeek === null,
    paidInWeek,
  };
}
