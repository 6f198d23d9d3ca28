/**
 * The fees module: the only SQL over protocol fee records, and what other capabilities may use of them: record one
 * (idempotent on its log) and sum a time window (the prize pool). The admin API and the CLI record fees through
 * record-fee.ts.
 */
import { and, eq, gt, gte, inArray, lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/client.js";
import { protocolFees } from "../db/schema.js";

export type FeeRow = typeof protocolFees.$inferSelect;

/** Inserts a fee unless (txHash, logIndex) is known; returns the stored record either way. */
export async function insertFee(
  q: Queryable,
  fee: typeof protocolFees.$inferInsert,
): Promise<{ fee: FeeRow; created: boolean }> {
  const [inserted] = await q
    .insert(protocolFees)
    .values(fee)
    .onConflictDoNothing({ target: [protocolFees.txHash, protocolFees.logIndex] })
    .returning();
  if (inserted) return { fee: inserted, created: true };
  const [first] = await q
    .select()
    .from(protocolFees)
    .where(and(eq(protocolFees.txHash, fee.txHash), eq(protocolFees.logIndex, fee.logIndex)));
  return { fee: first!, created: false };
}

/** Sum of fees with occurredAt in [start, end), in micro-USDC. */
export async function sumFees(q: Queryable, start: Date, end: Date): Promise<bigint> {
  const [row] = await q
    .select({ total: sql<string>`coalesce(sum(${protocolFees.amountMicro}), 0)::text` })
    .from(protocolFees)
    .where(and(gte(protocolFees.occurredAt, start), lt(protocolFees.occurredAt, end)));
  return BigInt(row?.total ?? "0");
}

/** Deletes the fees of these contracts on this chain read from blocks above `after`; returns how many. */
export async function deleteFeesAbove(
  q: Queryable,
  where: { chainId: number; contracts: string[]; after: bigint },
): Promise<number> {
  if (where.contracts.length === 0) return 0;
  const deleted = await q
    .delete(protocolFees)
    .where(
      and(
        eq(protocolFees.chainId, where.chainId),
        inArray(protocolFees.contract, where.contracts),
        gt(protocolFees.blockNumber, where.after),
      ),
    )
    .returning({ id: protocolFees.id });
  return deleted.length;
}
