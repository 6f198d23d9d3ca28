/**
 * Referrals: every user has a code; a code given at first sign-in links referee to referrer. A referral becomes
 * redeemable when the referee's first prediction settles; redeeming writes one REFERRAL SP row per referee
 * (externalId `referral:<refereeId>`), so it happens once even under concurrent calls. REFERRAL SP is not
 * event-linked and never reaches a ladder.
 *
 * The counts and the redemption cover every referee, read in pages of REFEREE_PAGE in id order; the answer lists
 * the newest LISTED_REFEREES of them (docs/decisions.md "Referrals: every referee counts, the newest 1,000 listed").
 */

import type { Db, Queryable } from "../db/client.js";
import { appendSpEntries, existingSpEntries } from "../ledger/ledger.js";
import { usersWithSettledPrediction } from "../predictions/predictions.js";
import type { Season } from "../shared/season.js";
import { countReferees, refereesAfter, type UserRow } from "../users/users.js";

export type RefereeStatus = "waiting" | "redeemable" | "redeemed";

export interface ReferralDeps {
  db: Db;
  season: Season;
  rewardSp: number;
}

/** Referees read at once. */
const REFEREE_PAGE = 1000;
/** Referees the answer of GET /api/referrals lists, newest first. */
export const LISTED_REFEREES = 1000;

const referralEntry = (refereeId: string) => `referral:${refereeId}`;

interface RefereeProgress {
  userId: string;
  displayName: string;
  joinedAt: Date;
  status: RefereeStatus;
}

/** Every referee of a user with its status, a page at a time in id order (oldest first), to `visit`. */
async function forEachRefereePage(
  q: Queryable,
  referrerId: bigint,
  visit: (page: RefereeProgress[]) => Promise<void> | void,
): Promise<void> {
  let afterId: string | null = null;
  for (;;) {
    const referees = await refereesAfter(q, referrerId, afterId, REFEREE_PAGE);
    if (referees.length === 0) return;
    const ids = referees.map((r) => r.userId);
    const [settled, redeemed] = await Promise.all([
      usersWithSettledPrediction(q, ids),
      existingSpEntries(q, ids.map(referralEntry)),
    ]);
    await visit(
      referees.map((r) => ({
        ...r,
        status: redeemed.has(referralEntry(r.userId))
          ? "redeemed"
          : settled.has(r.userId)
            ? "redeemable"
            : "waiting",
      })),
    );
    if (referees.length < REFEREE_PAGE) return;
    afterId = referees[referees.length - 1]!.userId;
  }
}

export async function getReferrals(deps: ReferralDeps, user: UserRow) {
  const counts: Record<RefereeStatus, number> = { waiting: 0, redeemable: 0, redeemed: 0 };
  // The newest LISTED_REFEREES seen so far (pages come oldest first).
  let newest: RefereeProgress[] = [];
  const [referredCount] = await Promise.all([
    countReferees(deps.db, user.id),
    forEachRefereePage(deps.db, user.id, (page) => {
      for (const r of page) counts[r.status]++;
      newest = newest.concat(page).slice(-LISTED_REFEREES);
    }),
  ]);
  return {
    code: user.referralCode,
    referredCount,
    pendingRewardSp: counts.redeemable * deps.rewardSp,
    redeemedRewardSp: counts.redeemed * deps.rewardSp,
    referees: newest.reverse(),
  };
}

export async function redeemReferrals(deps: ReferralDeps, user: UserRow) {
  return deps.db.transaction(async (tx) => {
    let redeemedCount = 0;
    await forEachRefereePage(tx, user.id, async (page) => {
      const redeemable = page.filter((r) => r.status === "redeemable");
      const appended = await appendSpEntries(
        tx,
        deps.season,
        redeemable.map((r) => ({
          userId: user.id,
          type: "REFERRAL" as const,
          amount: deps.rewardSp,
          eventId: null,
          externalId: referralEntry(r.userId),
        })),
      );
      redeemedCount += appended.filter((a) => a.created).length;
    });
    return { redeemedSp: redeemedCount * deps.rewardSp, redeemedCount };
  });
}
