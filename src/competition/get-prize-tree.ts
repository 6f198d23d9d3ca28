/**
 * A finalized week's prize tree as published (GET /api/competition/weeks/:week/prize-tree) and one winner's claim
 * (`/me`): the root, the leaves, the total to fund and which accounts have claimed (PrizeClaimed logs of the
 * configured distributor).
 *
 * Contract:
 * - A week not finalized: 409 WEEK_NOT_FINALIZED.
 * - The tree is the one finalize stored. A week finalized before trees were stored gets its tree on its first
 *   read, from the stored prizes and the winners' accounts then, and keeps it (the first one stored wins).
 * - A winner's account is their payout address when they set one (PUT /api/me/payout-address), else their
 *   sign-in wallet.
 * - `claimed` is false for every leaf when no distributor is configured.
 * - A prize won without a wallet is awaiting until a later week's tree carries it (prize-tree.ts); from then on
 *   it names that week (`paidInWeek`), where the winner's leaf pays it.
 */

import type { Queryable } from "../db/client.js";
import { AppError } from "../errors.js";
import { findPayoutAccounts } from "../users/users.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { buildPrizeTree, outstandingArrears, type PrizeTree, prizeProof } from "./prize-tree.js";
import {
  claimedAccounts,
  findPrizeTree,
  insertPrizeTree,
  prizeTreeArrears,
} from "./prize-tree.repository.js";
import { findWeekResult } from "./snapshot.repository.js";

export interface PublishedPrizeTree {
  tree: PrizeTree;
  /** Lower-case accounts that have claimed their leaf. */
  claimed: Set<string>;
  /** userId → the later week whose tree carried their awaiting prize of this week. */
  paidInWeek: Map<string, number>;
}

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
 * The tree of week W's prizes and of the earlier weeks' prizes still awaiting a wallet, with the wallets as they
 * stand in `q` now. Run it in the transaction that stores the tree (finalize's): weeks finalize one at a time.
 */
export async function prizeTreeOf(
  q: Queryable,
  week: number,
  prizes: ReadonlyArray<{ userId: string; amountMicro: bigint }>,
): Promise<PrizeTree> {
  const arrears = outstandingArrears(await prizeTreeArrears(q));
  const userIds = [...new Set([...prizes.map((p) => p.userId), ...arrears.map((a) => a.userId)])];
  return buildPrizeTree(week, prizes, await payoutAccounts(q, userIds), arrears);
}

/**
 * Where each user's prizes go: the payout address they proved (PUT /api/me/payout-address), else their sign-in
 * wallet, else none. One address belongs to one account (users.setPayoutAddress refuses another's), but a wallet
 * linked later may equal an older payout address: then the payout address yields and that user is paid at their
 * own wallet (or waits for one), so a tree never holds an account twice.
 */
async function payoutAccounts(q: Queryable, userIds: readonly string[]): Promise<Map<string, string | null>> {
  const found = await findPayoutAccounts(q, userIds);
  const wallets = new Set([...found.values()].map((u) => u.wallet).filter((w) => w !== null));
  return new Map(
    userIds.map((id) => {
      const u = found.get(id);
      const account = u?.account ?? null;
      const clash = account !== null && account !== u?.wallet && wallets.has(account);
      return [id, clash ? (u?.wallet ?? null) : account];
    }),
  );
}

/**
 * Week W's stored tree; null when W is not finalized. A week finalized before trees were stored gets its own
 * prizes only (no arrears: later weeks may already be stored).
 */
export async function storedPrizeTree(q: Queryable, week: number): Promise<PrizeTree | null> {
  const stored = await findPrizeTree(q, week);
  if (stored) return stored;
  const result = await findWeekResult(q, week);
  if (!result) return null;
  const accounts = await payoutAccounts(
    q,
    result.prizes.map((p) => p.userId),
  );
  return insertPrizeTree(q, buildPrizeTree(week, result.prizes, accounts));
}

export async function getPrizeTree(
  deps: CompetitionDeps,
  input: { week: number },
): Promise<PublishedPrizeTree> {
  const tree = await storedPrizeTree(deps.db, input.week);
  if (!tree) throw new AppError("WEEK_NOT_FINALIZED", `Week ${input.week} is not finalized yet`);
  return {
    tree,
    claimed: await claimsOf(
      deps,
      tree,
      tree.leaves.map((l) => l.account),
    ),
    paidInWeek: await carriedFrom(deps.db, tree.week),
  };
}

/** userId → the week whose tree carried that user's awaiting prize of week `week`. */
async function carriedFrom(q: Queryable, week: number): Promise<Map<string, number>> {
  const paid = new Map<string, number>();
  for (const t of await prizeTreeArrears(q)) {
    for (const c of t.carried) if (c.fromWeek === week) paid.set(c.userId, t.week);
  }
  return paid;
}

/** The prize of `userId` in finalized week W with its proof; null when W is not finalized or they won nothing. */
export async function myPrizeClaim(
  deps: CompetitionDeps,
  q: Queryable,
  input: { week: number; userId: string },
): Promise<MyPrizeClaim | null> {
  const tree = await storedPrizeTree(q, input.week);
  if (!tree) return null;
  const leaf = tree.leaves.find((l) => l.userId === input.userId);
  if (leaf) {
    const claimed = await claimsOf(deps, tree, [leaf.account]);
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
  const awaiting = tree.awaitingWallet.find((a) => a.userId === input.userId);
  if (!awaiting) return null;
  const paidInWeek = (await carriedFrom(q, tree.week)).get(input.userId) ?? null;
  return {
    week: tree.week,
    root: tree.root,
    account: null,
    amountMicro: awaiting.amountMicro,
    carriedMicro: 0n,
    proof: [],
    claimed: false,
    awaitingWallet: paidInWeek === null,
    paidInWeek,
  };
}

function claimsOf(deps: CompetitionDeps, tree: PrizeTree, accounts: string[]): Promise<Set<string>> {
  const distributor = deps.prizeDistributor;
  if (!distributor) return Promise.resolve(new Set());
  return claimedAccounts(deps.db, {
    chainId: distributor.chainId,
    contract: distributor.contract.toLowerCase(),
    week: tree.week,
    accounts,
  });
}
