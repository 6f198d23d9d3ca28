/**
 * The Merkle tree of a finalized week's Champions prizes, as contracts/PrizeDistributor.sol checks them: an
 * OpenZeppelin StandardMerkleTree over LEAF_ENCODING = (week, account, amount in micro-USDC), so anyone can rebuild
 * the root from the published leaves with `@openzeppelin/merkle-tree` (`StandardMerkleTree.of(values, encoding)`).
 *
 * Contract of `buildPrizeTree` (pure, no I/O):
 * - One leaf per paid Champions row whose winner has a wallet and whose amount is above zero, in ladder order;
 *   tied winners at a paid rank each get their own leaf. Accounts are checksummed.
 * - A winner without a wallet (identity sign-in only) gets no leaf: their amount is listed in `awaitingWallet`.
 *   It is carried into the tree of the first week finalized after they link a wallet (`arrears`, the amounts
 *   still awaiting from earlier weeks): their leaf there pays that week's prize plus the arrears (`carriedMicro`),
 *   and `carried` lists what was taken over, so nothing is carried twice. A root never changes
 *   (docs/decisions.md). Arrears of users still without a wallet stay awaiting in their own week.
 * - `totalMicro` is the sum of the leaves: what the operator funds the distributor with for this root.
 * - `root` is null when there is no leaf (nothing to publish on-chain).
 * - Two rows with the same account are a programming error (each wallet belongs to one user).
 */
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { getAddress } from "viem";

export const LEAF_ENCODING = ["uint256", "address", "uint256"] as const;

export interface PrizeLeaf {
  userId: string;
  /** Checksummed wallet. */
  account: string;
  /** What the leaf pays: this week's prize plus `carriedMicro`. */
  amountMicro: bigint;
  /** The part of `amountMicro` carried from earlier weeks' awaiting prizes. */
  carriedMicro: bigint;
}

/** A prize of an earlier week still awaiting its winner's wallet. */
export interface Arrear {
  fromWeek: number;
  userId: string;
  amountMicro: bigint;
}

export interface PrizeTree {
  week: number;
  root: `0x${string}` | null;
  totalMicro: bigint;
  leaves: PrizeLeaf[];
  awaitingWallet: Array<{ userId: string; amountMicro: bigint }>;
  /** The arrears this tree pays. */
  carried: Arrear[];
}

/** The values of the tree's leaves as StandardMerkleTree takes them: [week, account, amount] as decimal strings. */
export function leafValues(week: number, leaves: readonly PrizeLeaf[]): [string, string, string][] {
  return leaves.map((l) => [String(week), l.account, String(l.amountMicro)]);
}

/**
 * The tree of week W's `prizes` (ladder order), with `wallets` of the winners and of the users of `arrears` as they
 * stand now (null: no wallet).
 */
export function buildPrizeTree(
  week: number,
  prizes: ReadonlyArray<{ userId: string; amountMicro: bigint }>,
  wallets: ReadonlyMap<string, string | null>,
  arrears: readonly Arrear[] = [],
): PrizeTree {
  const leaves: PrizeLeaf[] = [];
  const byUser = new Map<string, PrizeLeaf>();
  const accounts = new Set<string>();
  const awaitingWallet: PrizeTree["awaitingWallet"] = [];
  const carried: Arrear[] = [];
  const leafOf = (userId: string, wallet: string) => {
    let leaf = byUser.get(userId);
    if (!leaf) {
      const account = getAddress(wallet);
      if (accounts.has(account)) throw new Error(`wallet ${account} holds two prizes of week ${week}`);
      accounts.add(account);
      leaf = { userId, account, amountMicro: 0n, carriedMicro: 0n };
      byUser.set(userId, leaf);
      leaves.push(leaf);
    }
    return leaf;
  };
  for (const p of prizes) {
    if (p.amountMicro <= 0n) continue;
    const wallet = wallets.get(p.userId) ?? null;
    if (wallet === null) awaitingWallet.push({ userId: p.userId, amountMicro: p.amountMicro });
    else leafOf(p.userId, wallet).amountMicro += p.amountMicro;
  }
  for (const a of arrears) {
    const wallet = wallets.get(a.userId) ?? null;
    if (wallet === null || a.amountMicro <= 0n || a.fromWeek >= week) continue;
    const leaf = leafOf(a.userId, wallet);
    leaf.amountMicro += a.amountMicro;
    leaf.carriedMicro += a.amountMicro;
    carried.push(a);
  }
  return {
    week,
    root: leaves.length === 0 ? null : (merkleTree(week, leaves).root as `0x${string}`),
    totalMicro: leaves.reduce((sum, l) => sum + l.amountMicro, 0n),
    leaves,
    awaitingWallet,
    carried,
  };
}

/**
 * The prizes still awaiting a wallet: every tree's `awaitingWallet` not yet in any tree's `carried`, oldest week
 * first. `trees` may come in any order.
 */
export function outstandingArrears(
  trees: ReadonlyArray<Pick<PrizeTree, "week" | "awaitingWallet" | "carried">>,
): Arrear[] {
  const key = (week: number, userId: string) => `${week}:${userId}`;
  const paid = new Set(trees.flatMap((t) => t.carried.map((c) => key(c.fromWeek, c.userId))));
  return [...trees]
    .sort((x, y) => x.week - y.week)
    .flatMap((t) =>
      t.awaitingWallet
        .filter((a) => !paid.has(key(t.week, a.userId)))
        .map((a) => ({ fromWeek: t.week, userId: a.userId, amountMicro: a.amountMicro })),
    );
}

/** userId → the week whose tree carried that user's awaiting prize of week `week` (`trees`: any order). */
export function carriedFromWeek(
  trees: ReadonlyArray<Pick<PrizeTree, "week" | "carried">>,
  week: number,
): Map<string, number> {
  const paid = new Map<string, number>();
  for (const t of trees) for (const c of t.carried) if (c.fromWeek === week) paid.set(c.userId, t.week);
  return paid;
}

/** The proof of `account`'s leaf in `tree`; null when the account has no leaf. */
export function prizeProof(tree: PrizeTree, account: string): `0x${string}`[] | null {
  const wanted = account.toLowerCase();
  const index = tree.leaves.findIndex((l) => l.account.toLowerCase() === wanted);
  if (index < 0) return null;
  const built = merkleTree(tree.week, tree.leaves);
  const proof = built.getProof(leafValues(tree.week, tree.leaves)[index]!);
  return proof as `0x${string}`[];
}

function merkleTree(week: number, leaves: readonly PrizeLeaf[]) {
  return StandardMerkleTree.of(leafValues(week, leaves), [...LEAF_ENCODING]);
}
