/** The SQL behind profile statistics: one user's ledger sums and prediction counts (indexed by user). */
import { sql } from "drizzle-orm";
import { type Queryable, rows } from "../db/client.js";

export async function spByType(q: Queryable, userId: bigint): Promise<Map<string, number>> {
  const found = await rows<{ type: string; total: string }>(
    q,
    sql`select type, sum(amount)::text as total from sp_ledger where user_id = ${userId} group by type`,
  );
  return new Map(found.map((r) => [r.type, Number(r.total)]));
}

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
