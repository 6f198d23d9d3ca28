/** The only SQL over sign-in nonces and sessions. */
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { preparedRows, type Queryable, rows } from "../db/client.js";
import { authNonces, sessions, users } from "../db/schema.js";

export async function insertNonce(q: Queryable, nonce: string, expiresAt: Date, now: Date): Promise<void> {
  // Housekeeping: drop long-expired nonces so the table stays small.
  await q.delete(authNonces).where(lt(authNonces.expiresAt, new Date(now.getTime() - 3600_000)));
  await q.insert(authNonces).values({ nonce, expiresAt });
}

/** Marks a nonce used; true only for the one caller that consumed a live, unused nonce. */
export async function consumeNonce(q: Queryable, nonce: string, now: Date): Promise<boolean> {
  const used = await q
    .update(authNonces)
    .set({ usedAt: now })
    .where(and(eq(authNonces.nonce, nonce), isNull(authNonces.usedAt), gt(authNonces.expiresAt, now)))
    .returning({ nonce: authNonces.nonce });
  return used.length === 1;
}

export async function insertSession(
  q: Queryable,
  id: string,
  userId: bigint,
  expiresAt: Date,
): Promise<void> {
  await q.insert(sessions).values({ id, userId, expiresAt });
}

/** Session `id` exists, belongs to `userId`, is not revoked and not expired at `now`. */
function isActiveSession(id: string, userId: bigint, now: Date) {
  return and(
    eq(sessions.id, id),
    eq(sessions.userId, userId),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, now),
  );
}

/** The session's user when the session exists, belongs to that user, is not revoked and not expired (one query). */
export async function findActiveSessionUser(q: Queryable, id: string, userId: bigint, now: Date) {
  const [row] = await q
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(isActiveSession(id, userId, now));
  return row?.user ?? null;
}

/**
 * The expiry of the session when it exists, belongs to that user, is not revoked and not expired (one indexed
 * query; the user row exists by the foreign key), else null.
 */
export async function findActiveSessionExpiry(
  q: Queryable,
  id: string,
  userId: bigint,
  now: Date,
): Promise<Date | null> {
  const [row] = await q
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(isActiveSession(id, userId, now));
  return row?.expiresAt ?? null;
}

/**
 * Unrevoked sessions, latest expiry first (at most `limit`): what an instance remembers when it starts. Expired
 * ones may be among them (the expiry is checked at each use, against the service's clock).
 */
export async function unrevokedSessions(
  q: Queryable,
  limit: number,
): Promise<Array<{ id: string; userId: string; expiresAt: Date }>> {
  const found = await rows<{ id: string; user_id: string; expires_at: string | Date }>(
    q,
    sql`select id, user_id::text as user_id, expires_at from sessions where revoked_at is null
        order by expires_at desc limit ${limit}`,
  );
  return found.map((r) => ({ id: r.id, userId: r.user_id, expiresAt: new Date(r.expires_at) }));
}

/**
 * The session change feed: ids of sessions changed (revoked) by a transaction with id ≥ `sinceXid`, and the new
 * watermark, in ONE statement (one snapshot): every transaction older than the returned xmin has finished and is
 * visible here, so reading from it next time misses nothing. Ids may repeat.
 */
export async function sessionChangesSince(
  q: Queryable,
  sinceXid: string | null,
): Promise<{ xmin: string; changed: string[] }> {
  const query = sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, null::text as id
        union all
        select null, s.id from sessions s
        where ${sinceXid === null ? sql`false` : sql`s.changed_xid >= ${sinceXid}::xid8`}`;
  // Prepared (every read after the first): each signed-in request of a busy instance waits for one of these.
  type Row = { xmin: string | null; id: string | null };
  const found =
    sinceXid === null ? await rows<Row>(q, query) : await preparedRows<Row>(q, "session_feed", query);
  return {
    xmin: found.find((r) => r.xmin !== null)!.xmin!,
    changed: found.flatMap((r) => (r.id === null ? [] : [r.id])),
  };
}

export async function revokeSession(q: Queryable, id: string, now: Date): Promise<void> {
  await q
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}
