/** The SQL of rewards: referees of a referrer, daily activity, and drawn raffles. */
import { eq, sql } from "drizzle-orm";
import { type Queryable, rows, type Tx } from "../db/client.js";
import { dailyRaffles } from "../db/schema.js";

export interface RefereeRow {
  userId: string;
  displayName: string;
  joinedAt: Date;
  settled: boolean;
  redeemed: boolean;
}

/** Referees of a user, newest first: whether one of their predictions has settled and whether it was redeemed. */
export async function refereesOf(q: Queryable, referrerId: bigint, limit = 1000): Promise<RefereeRow[]> {
  const found = await rows<{
    user_id: string;
    display_name: string;
    created_at: Date;
    settled: boolean;
    redeemed: boolean;
  }>(
    q,
    sql`select u.id::text as user_id, u.display_name, u.created_at,
               exists (select 1 from predictions p where p.user_id = u.id and p.status in ('won','lost','void')) as settled,
               exists (select 1 from sp_ledger l where l.external_id = 'referral:' || u.id::text) as redeemed
        from users u where u.referred_by = ${referrerId}
        order by u.id desc limit ${limit}`,
  );
  return found.map((r) => ({
    userId: r.user_id,
    displayName: r.display_name,
    joinedAt: new Date(r.created_at),
    settled: r.settled,
    redeemed: r.redeemed,
  }));
}

export async function countReferees(q: Queryable, referrerId: bigint): Promise<number> {
  const [r] = await rows<{ n: string }>(
    q,
    sql`select count(*)::text as n from users where referred_by = ${referrerId}`,
  );
  return Number(r?.n ?? 0);
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

export type RaffleRow = typeof dailyRaffles.$inferSelect;

export async function findRaffle(q: Queryable, day: string): Promise<RaffleRow | null> {
  const [row] = await q.select().from(dailyRaffles).where(eq(dailyRaffles.day, day));
  return row ?? null;
}

/** Records a draw unless the day was drawn already (then null: the first draw stands). */
export async function insertRaffle(tx: Tx, row: typeof dailyRaffles.$inferInsert): Promise<RaffleRow | null> {
  const [inserted] = await tx.insert(dailyRaffles).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}
