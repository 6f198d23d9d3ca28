/**
 * Referrals: every user has a code; a code given at first sign-in links referee to referrer. A referral becomes
 * redeemable when the referee's first prediction settles; redeeming writes one REFERRAL SP row per referee
 * (externalId `referral:<refereeId>`), so it happens once even under concurrent calls. REFERRAL SP is not
 * event-linked and never reaches a ladder.
 */

import type { Db, Queryable } from "../db/client.js";
import { appendSpEntry, existingSpEntries } from "../ledger/ledger.js";
import { usersWithSettledPrediction } from "../predictions/predictions.js";
import type { Season } from "../shared/season.js";
import { countReferees, refereesOf, type UserRow } from "../users/users.js";

export type RefereeStatus = "waiting" | "redeemable" | "redeemed";

export interface ReferralDeps {
  db: Db;
  season: Season;
  rewardSp: number;
}

const referralEntry = (refereeId: string) => `referral:${refereeId}`;

/** Referees of a user, newest first: whether one of their predictions has settled and whether it was redeemed. */
async function refereesWithProgress(q: Queryable, referrerId: bigint) {
  const referees = await refereesOf(q, referrerId);
  const ids = referees.map((r) => r.userId);
  const [settled, redeemed] = await Promise.all([
    usersWithSettledPrediction(q, ids),
    existingSpEntries(q, ids.map(referralEntry)),
  ]);
  return referees.map((r) => ({
    ...r,
    settled: settled.has(r.userId),
    redeemed: redeemed.has(referralEntry(r.userId)),
  }));
}

const statusOf = (r: { settled: boolean; redeemed: boolean }): RefereeStatus =>
  r.redeemed ? "redeemed" : r.settled ? "redeemable" : "waiting";

export async function getReferrals(deps: ReferralDeps, user: UserRow) {
  const [referees, referredCount] = await Promise.all([
    refereesWithProgress(deps.db, user.id),
    countReferees(deps.db, user.id),
  ]);
  const withStatus = referees.map((r) => ({ ...r, status: statusOf(r) }));
  const count = (s: RefereeStatus) => withStatus.filter((r) => r.status === s).length;
  return {
    code: user.referralCode,
    referredCount,
    pendingRewardSp: count("redeemable") * deps.rewardSp,
    redeemedRewardSp: count("redeemed") * deps.rewardSp,
    referees: withStatus,
  };
}

export async function redeemReferrals(deps: ReferralDeps, user: UserRow) {
  return deps.db.transaction(async (tx) => {
    const redeemable = (await refereesWithProgress(tx, user.id)).filter((r) => statusOf(r) === "redeemable");
    let redeemedCount = 0;
    for (const r of redeemable) {
      const { created } = await appendSpEntry(tx, deps.season, {
        userId: user.id,
        type: "REFERRAL",
        amount: deps.rewardSp,
        eventId: null,
        externalId: referralEntry(r.userId),
      });
      if (created) redeemedCount++;
    }
    return { redeemedSp: redeemedCount * deps.rewardSp, redeemedCount };
  });
}
