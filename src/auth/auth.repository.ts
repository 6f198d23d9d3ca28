/** The only SQL over sign-in nonces and sessions. */
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Queryable } from "../db/client.js";
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

/** The session's user when the session exists, belongs to that user, is not revoked and not expired (one query). */
export async function findActiveSessionUser(q: Queryable, id: string, userId: bigint, now: Date) {
  const [row] = await q
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, id),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  return row?.user ?? null;
}

export async function revokeSession(q: Queryable, id: string, now: Date): Promise<void> {
  await q
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}
