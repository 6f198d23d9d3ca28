/**
 * `bet-placed-v2`: a player reports a USDC bet placed on-chain.
 *
 * Contract, with CHAIN_VERIFIER=rpc (`deps.chain`): the report is a hint, never a claim on the transaction.
 * - The reporting user must have a wallet (403); `chainId` must be CHAIN_ID (400).
 * - The transaction's receipt is read now: not mined, reverted, or holding no bet of the betting contract placed
 *   with a quote of this service → 404 BET_NOT_FOUND. The node unreachable → 503 SERVICE_UNAVAILABLE.
 * - Its bets are recorded as the bet indexer would (record-chain-bets.ts): owned by the wallet that placed them,
 *   pending until their block is final, then open or rejected. So a bet shows up before the indexer reaches it.
 * - The answer is the reporting wallet's bet equal to the report (event, market, outcome, stake, odds). The bets
 *   of another wallet → 403 FORBIDDEN; the wallet's own bet with other details → 409 BET_MISMATCH naming the
 *   differences. Neither changes anything: the bet stays its bettor's, who can report it correctly at any time.
 * - Idempotent by construction (the bets are keyed by the chain); Idempotency-Key is accepted and not needed.
 *
 * With "none" or "trust": the report itself is stored (pending, or open when trusted), one per transaction; a
 * replay with the same details returns it, anything else is 409 CONFLICT.
 */
import { AppError } from "../errors.js";
import { lockEventForBet } from "../events/events.js";
import { parseOddsMilli, parseUsdc } from "../shared/money.js";
import { checksumWallet } from "../users/presenters.js";
import { assertEventOpen, currentOddsMilli } from "./bet-rules.js";
import type { ChainBetReader, ChainVerifier, TxBets } from "./chain-verifier.js";
import type { PayoutDeps } from "./claim-payout.js";
import { matchReport, stakeProblem } from "./onchain-bet-rules.js";
import {
  findByIdempotencyKey,
  findPrediction,
  findReportedTx,
  insertPrediction,
  type PredictionRow,
  resolvePending,
} from "./predictions.repository.js";
import { type ChainBetsDeps, recordChainBets } from "./record-chain-bets.js";
import { settlePrediction } from "./settle-event.js";
import type { EventResult } from "./settlement.js";

export interface OnchainBetDeps extends ChainBetsDeps {
  /** The payout signer and the contract that pays (CHAIN_VERIFIER=rpc); null otherwise. */
  payouts: PayoutDeps | null;
  verifier: ChainVerifier;
  /** The chain's receipts, with CHAIN_VERIFIER=rpc; null otherwise. */
  chain: ChainBetReader | null;
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
  const tooBig = stakeProblem(stakeMicro, oddsMilli, deps.spPerUsdc);
  if (tooBig) throw field("stakeUsdc", tooBig);
  const txHash = input.txHash.toLowerCase();
  if (deps.chain) {
    return reportChainBet(deps, deps.chain, {
      ...input,
      walletLower: input.walletLower,
      txHash,
      stakeMicro,
      oddsMilli,
    });
  }
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
    (await findReportedTx(deps.db, txHash)) ??
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
      (await findReportedTx(tx, txHash)) ??
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
    // The event's bet lock first (shared), as recordChainBets and a bet placed through the API take it: a
    // settlement running now is waited for and its result seen, or it waits for this bet and finds it open.
    const event = await lockEventForBet(tx, p.eventId);
    const resolved = await resolvePending(
      tx,
      p.id,
      verdict.status === "confirmed" ? { status: "open" } : verdict,
    );
    if (resolved?.status !== "open") return;
    if (event?.result) await settlePrediction(tx, deps, resolved, event, event.result as EventResult, now);
  });
  return (await findPrediction(deps.db, p.id))!;
}

async function reportChainBet(
  deps: OnchainBetDeps,
  chain: ChainBetReader,
  report: OnchainBetInput & { walletLower: string; txHash: string; stakeMicro: bigint; oddsMilli: bigint },
): Promise<PredictionRow> {
  if (report.chainId !== chain.chainId) {
    throw field("chainId", `must be ${chain.chainId}: bets are verified on that chain`);
  }
  let read: TxBets;
  try {
    read = await chain.readTransaction(report.txHash as `0x${string}`);
  } catch (err) {
    deps.log?.warn({ err, txHash: report.txHash }, "could not read a reported transaction from the chain");
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "The chain cannot be read right now; report the bet again later",
    );
  }
  const hash = report.txHash;
  if (read.kind === "not-mined") {
    throw new AppError(
      "BET_NOT_FOUND",
      `Transaction ${hash} is not mined on chain ${chain.chainId}; report it once it is`,
    );
  }
  if (read.kind === "reverted")
    throw new AppError("BET_NOT_FOUND", `Transaction ${hash} reverted: it placed no bet`);
  const { bets } = await deps.db.transaction((t) =>
    recordChainBets(t, deps, read.bets, { final: read.final }),
  );
  if (bets.length === 0) {
    throw new AppError(
      "BET_NOT_FOUND",
      `Transaction ${hash} holds no bet of the betting contract ${checksumWallet(chain.contract)} placed with a quote of this service`,
    );
  }
  const match = matchReport(
    bets.map((b) => ({ ...b.prediction, stakeMicro: b.prediction.stakeMicro!, walletLower: b.bettor })),
    report,
    report.walletLower,
  );
  if ("otherWallet" in match) {
    throw new AppError(
      "FORBIDDEN",
      `The bet in transaction ${hash} was placed by ${match.otherWallet}, not by your wallet ${checksumWallet(report.walletLower)}: a bet belongs to the wallet that placed it`,
    );
  }
  if ("differences" in match) {
    throw new AppError(
      "BET_MISMATCH",
      `Transaction ${hash} holds your bet, but ${match.differences.join("; ")}`,
    );
  }
  return match.bet;
}
