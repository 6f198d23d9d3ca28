import { AppError } from "../errors.js";
import { findEvent, lockEventForBet } from "../events/events.js";
import { parseOddsMilli, parseUsdc } from "../shared/money.js";
import { assertEventOpen, currentOddsMilli } from "./bet-rules.js";
import type { ChainVerifier } from "./chain-verifier.js";
import {
  findByIdempotencyKey,
  findByTxHash,
  findPrediction,
  insertPrediction,
  listPendingOnchain,
  type PredictionRow,
  resolvePending,
} from "./predictions.repository.js";
import { type SettleDeps, settlePrediction } from "./settle-event.js";
import type { EventResult } from "./settlement.js";

export interface OnchainBetDeps extends SettleDeps {
  verifier: ChainVerifier;
  acceptedChainIds: number[];
}

export interface OnchainBetInput {
  userId: bigint;
  walletLower: string | null;
  eventId: string;
  market: string;
  outcome: string;
  stakeUsdc: string;
  odds: number;
  txHash: string;
  chainId: number;
  idempotencyKey?: string;
}

const field = (name: string, message: string) =>
  new AppError("VALIDATION_FAILED", `body.${name} ${message}`, [{ field: `body.${name}`, message }]);

function sameReport(
  p: PredictionRow,
  input: OnchainBetInput,
  txHash: string,
  stakeMicro: bigint,
  oddsMilli: bigint,
): boolean {
  return (
    p.txHash === txHash &&
    p.userId === input.userId &&
    p.eventId === input.eventId &&
    p.market === input.market &&
    p.outcome === input.outcome &&
    p.stakeMicro === stakeMicro &&
    p.oddsMilli === oddsMilli &&
    p.chainId === input.chainId
  );
}

export async function reportOnchainBet(deps: OnchainBetDeps, input: OnchainBetInput): Promise<PredictionRow> {
  if (!input.walletLower) throw new AppError("FORBIDDEN", "Sign in with the wallet that placed the bet");
  if (!deps.acceptedChainIds.includes(input.chainId)) throw field("chainId", "is not an accepted chain");
  let stakeMicro: bigint;
  let oddsMilli: bigint;
  try {
    stakeMicro = parseUsdc(input.stakeUsdc);
  } catch {
    throw field("stakeUsdc", "must be a USDC amount with at most 6 decimals");
  }
  if (stakeMicro <= 0n) throw field("stakeUsdc", "must be greater than 0");
  try {
    oddsMilli = parseOddsMilli(input.odds);
  } catch {
    throw field("odds", "must be decimal odds above 1 with at most 3 decimals");
  }
  const txHash = input.txHash.toLowerCase();
  const replayOf = (p: PredictionRow) => {
    if (!sameReport(p, input, txHash, stakeMicro, oddsMilli)) {
      throw new AppError(
        "CONFLICT",
        p.txHash === txHash
          ? `Transaction ${txHash} was already reported with other details`
          : "Idempotency-Key was already used for another transaction",
      );
    }
    return p;
  };
  const earlier =
    (await findByTxHash(deps.db, txHash)) ??
    (input.idempotencyKey
      ? await findByIdempotencyKey(deps.db, input.userId, 2, input.idempotencyKey)
      : null);
  if (earlier) return replayOf(earlier);

  const now = deps.clock.now();
  const prediction = await deps.db.transaction(async (tx) => {
    const event = await lockEventForBet(tx, input.eventId);
    if (!event) throw new AppError("NOT_FOUND", `Event ${input.eventId} not found`);
    assertEventOpen(event, now);
    currentOddsMilli(event.markets, input.market, input.outcome);
    const inserted = await insertPrediction(tx, {
      userId: input.userId,
      version: 2,
      eventId: input.eventId,
      market: input.market,
      outcome: input.outcome,
      oddsMilli,
      stakeMicro,
      status: "pending",
      placedAt: now,
      txHash,
      chainId: input.chainId,
      idempotencyKey: input.idempotencyKey ?? null,
    });
    if (inserted) return inserted;
    const winner =
      (await findByTxHash(tx, txHash)) ??
      (await findByIdempotencyKey(tx, input.userId, 2, input.idempotencyKey!));
    return replayOf(winner!);
  });
  return verifyPendingBet(deps, prediction, input.walletLower);
}

/** Asks the verifier about a pending v2 prediction and records its answer. Safe to call repeatedly. */
export async function verifyPendingBet(
  deps: OnchainBetDeps,
  p: PredictionRow,
  bettorLower: string,
): Promise<PredictionRow> {
  if (p.status !== "pending") return p;
  const verdict = await deps.verifier.verify({
    chainId: p.chainId!,
    txHash: p.txHash!,
    bettorLower,
    eventId: p.eventId,
    market: p.market,
    outcome: p.outcome,
    stakeMicro: p.stakeMicro!,
    oddsMilli: p.oddsMilli,
  });
  if (verdict.status === "pending") return p;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const resolved = await resolvePending(
      tx,
      p.id,
      verdict.status === "confirmed" ? { status: "open", logIndex: verdict.logIndex ?? null } : verdict,
    );
    if (resolved?.status !== "open") return;
    const event = await findEvent(tx, resolved.eventId);
    if (event?.result) await settlePrediction(tx, deps, resolved, event, event.result as EventResult, now);
  });
  return (await findPrediction(deps.db, p.id))!;
}

/**
 * Asks the verifier again about up to `limit` pending v2 predictions with id > afterId, oldest first (the
 * background re-check). `nextAfterId` continues the round, or is 0n to start over, so a bet that stays pending
 * does not starve the others.
 */
export async function recheckPendingBets(
  deps: OnchainBetDeps,
  opts: { afterId: bigint; limit: number },
): Promise<{ checked: number; resolved: number; nextAfterId: bigint }> {
  const batch = await listPendingOnchain(deps.db, opts);
  let resolved = 0;
  for (const { prediction, walletLower } of batch) {
    if (!walletLower) continue;
    if ((await verifyPendingBet(deps, prediction, walletLower)).status !== "pending") resolved++;
  }
  const last = batch.at(-1)?.prediction.id;
  return { checked: batch.length, resolved, nextAfterId: batch.length === opts.limit && last ? last : 0n };
}
