/** What goes out of the competition routes: SPEC §8 shapes, instants as ISO strings, USDC as 6-decimal strings. */
import { formatUsdc } from "../shared/money.js";
import { weekLabel } from "../shared/season.js";
import { checksumWallet } from "../users/presenters.js";
import type { LadderPage } from "./get-ladder-page.js";
import type { Meta } from "./get-meta.js";
import type { MyStatus } from "./get-my-status.js";
import type { PublishedPrizeTree } from "./get-prize-tree.js";
import type { MyPrizeClaim } from "./my-prize-claim.js";
import { LEAF_ENCODING } from "./prize-tree.js";
import { PRIZE_SPLIT_PCT } from "./prizes.js";
import { CHAMPIONS_CUTOFF, PAID_RANKS, QUALIFICATION_CUTOFF } from "./ranking.js";
import type { WeekPool } from "./week-pool.js";
import type { FinalizeOutcome, WeekResult } from "./week-result.js";

const usdcOrNull = (m: bigint | null) => (m === null ? null : formatUsdc(m));

export function presentMeta(m: Meta) {
  return {
    now: m.now.toISOString(),
    currentWeek: m.currentWeek,
    seasonStarted: m.seasonStarted,
    championsEnabled: m.championsEnabled,
    countdown: { endsAt: m.countdown.endsAt.toISOString(), secondsRemaining: m.countdown.secondsRemaining },
    constants: {
      qualificationCutoff: QUALIFICATION_CUTOFF,
      championsCutoff: CHAMPIONS_CUTOFF,
      paidRanks: PAID_RANKS,
      prizeSplitPct: [...PRIZE_SPLIT_PCT],
      weekLengthDays: 7,
    },
    weeks: m.weeks.map((w) => ({
      week: w.week,
      label: w.label,
      startsAt: w.startsAt.toISOString(),
      endsAt: w.endsAt.toISOString(),
      status: w.status,
      provisional: w.provisional,
      championsEnabled: w.championsEnabled,
    })),
  };
}

export function presentLeaderboard(p: LadderPage) {
  return {
    week: p.week,
    type: p.type,
    label: weekLabel(p.week),
    championsEnabled: p.championsEnabled,
    provisional: p.provisional,
    total: p.total,
    offset: p.offset,
    limit: p.limit,
    cutoffRank: p.cutoffRank,
    cutoffSp: p.cutoffSp,
    rows: p.rows.map((r) => ({
      rank: r.rank,
      userId: r.userId,
      displayName: r.displayName,
      wallet: r.wallet,
      competitiveSp: r.competitiveSp,
      withinCutoff: r.withinCutoff,
      prizeUsdc: usdcOrNull(r.prizeMicro),
    })),
  };
}

export function presentMe(s: MyStatus) {
  const { prizeMicro, ...champions } = s.champions;
  return {
    week: s.week,
    label: weekLabel(s.week),
    provisional: s.provisional,
    qualification: s.qualification,
    champions: { ...champions, prizeUsdc: usdcOrNull(prizeMicro) },
    nextWeek: s.nextWeek,
    prizeClaim: s.prizeClaim && presentPrizeClaim(s.prizeClaim),
  };
}

function presentPrizeClaim(c: MyPrizeClaim) {
  return {
    week: c.week,
    root: c.root,
    account: c.account,
    amountUsdc: formatUsdc(c.amountMicro),
    amountMicro: String(c.amountMicro),
    carriedUsdc: formatUsdc(c.carriedMicro),
    proof: c.proof,
    claimed: c.claimed,
    awaitingWallet: c.awaitingWallet,
    paidInWeek: c.paidInWeek,
  };
}

/** A finalized week's prize tree: what anyone needs to rebuild its root and check each leaf. */
export function presentPrizeTree({ tree, claimed, paidInWeek }: PublishedPrizeTree) {
  return {
    week: tree.week,
    root: tree.root,
    leafEncoding: [...LEAF_ENCODING],
    totalUsdc: formatUsdc(tree.totalMicro),
    totalMicro: String(tree.totalMicro),
    leaves: tree.leaves.map((l) => ({
      account: l.account,
      amountUsdc: formatUsdc(l.amountMicro),
      amountMicro: String(l.amountMicro),
      carriedUsdc: formatUsdc(l.carriedMicro),
      claimed: claimed.has(l.account.toLowerCase()),
    })),
    awaitingWallet: tree.awaitingWallet.map((a) => ({
      userId: a.userId,
      amountUsdc: formatUsdc(a.amountMicro),
      paidInWeek: paidInWeek.get(a.userId) ?? null,
    })),
    carried: tree.carried.map((a) => ({
      fromWeek: a.fromWeek,
      userId: a.userId,
      amountUsdc: formatUsdc(a.amountMicro),
    })),
  };
}

export function presentPrizePool(p: WeekPool) {
  return {
    estimatedUsdc: formatUsdc(p.estimate.estimatedMicro),
    selectedWeek: p.week,
    fundingWeekIndex: p.window?.fundingWeekIndex ?? null,
    feeWindowStart: p.window?.start.toISOString() ?? null,
    feeWindowEnd: p.window?.end.toISOString() ?? null,
    sources: {
      protocolFeesWeek: formatUsdc(p.estimate.protocolFeesMicro),
      protocolIncentiveUsdc: formatUsdc(p.estimate.incentiveMicro),
      entries: formatUsdc(p.estimate.entriesMicro),
    },
  };
}

/** The finalize answer: the stored week result, amounts as USDC strings, winners' wallets checksummed. */
export function presentFinalize({ result: r, alreadyFinalized, wallets }: FinalizeOutcome) {
  return {
    week: r.week,
    finalizedAt: r.finalizedAt.toISOString(),
    alreadyFinalized,
    qualification: r.qualification,
    champions: r.champions,
    prizes: presentPrizes(r, wallets),
    pool: presentPool(r),
    nextWeekEligible: r.nextWeekEligible,
  };
}

function presentPrizes(r: WeekResult, wallets: ReadonlyMap<string, string | null>) {
  return r.prizes.map((p) => ({
    rank: p.rank,
    userId: p.userId,
    wallet: checksumWallet(wallets.get(p.userId) ?? null),
    competitiveSp: p.sp,
    rankPct: p.rankPct,
    splitAmong: p.splitAmong,
    amountUsdc: formatUsdc(p.amountMicro),
  }));
}

function presentPool(r: WeekResult) {
  return {
    estimatedUsdc: formatUsdc(r.pool.estimatedMicro),
    distributedUsdc: formatUsdc(r.pool.distributedMicro),
    undistributedUsdc: formatUsdc(r.pool.undistributedMicro),
  };
}

/** The `week.finalized` domain event (SPEC §11): the finalize result's fields, with the prize tree's root. */
export function presentWeekFinalized(
  r: WeekResult,
  wallets: ReadonlyMap<string, string | null>,
  prizeRoot: string | null,
) {
  return {
    week: r.week,
    label: weekLabel(r.week),
    finalizedAt: r.finalizedAt.toISOString(),
    pool: presentPool(r),
    prizes: presentPrizes(r, wallets),
    prizeRoot,
  };
}
