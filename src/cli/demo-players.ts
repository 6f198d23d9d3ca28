/**
 * The demo players as users, through the sign-up and referral use cases: `signUpDemoPlayers` creates the users of
 * `demo.signedUp` in index order with their welcome credits and referrer (`ensureWalletUser`, as wallet sign-in
 * with a referral code does), and lists the predictions each already has, so a re-run can tell replays from new
 * bets; `redeemDemoReferrals` redeems the referral rewards of the referrers that redeem.
 *
 * Idempotent: a known wallet keeps its user (and its referrer); a redeemed referral is not redeemed again.
 */

import { ensureWalletUser } from "../ledger/register-user.js";
import { listPredictions } from "../predictions/list-predictions.js";
import { redeemReferrals } from "../rewards/referrals.js";
import type { UserRow } from "../users/users.js";
import { type CliContext, inShortTransactions, seasonOf } from "./cli-context.js";
import type { DemoSeason } from "./demo-data.js";

export interface DemoUsers {
  /** The user of each signed-up player, by player index. */
  byPlayer: Map<number, UserRow>;
  /** Idempotency key → prediction id of the predictions the users held before this run. */
  existingBets: Map<string, bigint>;
  created: number;
  referred: number;
}

const PAGE = 500;

export async function signUpDemoPlayers(ctx: CliContext, demo: DemoSeason): Promise<DemoUsers> {
  const byPlayer = new Map<number, UserRow>();
  const existingBets = new Map<string, bigint>();
  let created = 0;
  // Slice by slice: the referrer has a lower index, so it is committed in an earlier slice or the same one.
  await inShortTransactions(ctx.database.db, demo.signedUp, async (db, index) => {
    const player = demo.players[index]!;
    const referredBy = player.referrer === null ? null : byPlayer.get(player.referrer)!.id;
    const r = await db.transaction((tx) =>
      ensureWalletUser(tx, {
        walletLower: player.wallet.toLowerCase(),
        welcomeCredits: ctx.config.welcomeCredits,
        referredBy,
      }),
    );
    byPlayer.set(index, r.user);
    if (r.created) {
      created++;
      return;
    }
    let cursor: string | undefined;
    do {
      const page = await listPredictions({ db }, { userId: r.user.id, limit: PAGE, cursor });
      for (const { prediction } of page.items) {
        if (prediction.idempotencyKey) existingBets.set(prediction.idempotencyKey, prediction.id);
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  });
  const referred = [...byPlayer.values()].filter((u) => u.referredBy !== null).length;
  return { byPlayer, existingBets, created, referred };
}

/** Redeems the pending referral rewards of every signed-up referrer that redeems; returns the rows written. */
export async function redeemDemoReferrals(
  ctx: CliContext,
  demo: DemoSeason,
  users: DemoUsers,
): Promise<{ referrers: number; redeemed: number }> {
  const referrers = new Set<number>();
  for (const index of demo.signedUp) {
    const referrer = demo.players[index]!.referrer;
    if (referrer !== null && demo.players[referrer]!.redeemsReferrals) referrers.add(referrer);
  }
  let redeemed = 0;
  await inShortTransactions(
    ctx.database.db,
    [...referrers].sort((a, b) => a - b),
    async (db, index) => {
      const deps = { db, season: seasonOf(ctx.config), rewardSp: ctx.config.referralRewardSp };
      redeemed += (await redeemReferrals(deps, users.byPlayer.get(index)!)).redeemedCount;
    },
  );
  return { referrers: referrers.size, redeemed };
}
