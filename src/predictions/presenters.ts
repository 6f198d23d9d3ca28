/** What goes out about a prediction: v1 in credits (`stake`, `payout`), v2 in USDC (`stakeUsdc`, `payoutUsdc`). */
import { getAddress } from "viem";
import { formatOdds, formatUsdc } from "../shared/money.js";
import type { ClaimResult } from "./claim-payout.js";
import type { PredictionRow } from "./predictions.repository.js";
import type { QuoteResult } from "./quote-bet.js";
import type { Reconciliation } from "./reconcile-payouts.js";
import type { RejectCode } from "./rejection.js";
import type { PredictionStatus } from "./statuses.js";

export function presentPrediction(p: PredictionRow) {
  const common = {
    id: String(p.id),
    // The columns allow only these (predictions_version_check, predictions_status_check).
    version: p.version as 1 | 2,
    eventId: p.eventId,
    market: p.market,
    outcome: p.outcome,
    odds: formatOdds(p.oddsMilli),
    status: p.status as PredictionStatus,
    claimed: p.claimedAt !== null,
    placedAt: p.placedAt.toISOString(),
    settledAt: p.settledAt?.toISOString() ?? null,
  };
  if (p.version === 1) return { ...common, stake: p.stake!, payout: p.payout };
  return {
    ...common,
    stakeUsdc: formatUsdc(p.stakeMicro!),
    payoutUsdc: p.payoutMicro === null ? null : formatUsdc(p.payoutMicro),
    txHash: p.txHash!,
    chainId: p.chainId!,
    rejectReason: p.rejectCode as RejectCode | null,
    rejectMessage: p.rejectReason,
  };
}

/** A payout recorded here (credits, or a development USDC claim), or a voucher for the betting contract. */
export function presentClaim(c: ClaimResult) {
  const p = c.prediction;
  if (c.kind === "voucher") {
    const v = c.voucher;
    return {
      predictionId: String(p.id),
      account: getAddress(v.account),
      amountMicro: v.amountMicro.toString(),
      amountUsdc: formatUsdc(v.amountMicro),
      nonce: v.nonce,
      deadline: String(Math.floor(v.deadline.getTime() / 1000)),
      signature: v.signature,
      chainId: v.chainId,
      contract: getAddress(v.contract),
    };
  }
  return {
    predictionId: String(p.id),
    ...(p.version === 1 ? { payout: p.payout ?? 0 } : { payoutUsdc: formatUsdc(p.payoutMicro ?? 0n) }),
    claimedAt: c.claimedAt.toISOString(),
    balance: c.balance,
  };
}

/** A signed quote: the offer in the service's terms, and the `quote` + `signature` to pass to `placeBet`. */
export function presentQuote(q: QuoteResult) {
  return {
    eventId: q.eventId,
    market: q.market,
    outcome: q.outcome,
    odds: formatOdds(q.oddsMilli),
    expiresAt: q.expiresAt.toISOString(),
    chainId: q.chainId,
    contract: q.contract,
    quote: {
      bettor: q.message.bettor,
      marketId: q.message.marketId,
      outcome: q.message.outcome,
      odds: q.message.odds.toString(),
      expiry: q.message.expiry.toString(),
    },
    signature: q.signature,
  };
}

/** The reconcile report: amounts as 6-decimal USDC strings, addresses checksummed. */
export function presentReconciliation(r: Reconciliation) {
  const shortfall = r.owed.micro > r.balanceMicro ? r.owed.micro - r.balanceMicro : 0n;
  return {
    chainId: r.chainId,
    contract: getAddress(r.contract),
    balanceUsdc: formatUsdc(r.balanceMicro),
    liabilities: { bets: r.owed.bets, amountUsdc: formatUsdc(r.owed.micro) },
    solvent: shortfall === 0n,
    shortfallUsdc: formatUsdc(shortfall),
    vouchers: {
      issued: r.totals.vouchersIssued,
      issuedUsdc: formatUsdc(r.totals.vouchersIssuedMicro),
      paid: r.totals.payoutsPaid,
      paidUsdc: formatUsdc(r.totals.payoutsPaidMicro),
    },
    orphanedClaims: r.orphaned.map((o) => ({
      predictionId: String(o.predictionId),
      userId: String(o.userId),
      account: getAddress(o.account),
      nonce: o.nonce,
      amountUsdc: formatUsdc(o.amountMicro),
      voucherIssuedAt: o.voucherIssuedAt.toISOString(),
      orphanedAt: o.orphanedAt.toISOString(),
      paidAt: o.paidAt?.toISOString() ?? null,
    })),
  };
}

/** The `event.settled` domain event (SPEC §11): `winningOutcome` null for a cancelled event. */
export function presentEventSettled(e: {
  eventId: string;
  status: "finished" | "cancelled";
  winningOutcome: string | null;
  settledAt: Date;
}) {
  return {
    eventId: e.eventId,
    status: e.status,
    winningOutcome: e.winningOutcome,
    settledAt: e.settledAt.toISOString(),
  };
}
