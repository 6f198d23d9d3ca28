/**
 * `claim-payout`: what a player is owed for one prediction (SPEC §6, §10).
 *
 * Contract:
 * - v1 (credits): a won or void prediction pays its payout into the credits ledger exactly once (a conditional
 *   update on claimed_at lets one of many concurrent claims through); ALREADY_CLAIMED after.
 * - v2 with the payout signer (CHAIN_VERIFIER=rpc): a won, void or rejected bet that is owed USDC
 *   (payout-rules.ts) gets an EIP-712 payout voucher for the bettor's address, which the betting contract honours
 *   once, from its balance (its nonce is the bet's quote digest). The prediction becomes `claimed` only when the
 *   payout indexer reads the contract's PayoutClaimed log from a final block. Until then, the same claim gets the
 *   same voucher back (re-signed with a new deadline once it has expired). A nonce the chain already paid (a bet
 *   recorded again after a reorganisation) is ALREADY_CLAIMED. A new voucher is refused with
 *   INSUFFICIENT_LIQUIDITY when what the contract owes (every unpaid won/void/rejected bet, this one included)
 *   exceeds its USDC balance; a chain that cannot be read is SERVICE_UNAVAILABLE.
 * - v2 without a payout signer (CHAIN_VERIFIER=none or trust, development): a won or void prediction gets a USDC
 *   claim record, once.
 * - Another user's or an unknown prediction is NOT_FOUND; one owed nothing is NOT_CLAIMABLE.
 */
import type { Address, Hex } from "viem";
import { signPayout } from "../../contracts/quote-typed-data.js";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { appendCredits, creditsBalance } from "../ledger/credits.js";
import { formatUsdc } from "../shared/money.js";
import { owedMicro, voucherDeadline, voucherStillUsable } from "./payout-rules.js";
import { findVoucher, owedBy, paidAt, saveVoucher, type VoucherRow } from "./payouts.repository.js";
import {
  claimPrediction,
  findPrediction,
  findQuote,
  insertUsdcClaim,
  lockPrediction,
  markClaimed,
  type PredictionRow,
} from "./predictions.repository.js";

/** The payout signer and the contract that pays, with CHAIN_VERIFIER=rpc. */
export interface PayoutDeps {
  signerKey: Hex;
  chainId: number;
  /** Lower-case address of the betting contract. */
  contract: Address;
  ttlSeconds: number;
  /** The contract's USDC balance in micro-USDC; throws when the chain cannot be read (bounded in time). */
  liquidity(): Promise<bigint>;
}

export interface ClaimDeps {
  db: Db;
  clock: Clock;
  payouts: PayoutDeps | null;
}

export type ClaimResult =
  | { kind: "paid"; prediction: PredictionRow; claimedAt: Date; balance: number }
  | { kind: "voucher"; prediction: PredictionRow; voucher: VoucherRow };

export async function claimPayout(
  deps: ClaimDeps,
  input: { userId: bigint; predictionId: bigint },
): Promise<ClaimResult> {
  const p = await findPrediction(deps.db, input.predictionId);
  if (!p || p.userId !== input.userId)
    throw new AppError("NOT_FOUND", `Prediction ${input.predictionId} not found`);
  if (p.version === 2 && deps.payouts) return claimVoucher(deps, deps.payouts, p);
  return claimOnce(deps, p);
}

/** v1, and v2 without a payout signer: the payout is recorded here, once. */
async function claimOnce(deps: ClaimDeps, p: PredictionRow): Promise<ClaimResult> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const claimed = await claimPrediction(tx, p.id, p.userId, now);
    if (!claimed) {
      const current = (await findPrediction(tx, p.id))!;
      if (current.claimedAt) throw new AppError("ALREADY_CLAIMED", "This payout was already claimed");
      throw new AppError("NOT_CLAIMABLE", `A ${current.status} prediction has no payout to claim`);
    }
    if (claimed.version === 1) {
      const { balance } = await appendCredits(tx, {
        userId: p.userId,
        reason: "PAYOUT",
        amount: claimed.payout ?? 0,
        externalId: `payout:${claimed.id}`,
      });
      return { kind: "paid", prediction: claimed, claimedAt: now, balance };
    }
    await insertUsdcClaim(tx, claimed.id, p.userId, claimed.payoutMicro ?? 0n, now);
    return { kind: "paid", prediction: claimed, claimedAt: now, balance: await creditsBalance(tx, p.userId) };
  });
}

async function claimVoucher(
  deps: ClaimDeps,
  payouts: PayoutDeps,
  found: PredictionRow,
): Promise<ClaimResult> {
  const now = deps.clock.now();
  const result = await deps.db.transaction(async (tx): Promise<ClaimResult | "paid-on-chain"> => {
    // Locked: concurrent claims of one bet sign (and store) one voucher.
    const p = (await lockPrediction(tx, found.id))!;
    if (p.claimedAt) throw new AppError("ALREADY_CLAIMED", "This payout was already paid on-chain");
    const amount = owedMicro(p);
    if (amount === null || amount === 0n) {
      const why = p.orphanedAt ? "a bet a reorganisation removed from the chain" : `a ${p.status} bet`;
      throw new AppError("NOT_CLAIMABLE", `Prediction ${p.id} is ${why}: nothing is owed for it`);
    }
    if (!p.quoteDigest || p.contract !== payouts.contract) {
      throw new AppError(
        "NOT_CLAIMABLE",
        `Prediction ${p.id} was not placed on the betting contract that pays`,
      );
    }
    const paid = await paidAt(tx, payouts.contract, p.quoteDigest);
    if (paid) {
      // Committed: the claim answers ALREADY_CLAIMED from now on without reading the chain again.
      await markClaimed(tx, p.id, paid);
      return "paid-on-chain";
    }
    const existing = await findVoucher(tx, p.id);
    if (existing && existing.amountMicro === amount && voucherStillUsable(existing, now)) {
      return { kind: "voucher", prediction: p, voucher: existing };
    }
    let balance: bigint;
    try {
      balance = await payouts.liquidity();
    } catch {
      throw new AppError("SERVICE_UNAVAILABLE", "The betting contract's balance cannot be read right now");
    }
    const owed = await owedBy(tx, payouts.contract);
    if (owed.micro > balance) {
      throw new AppError(
        "INSUFFICIENT_LIQUIDITY",
        `The betting contract holds ${formatUsdc(balance)} USDC and owes ${formatUsdc(owed.micro)} USDC: payouts resume once it is funded`,
      );
    }
    const quote = (await findQuote(tx, p.quoteDigest))!;
    const deadline = voucherDeadline(now, payouts.ttlSeconds);
    const message = {
      predictionId: p.id,
      account: quote.bettor as Address,
      amount,
      nonce: p.quoteDigest as Hex,
      deadline,
    };
    const voucher: VoucherRow = {
      predictionId: p.id,
      userId: p.userId,
      chainId: payouts.chainId,
      contract: payouts.contract,
      account: quote.bettor,
      amountMicro: amount,
      nonce: p.quoteDigest,
      deadline: new Date(Number(deadline) * 1000),
      signature: await signPayout(payouts.signerKey, payouts.chainId, payouts.contract, message),
      issuedAt: now,
    };
    await saveVoucher(tx, voucher);
    return { kind: "voucher", prediction: p, voucher };
  });
  if (result === "paid-on-chain") {
    throw new AppError("ALREADY_CLAIMED", "This bet's payout was already paid on-chain");
  }
  return result;
}
