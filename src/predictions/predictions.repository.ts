/** The only SQL over predictions and USDC claims. */
import { and, asc, desc, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import type { Queryable, Tx } from "../db/client.js";
import { predictions, usdcClaims, users } from "../db/schema.js";

export type PredictionRow = typeof predictions.$inferSelect;
export type NewPrediction = typeof predictions.$inferInsert;

/** Inserts a prediction; null when its idempotency key (per user and version) or txHash is already taken. */
export async function insertPrediction(tx: Tx, values: NewPrediction): Promise<PredictionRow | null> {
  const [row] = await tx.insert(predictions).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findPrediction(q: Queryable, id: bigint): Promise<PredictionRow | null> {
  const [row] = await q.select().from(predictions).where(eq(predictions.id, id));
  return row ?? null;
}

export async function findByIdempotencyKey(
  q: Queryable,
  userId: bigint,
  version: 1 | 2,
  key: string,
): Promise<PredictionRow | null> {
  const [row] = await q
    .select()
    .from(predictions)
    .where(
      and(
        eq(predictions.userId, userId),
        eq(predictions.version, version),
        eq(predictions.idempotencyKey, key),
      ),
    );
  return row ?? null;
}

export async function findByTxHash(q: Queryable, txHash: string): Promise<PredictionRow | null> {
  const [row] = await q.select().from(predictions).where(eq(predictions.txHash, txHash));
  return row ?? null;
}

export async function setBalanceAfter(tx: Tx, id: bigint, balance: number): Promise<PredictionRow> {
  const [row] = await tx
    .update(predictions)
    .set({ balanceAfter: balance })
    .where(eq(predictions.id, id))
    .returning();
  return row!;
}

/** Open predictions of an event, locked for settlement. */
export async function lockOpenPredictionsOfEvent(tx: Tx, eventId: string): Promise<PredictionRow[]> {
  return tx
    .select()
    .from(predictions)
    .where(and(eq(predictions.eventId, eventId), eq(predictions.status, "open")))
    .orderBy(predictions.id)
    .for("update");
}

export async function markSettled(
  tx: Tx,
  id: bigint,
  values: {
    status: "won" | "lost" | "void";
    payout: number | null;
    payoutMicro: bigint | null;
    settledAt: Date;
  },
): Promise<void> {
  await tx
    .update(predictions)
    .set(values)
    .where(and(eq(predictions.id, id), eq(predictions.status, "open")));
}

/**
 * Moves a pending v2 prediction to open (confirmed, with the index of the log that backs it when known) or
 * rejected; null when it was no longer pending.
 */
export async function resolvePending(
  tx: Tx,
  id: bigint,
  outcome: { status: "open"; logIndex?: number | null } | { status: "rejected"; reason: string },
): Promise<PredictionRow | null> {
  const [row] = await tx
    .update(predictions)
    .set({
      status: outcome.status,
      rejectReason: outcome.status === "rejected" ? outcome.reason : null,
      logIndex: outcome.status === "open" ? (outcome.logIndex ?? null) : null,
    })
    .where(and(eq(predictions.id, id), eq(predictions.status, "pending")))
    .returning();
  return row ?? null;
}

/**
 * Marks a won or void, unclaimed prediction of this user as claimed. Exactly one of any number of concurrent
 * callers gets the row back; the others get null.
 */
export async function claimPrediction(
  tx: Tx,
  id: bigint,
  userId: bigint,
  now: Date,
): Promise<PredictionRow | null> {
  const [row] = await tx
    .update(predictions)
    .set({ claimedAt: now })
    .where(
      and(
        eq(predictions.id, id),
        eq(predictions.userId, userId),
        inArray(predictions.status, ["won", "void"]),
        isNull(predictions.claimedAt),
      ),
    )
    .returning();
  return row ?? null;
}

export async function insertUsdcClaim(
  tx: Tx,
  predictionId: bigint,
  userId: bigint,
  amountMicro: bigint,
  now: Date,
) {
  await tx.insert(usdcClaims).values({ predictionId, userId, amountMicro, createdAt: now });
}

/** One page of a user's predictions, newest first, optionally by status, before an optional id. */
export async function listUserPredictions(
  q: Queryable,
  f: { userId: bigint; status?: string; beforeId?: bigint; limit: number },
): Promise<PredictionRow[]> {
  const conditions = [eq(predictions.userId, f.userId)];
  if (f.status) conditions.push(eq(predictions.status, f.status));
  if (f.beforeId !== undefined) conditions.push(lt(predictions.id, f.beforeId));
  return q
    .select()
    .from(predictions)
    .where(and(...conditions))
    .orderBy(desc(predictions.id))
    .limit(f.limit);
}

/** Pending v2 predictions with id > afterId, oldest first, each with the reporting user's wallet (lower-case). */
export async function listPendingOnchain(
  q: Queryable,
  f: { afterId: bigint; limit: number },
): Promise<Array<{ prediction: PredictionRow; walletLower: string | null }>> {
  return q
    .select({ prediction: predictions, walletLower: users.wallet })
    .from(predictions)
    .innerJoin(users, eq(users.id, predictions.userId))
    .where(and(eq(predictions.status, "pending"), gt(predictions.id, f.afterId)))
    .orderBy(asc(predictions.id))
    .limit(f.limit);
}
