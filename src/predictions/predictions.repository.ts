/** The only SQL over predictions, version-2 quotes and USDC claims. */

import type { SQL } from "drizzle-orm";
import { and, between, desc, eq, gte, inArray, isNull, lt, ne } from "drizzle-orm";
import { intArray, type Queryable, rows, sql, type Tx, textArray } from "../db/client.js";
import { betQuotes, events, predictions, usdcClaims } from "../db/schema.js";
import { eventOpenForBets } from "../events/events.js";
import { betsTotal, settlementsTotal } from "../metrics/app-metrics.js";
import type { Rejection } from "./rejection.js";

export type PredictionRow = typeof predictions.$inferSelect;
export type NewPrediction = typeof predictions.$inferInsert;

/** Inserts a prediction; null when its idempotency key (per user and version) or txHash is already taken. */
export async function insertPrediction(tx: Tx, values: NewPrediction): Promise<PredictionRow | null> {
  const [row] = await tx.insert(predictions).values(values).onConflictDoNothing().returning();
  if (row) betsTotal.inc({ version: String(row.version), status: row.status });
  return row ?? null;
}

/** A version-1 bet to open: its stake is debited in the same transaction, leaving `balanceAfter`. */
export interface OpenBet {
  userId: bigint;
  eventId: string;
  market: string;
  outcome: string;
  oddsMilli: bigint;
  stake: number;
  balanceAfter: number;
  idempotencyKey: string | null;
}

/**
 * Inserts open version-1 predictions (one bet, or a group commit's) in one statement: each row only while its event
 * is open (`eventOpenForBets`, from the event row, in the same statement: the window check and the insert are one
 * statement), with its balance after the stake. Each row's id is drawn first, so the answer maps to the input
 * exactly: per input, in order, its stored row or null (event not open, or idempotency key already used). The row
 * is built from what the statement wrote (the table has no defaults besides the id; a test holds it equal to the
 * stored row), so a bet reads nothing back. Called under the events' bet locks (lockEventsForBets).
 */
export async function insertOpenPredictions(
  tx: Tx,
  bets: ReadonlyArray<OpenBet>,
  now: Date,
): Promise<Array<PredictionRow | null>> {
  if (bets.length === 0) return [];
  const found = await rows<{ ord: string; id: string | null }>(
    tx,
    sql`with inp as materialized (
          select i.*, nextval(pg_get_serial_sequence('predictions', 'id')) as id
          from unnest(${intArray(
            bets.map((b) => b.userId),
            "bigint",
          )}, ${textArray(bets.map((b) => b.eventId))}, ${textArray(bets.map((b) => b.market))},
            ${textArray(bets.map((b) => b.outcome))}, ${intArray(
              bets.map((b) => b.oddsMilli),
              "bigint",
            )}, ${intArray(
              bets.map((b) => b.stake),
              "bigint",
            )}, ${intArray(
              bets.map((b) => b.balanceAfter),
              "bigint",
            )}, ${textArray(bets.map((b) => b.idempotencyKey))})
            with ordinality as i(user_id, event_id, market, outcome, odds_milli, stake, balance_after, idempotency_key, ord)
        ),
        ins as (
          insert into predictions (id, user_id, version, event_id, market, outcome, odds_milli, stake, status,
                                   placed_at, idempotency_key, balance_after)
          overriding system value
          select inp.id, inp.user_id, 1, inp.event_id, inp.market, inp.outcome, inp.odds_milli, inp.stake, 'open',
                 ${now}, inp.idempotency_key, inp.balance_after
          from inp join ${events} on ${events.id} = inp.event_id
          where ${eventOpenForBets(sql`inp.event_id`, now)}
          order by inp.ord
          on conflict do nothing
          returning id
        )
        select inp.ord::text as ord, ins.id::text as id from inp left join ins on ins.id = inp.id order by inp.ord`,
  );
  const stored = found.map((r, i) => (r.id === null ? null : openPredictionRow(BigInt(r.id), bets[i]!, now)));
  const inserted = stored.filter((row) => row !== null).length;
  if (inserted > 0) betsTotal.inc({ version: "1", status: "open" }, inserted);
  return stored;
}

/** The row insertOpenPredictions wrote for `bet` under `id`. */
function openPredictionRow(id: bigint, bet: OpenBet, placedAt: Date): PredictionRow {
  return {
    id,
    userId: bet.userId,
    version: 1,
    eventId: bet.eventId,
    market: bet.market,
    outcome: bet.outcome,
    oddsMilli: bet.oddsMilli,
    stake: bet.stake,
    stakeMicro: null,
    status: "open",
    payout: null,
    payoutMicro: null,
    claimedAt: null,
    placedAt,
    settledAt: null,
    txHash: null,
    chainId: null,
    logIndex: null,
    contract: null,
    blockNumber: null,
    blockHash: null,
    quoteDigest: null,
    orphanedAt: null,
    rejectCode: null,
    rejectReason: null,
    idempotencyKey: bet.idempotencyKey,
    balanceAfter: bet.balanceAfter,
  };
}

