/**
 * Daily free credits: once per UTC day, DAILY_CREDITS into the credits ledger. The row's externalId
 * `daily:<user>:<day>` makes a second claim the same day (also a concurrent one) a 409 ALREADY_CLAIMED.
 */
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { appendCredits, creditsBalance, hasCreditEntry } from "../ledger/credits.js";
import { nextUtcMidnight, utcDay } from "./day-rules.js";

export interface DailyCreditDeps {
  db: Db;
  clock: Clock;
  amount: number;
}

const externalId = (userId: bigint, day: string) => `daily:${userId}:${day}`;

export async function getDailyClaimInfo(deps: DailyCreditDeps, userId: bigint) {
  const now = deps.clock.now();
  const [balance, claimedToday] = await Promise.all([
    creditsBalance(deps.db, userId),
    hasCreditEntry(deps.db, externalId(userId, utcDay(now))),
  ]);
  return {
    balance,
    amount: deps.amount,
    claimable: !claimedToday,
    nextClaimAt: claimedToday ? nextUtcMidnight(now) : now,
  };
}

export async function claimDailyCredits(deps: DailyCreditDeps, userId: bigint) {
  const now = deps.clock.now();
  const nextClaimAt = nextUtcMidnight(now);
  const { created, balance } = await deps.db.transaction((tx) =>
    appendCredits(tx, {
      userId,
      reason: "DAILY",
      amount: deps.amount,
      externalId: externalId(userId, utcDay(now)),
    }),
  );
  if (!created) {
    throw new AppError("ALREADY_CLAIMED", "Today's free credits were already claimed", {
      nextClaimAt: nextClaimAt.toISOString(),
    });
  }
  return { amount: deps.amount, balance, nextClaimAt };
}
