/**
 * The only SQL over on-chain payouts (SPEC §10): the vouchers the service signed (payout_vouchers), the
 * PayoutClaimed logs the payout indexer read (chain_payouts), and the sums the solvency check and the reconcile
 * report need. A v2 prediction is `claimed` once a payout log with its nonce (its quote digest) is stored.
 */
import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { type Queryable, rows, type Tx } from "../db/client.js";
import { chainPayouts, payoutVouchers, predictions } from "../db/schema.js";

export type VoucherRow = typeof payoutVouchers.$inferSelect;

export async function findVoucher(q: Queryable, predictionId: bigint): Promise<VoucherRow | null> {
  const [row] = await q.select().from(payoutVouchers).where(eq(payoutVouchers.predictionId, predictionId));
  return row ?? null;
}

/** Stores the voucher of a prediction, replacing an earlier (expired) one. */
export async function saveVoucher(tx: Tx, v: VoucherRow): Promise<void> {
  await tx
    .insert(payoutVouchers)
    .values(v)
    .onConflictDoUpdate({
      target: payoutVouchers.predictionId,
      set: {
        account: v.account,
        amountMicro: v.amountMicro,
        nonce: v.nonce,
        deadline: v.deadline,
        signature: v.signature,
        issuedAt: v.issuedAt,
      },
    });
}

/** The first time a payout of `nonce` was paid on `contract`, as the indexed chain says; null when never. */
export async function paidAt(q: Queryable, contract: string, nonce: string): Promise<Date | null> {
  const [row] = await q
    .select({ paidAt: chainPayouts.paidAt })
    .from(chainPayouts)
    .where(and(eq(chainPayouts.contract, contract), eq(chainPayouts.nonce, nonce)))
    .orderBy(chainPayouts.paidAt)
    .limit(1);
  return row?.paidAt ?? null;
}

/**
 * Micro-USDC `contract` owes, and to how many bets: every live v2 bet of it that is won or void (its payout) or
 * rejected (its stake back), not yet paid.
 */
export async function owedBy(q: Queryable, contract: string): Promise<{ micro: bigint; bets: number }> {
  const [row] = await rows<{ micro: string; bets: string }>(
    q,
    sql`select coalesce(sum(case when status = 'rejected' then stake_micro else payout_micro end), 0)::text as micro,
          count(*)::text as bets
        from predictions
        where contract = ${contract} and version = 2 and claimed_at is null and orphaned_at is null
          and status in ('won', 'void', 'rejected')`,
  );
  return { micro: BigInt(row!.micro), bets: Number(row!.bets) };
}

export interface ChainPayoutRecord {
  chainId: number;
  contract: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  nonce: string;
  account: string;
  predictionRef: bigint;
  amountMicro: bigint;
  paidAt: Date;
}

/**
 * Stores PayoutClaimed logs (a log already stored is left alone) and marks the live v2 predictions of their
 * nonces claimed at the log's block time; returns how many logs were new.
 */
export async function insertChainPayouts(tx: Tx, records: readonly ChainPayoutRecord[]): Promise<number> {
  if (records.length === 0) return 0;
  const inserted = await tx
    .insert(chainPayouts)
    .values([...records])
    .onConflictDoNothing()
    .returning();
  for (const r of inserted) {
    await tx
      .update(predictions)
      .set({ claimedAt: r.paidAt })
      .where(
        and(
          eq(predictions.version, 2),
          eq(predictions.contract, r.contract),
          eq(predictions.quoteDigest, r.nonce),
          isNull(predictions.claimedAt),
        ),
      );
  }
  return inserted.length;
}

/**
 * After a reorganisation past block `after`: deletes the payout logs of `contract` read above it and un-claims the
 * predictions whose nonce no payout log pays any more; returns how many logs were deleted.
 */
export async function removeChainPayoutsAbove(
  tx: Tx,
  f: { chainId: number; contract: string; after: bigint },
): Promise<number> {
  const removed = await tx
    .delete(chainPayouts)
    .where(
      and(
        eq(chainPayouts.chainId, f.chainId),
        eq(chainPayouts.contract, f.contract),
        gt(chainPayouts.blockNumber, f.after),
      ),
    )
    .returning({ nonce: chainPayouts.nonce });
  for (const nonce of new Set(removed.map((r) => r.nonce))) {
    if (await paidAt(tx, f.contract, nonce)) continue;
    await tx
      .update(predictions)
      .set({ claimedAt: null })
      .where(
        and(
          eq(predictions.version, 2),
          eq(predictions.contract, f.contract),
          eq(predictions.quoteDigest, nonce),
          isNotNull(predictions.claimedAt),
        ),
      );
  }
  return removed.length;
}

export interface PayoutTotals {
  vouchersIssued: number;
  vouchersIssuedMicro: bigint;
  payoutsPaid: number;
  payoutsPaidMicro: bigint;
}

/** Vouchers signed for `contract`, and payouts it made, with their sums. */
export async function payoutTotals(q: Queryable, contract: string): Promise<PayoutTotals> {
  const [row] = await rows<{ issued: string; issued_micro: string; paid: string; paid_micro: string }>(
    q,
    sql`select
          (select count(*) from payout_vouchers where contract = ${contract})::text as issued,
          (select coalesce(sum(amount_micro), 0) from payout_vouchers where contract = ${contract})::text as issued_micro,
          (select count(*) from chain_payouts where contract = ${contract})::text as paid,
          (select coalesce(sum(amount_micro), 0) from chain_payouts where contract = ${contract})::text as paid_micro`,
  );
  return {
    vouchersIssued: Number(row!.issued),
    vouchersIssuedMicro: BigInt(row!.issued_micro),
    payoutsPaid: Number(row!.paid),
    payoutsPaidMicro: BigInt(row!.paid_micro),
  };
}

export interface OrphanedClaim {
  predictionId: bigint;
  userId: bigint;
  nonce: string;
  account: string;
  amountMicro: bigint;
  voucherIssuedAt: Date;
  orphanedAt: Date;
  /** When the chain paid the nonce (the canonical chain as indexed); null when it never did. */
  paidAt: Date | null;
}

/** Bets of `contract` a voucher was signed for (claimed), then orphaned by a reorganisation: never paid again. */
export async function orphanedClaims(q: Queryable, contract: string): Promise<OrphanedClaim[]> {
  const found = await rows<{
    prediction_id: string;
    user_id: string;
    nonce: string;
    account: string;
    amount_micro: string;
    issued_at: Date | string;
    orphaned_at: Date | string;
    paid_at: Date | string | null;
  }>(
    q,
    sql`select v.prediction_id::text, v.user_id::text, v.nonce, v.account, v.amount_micro::text, v.issued_at,
          p.orphaned_at,
          (select min(c.paid_at) from chain_payouts c where c.contract = v.contract and c.nonce = v.nonce) as paid_at
        from payout_vouchers v join predictions p on p.id = v.prediction_id
        where v.contract = ${contract} and p.orphaned_at is not null
        order by v.prediction_id`,
  );
  return found.map((r) => ({
    predictionId: BigInt(r.prediction_id),
    userId: BigInt(r.user_id),
    nonce: r.nonce,
    account: r.account,
    amountMicro: BigInt(r.amount_micro),
    voucherIssuedAt: new Date(r.issued_at),
    orphanedAt: new Date(r.orphaned_at),
    paidAt: r.paid_at === null ? null : new Date(r.paid_at),
  }));
}