export async function findPrediction(q: Queryable, id: bigint): Promise<PredictionRow | null> {
  const [row] = await q.select().from(predictions).where(eq(predictions.id, id));
  return row ?? null;
}

/** Reads a prediction and locks its row for the rest of the transaction. */
export async function lockPrediction(tx: Tx, id: bigint): Promise<PredictionRow | null> {
  const [row] = await tx.select().from(predictions).where(eq(predictions.id, id)).for("update");
  return row ?? null;
}

/** Marks a prediction claimed at `at` (a v2 bet whose payout the chain already made). */
export async function markClaimed(tx: Tx, id: bigint, at: Date): Promise<void> {
  await tx
    .update(predictions)
    .set({ claimedAt: at })
    .where(and(eq(predictions.id, id), isNull(predictions.claimedAt)));
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

/** The v2 prediction of a reported transaction that no log backs (CHAIN_VERIFIER=none or trust), on any chain. */
export async function findReportedTx(q: Queryable, txHash: string): Promise<PredictionRow | null> {
  const [row] = await q
    .select()
    .from(predictions)
    .where(
      and(
        eq(predictions.version, 2),
        eq(predictions.txHash, txHash),
        isNull(predictions.logIndex),
        isNull(predictions.orphanedAt),
      ),
    );
  return row ?? null;
}

/** The live (not orphaned) v2 prediction of one BetPlaced log (chain, tx, log index). */
export async function findChainBet(
  q: Queryable,
  key: { chainId: number; txHash: string; logIndex: number },
): Promise<PredictionRow | null> {
  const [row] = await q
    .select()
    .from(predictions)
    .where(
      and(
        eq(predictions.version, 2),
        eq(predictions.chainId, key.chainId),
        eq(predictions.txHash, key.txHash),
        eq(predictions.logIndex, key.logIndex),
        isNull(predictions.orphanedAt),
      ),
    );
  return row ?? null;
}

/** Records the block a chain bet's log was (re-)read from. */
export async function moveChainBet(
  tx: Tx,
  id: bigint,
  block: { blockNumber: bigint; blockHash: string },
): Promise<PredictionRow> {
  const [row] = await tx.update(predictions).set(block).where(eq(predictions.id, id)).returning();
  return row!;
}

/**
 * Live chain bets of a contract read from blocks in [from, to] (`to` null: no upper bound), locked; with
 * `settledOnly`, pending ones are left out.
 */
export async function lockChainBetsInBlocks(
  tx: Tx,
  f: { chainId: number; contract: string; from: bigint; to: bigint | null; settledOnly?: boolean },
): Promise<PredictionRow[]> {
  return tx
    .select()
    .from(predictions)
    .where(
      and(
        eq(predictions.chainId, f.chainId),
        eq(predictions.contract, f.contract),
        f.to === null ? gte(predictions.blockNumber, f.from) : between(predictions.blockNumber, f.from, f.to),
        isNull(predictions.orphanedAt),
        f.settledOnly ? ne(predictions.status, "pending") : undefined,
      ),
    )
    .orderBy(predictions.id)
    .for("update");
}

/**
 * Marks a live chain bet orphaned (its block left the canonical chain): rejected with `reason`, no payout, and
 * no longer holding its log's key; null when it was already orphaned.
 */
export async function markOrphaned(
  tx: Tx,
  id: bigint,
  reason: string,
  now: Date,
): Promise<PredictionRow | null> {
  const [row] = await tx
    .update(predictions)
    .set({
      status: "rejected",
      rejectCode: "REORGANISED",
      rejectReason: reason,
      orphanedAt: now,
      payoutMicro: null,
    })
    .where(and(eq(predictions.id, id), isNull(predictions.orphanedAt)))
    .returning();
  return row ?? null;
}

export type QuoteRow = typeof betQuotes.$inferSelect;

/** Stores a signed quote (a replay of the same digest keeps the first). */
export async function insertQuote(q: Queryable, values: typeof betQuotes.$inferInsert): Promise<void> {
  await q.insert(betQuotes).values(values).onConflictDoNothing();
}

export async function findQuote(q: Queryable, digest: string): Promise<QuoteRow | null> {
  const [row] = await q.select().from(betQuotes).where(eq(betQuotes.digest, digest));
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

/**
 * The kinds of an event's open predictions: one row per distinct (version, market, outcome, odds, stake,
 * stakeMicro, lateAt) with how many, where `lateAt` is the placement instant of a v2 bet placed at or after
 * `closesAt` (null otherwise). Everything the settlement rules read of a prediction is its kind, so an event's
 * 100,000 predictions settle as a handful of kinds (`settleKinds`), none of them sent to the process.
 */
export interface PredictionKind {
  version: number;
  market: string;
  outcome: string;
  oddsMilli: bigint;
  stake: number | null;
  stakeMicro: bigint | null;
  lateAt: Date | null;
  /** `lateAt` exactly as stored (text: microseconds kept), the key the update matches on. */
  lateKey: string | null;
}

/** The expression `lateAt` of a prediction `p` (see PredictionKind). */
const lateAtSql = (closesAt: Date) =>
  sql`case when p.version = 2 and p.placed_at >= ${closesAt} then p.placed_at end`;

export async function openPredictionKinds(
  q: Queryable,
  eventId: string,
  closesAt: Date,
): Promise<PredictionKind[]> {
  const found = await rows<{
    version: number;
    market: string;
    outcome: string;
    odds_milli: string;
    stake: string | null;
    stake_micro: string | null;
    late_at: Date | string | null;
    late_key: string | null;
  }>(
    q,
    sql`select p.version, p.market, p.outcome, p.odds_milli::text as odds_milli, p.stake::text as stake,
               p.stake_micro::text as stake_micro, ${lateAtSql(closesAt)} as late_at,
               (${lateAtSql(closesAt)})::text as late_key
        from predictions p where p.event_id = ${eventId} and p.status = 'open'
        group by 1, 2, 3, 4, 5, 6, 7, 8`,
  );
  return found.map((r) => ({
    version: Number(r.version),
    market: r.market,
    outcome: r.outcome,
    oddsMilli: BigInt(r.odds_milli),
    stake: r.stake === null ? null : Number(r.stake),
    stakeMicro: r.stake_micro === null ? null : BigInt(r.stake_micro),
    lateAt: r.late_at === null ? null : new Date(r.late_at),
    lateKey: r.late_key,
  }));
}

/** A kind's settlement: what its predictions become and the SP each earns. */
export interface SettledKind {
  kind: PredictionKind;
  settled: Omit<SettledValues, "id">;
  sp: number;
}

/**
 * The predictions the set-based settle of this transaction settled (settleKinds), with what their domain events
 * and ledger awards are built from: a temporary table, dropped at commit, so the 100,000 rows of a large settle
 * stay in the database between its statements.
 */
const SETTLED = sql.raw("pg_temp.settled_predictions");

/**
 * Settles an event's open predictions by kind in one statement (each open prediction of a kind in `kinds` gets
 * its kind's status, payout and rejection; any other is left open), keeping the settled ones (id, user, version,
 * SP earned, the new status and payout) for `settledAwards` and `settledPredictionEventsOfSettle` in the same
 * transaction. Returns how many were settled. A later settle in the same transaction (the demo seed settles many
 * events in one) replaces the kept rows with its own.
 */
export async function settleKinds(
  tx: Tx,
  eventId: string,
  closesAt: Date,
  kinds: readonly SettledKind[],
  settledAt: Date,
): Promise<number> {
  if (kinds.length === 0) return 0;
  const col = <T>(f: (k: SettledKind) => T) => kinds.map(f);
  const text = (v: number | bigint | null | undefined) => (v == null ? null : String(v));
  await tx.execute(sql`drop table if exists ${SETTLED}`);
  await tx.execute(sql`create temp table ${SETTLED} (
      id bigint, user_id bigint, event_id text, version int, status text, payout bigint, payout_micro bigint,
      sp bigint) on commit drop`);
  const [done] = await rows<{ settled: string }>(
    tx,
    sql`with settled as (
        update predictions p
        set status = k.status, payout = k.payout, payout_micro = k.payout_micro, settled_at = ${settledAt},
            reject_code = k.reject_code, reject_reason = k.reject_reason
        from unnest(${intArray(
          col((k) => k.kind.version),
          "int",
        )}, ${textArray(col((k) => k.kind.market))}, ${textArray(col((k) => k.kind.outcome))},
          ${intArray(
            col((k) => k.kind.oddsMilli),
            "bigint",
          )}, ${textArray(col((k) => text(k.kind.stake)))}::bigint[],
          ${textArray(col((k) => text(k.kind.stakeMicro)))}::bigint[],
          ${textArray(col((k) => k.kind.lateKey))},
          ${textArray(col((k) => k.settled.status))}, ${textArray(col((k) => text(k.settled.payout)))}::bigint[],
          ${textArray(col((k) => text(k.settled.payoutMicro)))}::bigint[],
          ${textArray(col((k) => k.settled.rejection?.code ?? null))},
          ${textArray(col((k) => k.settled.rejection?.reason ?? null))}, ${intArray(
            col((k) => k.sp),
            "bigint",
          )})
          as k(version, market, outcome, odds_milli, stake, stake_micro, late_key, status, payout, payout_micro,
               reject_code, reject_reason, sp)
        where p.event_id = ${eventId} and p.status = 'open'
          and p.version = k.version and p.market = k.market and p.outcome = k.outcome
          and p.odds_milli = k.odds_milli
          and coalesce(p.stake, -1) = coalesce(k.stake, -1)
          and coalesce(p.stake_micro, -1) = coalesce(k.stake_micro, -1)
          and coalesce((${lateAtSql(closesAt)})::text, '') = coalesce(k.late_key, '')
        returning p.id, p.user_id, p.event_id, p.version, p.status, p.payout, p.payout_micro, k.sp
      ),
      kept as (insert into ${SETTLED} select * from settled)
      select count(*)::text as settled from settled`,
  );
  const settled = Number(done!.settled);
  settlementsTotal.inc(settled);
  return settled;
}

/**
 * The SP awards of the predictions settleKinds settled in this transaction, as the rows of a ledger append
 * (`user_id, type, amount, event_id, external_id`, external id `prediction:<id>`): those that earned SP, with the
 * ledger type of their version (`types`).
 */
export function settledAwards(types: { v1: string; v2: string }): SQL {
  return sql`select s.user_id, case when s.version = 1 then ${types.v1} else ${types.v2} end as type,
                    s.sp as amount, s.event_id, 'prediction:' || s.id as external_id
             from ${SETTLED} s where s.sp > 0`;
}

/** As `settledPredictionEvents`, for the predictions settleKinds settled in this transaction. */
export function settledPredictionEventsOfSettle(): SQL {
  return sql`select p.user_id, ${settledPayload} as payload from ${SETTLED} p order by p.id`;
}

export interface SettledValues {
  id: bigint;
  status: "won" | "lost" | "void" | "rejected";
  payout: number | null;
  payoutMicro: bigint | null;
  /** Why, when `rejected`. */
  rejection?: Rejection;
}

/** Marks open predictions settled (or rejected), all in one statement (one no longer open is left alone). */
export async function markSettled(tx: Tx, settled: SettledValues[], settledAt: Date): Promise<void> {
  if (settled.length === 0) return;
  // Each row given is open and locked by the caller's transaction: each is settled here.
  settlementsTotal.inc(settled.length);
  const nullable = (v: number | bigint | null | undefined) => (v == null ? null : String(v));
  await tx.execute(sql`
    update predictions p
    set status = v.status, payout = v.payout, payout_micro = v.payout_micro, settled_at = ${settledAt},
      reject_code = v.reject_code, reject_reason = v.reject_reason
    from unnest(${intArray(
      settled.map((s) => s.id),
      "bigint",
    )}, ${textArray(settled.map((s) => s.status))}, ${textArray(settled.map((s) => nullable(s.payout)))}::bigint[],
      ${textArray(settled.map((s) => nullable(s.payoutMicro)))}::bigint[],
      ${textArray(settled.map((s) => s.rejection?.code ?? null))},
      ${textArray(settled.map((s) => s.rejection?.reason ?? null))})
      as v(id, status, payout, payout_micro, reject_code, reject_reason)
    where p.id = v.id and p.status = 'open'`);
}

/**
 * The `prediction.settled` payload of each prediction of `ids` as the database holds it, as `(user_id, payload)`
 * rows for the domain-event outbox: `{predictionId, userId, eventId, status}` plus `payout` (v1 credits) or
 * `payoutUsdc` (v2, a decimal string with 6 decimals, formatted from micro-USDC in integer arithmetic).
 */
export function settledPredictionEvents(ids: readonly bigint[]): SQL {
  return sql`
    select p.user_id, ${settledPayload} as payload
    from predictions p where p.id = any(${intArray(ids, "bigint")}) order by p.id`;
}

/** The `prediction.settled` payload of a row `p` (id, user_id, event_id, version, status, payout, payout_micro). */
const settledPayload = sql`jsonb_build_object('predictionId', p.id::text, 'userId', p.user_id::text,
                              'eventId', p.event_id, 'status', p.status)
           || case when p.version = 1 then jsonb_build_object('payout', coalesce(p.payout, 0))
                   else jsonb_build_object('payoutUsdc',
                          (coalesce(p.payout_micro, 0) / 1000000)::text || '.'
                          || lpad((coalesce(p.payout_micro, 0) % 1000000)::text, 6, '0')) end`;

/** Moves a pending v2 prediction to open or rejected; null when it was no longer pending. */
export async function resolvePending(
  tx: Tx,
  id: bigint,
  outcome: { status: "open" } | ({ status: "rejected" } & Rejection),
): Promise<PredictionRow | null> {
  const [row] = await tx
    .update(predictions)
    .set({
      status: outcome.status,
      rejectCode: outcome.status === "rejected" ? outcome.code : null,
      rejectReason: outcome.status === "rejected" ? outcome.reason : null,
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
