/**
 * Builds a week's prize tree over the winners' accounts as they stand in `q` now (finalize stores it; the
 * start-up back-fill builds the trees of weeks finalized before trees were stored).
 *
 * A winner's account is their payout address when they set one (PUT /api/me/payout-address), else their sign-in
 * wallet, else none (the prize awaits a wallet: prize-tree.ts).
 */
import type { Queryable } from "../db/client.js";
import { findPayoutAccounts } from "../users/users.js";
import { buildPrizeTree, outstandingArrears, type PrizeTree } from "./prize-tree.js";
import { prizeTreeArrears } from "./prize-tree.repository.js";

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
 * The tree of a week finalized before trees were stored: its own prizes only (no arrears: later weeks may
 * already be stored).
 */
export async function ownPrizeTreeOf(
  q: Queryable,
  week: number,
  prizes: ReadonlyArray<{ userId: string; amountMicro: bigint }>,
): Promise<PrizeTree> {
  const accounts = await payoutAccounts(
    q,
    prizes.map((p) => p.userId),
  );
  return buildPrizeTree(week, prizes, accounts);
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
