/**
 * The only SQL of the all-time leaderboard: users by maintained total SP (user_sp_totals, written by the ledger),
 * served by its (total_sp desc nulls last, user_id) index; never a ledger scan. The pages order by
 * `total_sp desc nulls last`, as the index is built (total_sp is never null, so the order is the same): a bare
 * `desc` means NULLS FIRST, which the index cannot give, and every page sorted all the players (0.5 s at 1M).
 */
import { sql } from "drizzle-orm";
import { type Queryable, rows } from "../db/client.js";

export interface TotalRow {
  userId: string;
  displayName: string;
  wallet: string | null;
  totalSp: number;
}

interface RawTotalRow {
  user_id: string;
  display_name: string;
  wallet: string | null;
  total_sp: string;
}

const toRow = (r: RawTotalRow): TotalRow => ({
  userId: r.user_id,
  displayName: r.display_name,
  wallet: r.wallet,
  totalSp: Number(r.total_sp),
});

export async function totalsPage(q: Queryable, offset: number, limit: number): Promise<TotalRow[]> {
  const found = await rows<RawTotalRow>(
    q,
    sql`select t.user_id::text as user_id, u.display_name, u.wallet, t.total_sp::text as total_sp
        from (select user_id, total_sp from user_sp_totals where total_sp > 0
              order by total_sp desc nulls last, user_id asc offset ${offset} limit ${limit}) t
        join users u on u.id = t.user_id
        order by t.total_sp desc nulls last, t.user_id asc`,
  );
  return found.map(toRow);
}

/** Users with strictly more all-time SP than `sp`. */
export async function countUsersAbove(q: Queryable, sp: number): Promise<number> {
  const [r] = await rows<{ n: string }>(
    q,
    sql`select count(*)::text as n from user_sp_totals where total_sp > ${sp}`,
  );
  return Number(r?.n ?? 0);
}

export async function totalRowOf(q: Queryable, userId: bigint): Promise<TotalRow | null> {
  const [r] = await rows<RawTotalRow>(
    q,
    sql`select u.id::text as user_id, u.display_name, u.wallet, coalesce(t.total_sp, 0)::text as total_sp
        from users u left join user_sp_totals t on t.user_id = u.id where u.id = ${userId}`,
  );
  return r ? toRow(r) : null;
}
