/**
 * The Merkle tree of a finalized week's Champions prizes, as contracts/PrizeDistributor.sol checks them: an
 * OpenZeppelin StandardMerkleTree over LEAF_ENCODING = (week, account, amount in micro-USDC), so anyone can rebuild
 * the root from the published leaves with `@openzeppelin/merkle-tree` (`StandardMerkleTree.of(values, encoding)`).
 *
 * Contract of `buildPrizeTree` (pure, no I/O):
 * - One leaf per paid Champions row whose winner has a wallet and whose amount is above zero, in ladder order;
 *   tied winners at a paid rank each get their own leaf. Accounts are checksummed.
 * - A winner without a wallet (identity sign-in only) gets no leaf: their amount is listed in `awaitingWallet`
 *   (docs/decisions.md: a later supplementary root pays it once they link a wallet; this week's root never changes).
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
  amountMicro: bigint;
}

export interface PrizeTree {
  week: number;
  root: `0x${string}` | null;
  totalMicro: bigint;
  leaves: PrizeLeaf[];
  awaitingWallet: Array<{ userId: string; amountMicro: bigint }>;
}

/** The values of the tree's leaves as StandardMerkleTree takes them: [week, account, amount] as decimal strings. */
export function leafValues(week: number, leaves: readonly PrizeLeaf[]): [string, string, string][] {
  return leaves.map((l) => [String(week), l.account, String(l.amountMicro)]);
}

export function buildPrizeTree(
  week: number,
  prizes: ReadonlyArray<{ userId: string; amountMicro: bigint }>,
  wallets: ReadonlyMap<string, string | null>,
): PrizeTree {
  const leaves: PrizeLeaf[] = [];
  const awaitingWallet: PrizeTree["awaitingWallet"] = [];
  const seen = new Set<string>();
  for (const p of prizes) {
    if (p.amountMicro <= 0n) continue;
    const wallet = wallets.get(p.userId) ?? null;
    if (wallet === null) {
      awaitingWallet.push({ userId: p.userId, amountMicro: p.amountMicro });
      continue;
    }
    const account = getAddress(wallet);
    if (seen.has(account)) throw new Error(`wallet ${account} holds two prizes of week ${week}`);
    seen.add(account);
    leaves.push({ userId: p.userId, account, amountMicro: p.amountMicro });
  }
  return {
    week,
    root: leaves.length === 0 ? null : (merkleTree(week, leaves).root as `0x${string}`),
    totalMicro: leaves.reduce((sum, l) => sum + l.amountMicro, 0n),
    leaves,
    awaitingWallet,
  };
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
