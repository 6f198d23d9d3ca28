/**
 * The only SQL of the all-time leaderboard: users by maintained total SP (users.total_sp, written by the
 * ledger), served by the (total_sp desc, id) index; never a ledger scan.
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
    sql`select id::text as user_id, display_name, wallet, total_sp::text as total_sp from users
        where total_sp > 0 order by users.total_sp desc, users.id asc offset ${offset} limit ${limit}`,
  );
  return found.map(toRow);
}

/** Users with strictly more all-time SP than `sp`. */
export async function countUsersAbove(q: Queryable, sp: number): Promise<number> {
  const [r] = await rows<{ n: string }>(q, sql`select count(*)::text as n from users where total_sp > ${sp}`);
  return Number(r?.n ?? 0);
}

export async function totalRowOf(q: Queryable, userId: bigint): Promise<TotalRow | null> {
  const [r] = await rows<RawTotalRow>(
    q,
    sql`select id::text as user_id, display_name, wallet, total_sp::text as total_sp from users where id = ${userId}`,
  );
  return r ? toRow(r) : null;
}
