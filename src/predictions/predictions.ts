/**
 * What other capabilities may read of the predictions (SQL over the predictions table, indexed by user or by
 * placement time): one player's counts by status, settled results in order and USDC totals (the profile), whether
 * a player placed a bet in a window and who did (the daily rewards), and which users have a settled prediction (the
 * referrals).
 */
import { sql } from "drizzle-orm";
import { intArray, type Queryable, rows } from "../db/client.js";

/** Predictions of one user by status. */
export async function predictionCounts(q: Queryable, userId: bigint): Promise<Map<string, number>> {
  const found = await rows<{ status: string; n: string }>(
    q,
    sql`select status, count(*)::text as n from predictions where user_id = ${userId} group by status`,
  );
  return new Map(found.map((r) => [r.status, Number(r.n)]));
}

/** Won/lost results in settlement order. */
export async function settledResults(q: Queryable, userId: bigint): Promise<Array<"won" | "lost">> {
  const found = await rows<{ status: "won" | "lost" }>(
    q,
    sql`select status from predictions where user_id = ${userId} and status in ('won', 'lost')
        order by settled_at asc, id asc`,
  );
  return found.map((r) => r.status);
}

/** USDC staked on confirmed v2 predictions and USDC paid back on won ones (stake included), in micro-USDC. */
export async function usdcTotals(
  q: Queryable,
  userId: bigint,
): Promise<{ stakedMicro: bigint; wonMicro: bigint }> {
  const [r] = await rows<{ staked: string; won: string }>(
    q,
    sql`select coalesce(sum(stake_micro) filter (where status in ('open','won','lost','void')), 0)::text as staked,
               coalesce(sum(payout_micro) filter (where status = 'won'), 0)::text as won
        from predictions where user_id = ${userId} and version = 2`,
  );
  return { stakedMicro: BigInt(r?.staked ?? "0"), wonMicro: BigInt(r?.won ?? "0") };
}

/** True when the user placed a (non-rejected) prediction in [start, end). */
export async function placedPredictionBetween(q: Queryable, userId: bigint, start: Date, end: Date) {
  const [r] = await rows<{ n: string }>(
    q,
    sql`select count(*)::text as n from predictions
        where user_id = ${userId} and placed_at >= ${start} and placed_at < ${end} and status <> 'rejected'`,
  );
  return Number(r?.n ?? 0) > 0;
}

/** Users who placed a (non-rejected) prediction in [start, end), as id strings. */
export async function activeUsersBetween(q: Queryable, start: Date, end: Date): Promise<string[]> {
  const found = await rows<{ user_id: string }>(
    q,
    sql`select distinct user_id::text as user_id from predictions
        where placed_at >= ${start} and placed_at < ${end} and status <> 'rejected'`,
  );
  return found.map((r) => r.user_id);
}

/** Those of `userIds` with at least one settled (won, lost or void) prediction, as id strings. */
export async function usersWithSettledPrediction(
  q: Queryable,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const found = await rows<{ user_id: string }>(
    q,
    sql`select distinct user_id::text as user_id from predictions
        where user_id = any(${intArray(userIds, "bigint")}) and status in ('won','lost','void')`,
  );
  return new Set(found.map((r) => r.user_id));
}
