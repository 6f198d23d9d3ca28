/** The only SQL over sign-in nonces and sessions. */
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import type { Queryable } from "../db/client.js";
import { authNonces, sessions } from "../db/schema.js";

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

/** True when the session exists, belongs to the user, is not revoked and not expired. */
export async function isSessionActive(q: Queryable, id: string, userId: bigint, now: Date): Promise<boolean> {
  const [row] = await q
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, id),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    );
  return row !== undefined;
}

export async function revokeSession(q: Queryable, id: string, now: Date): Promise<void> {
  await q
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}
