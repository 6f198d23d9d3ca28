/**
 * Finalizes week W once: snapshots both ladders, pays the Champions prizes from the week's pool and stores who
 * may play Champions week W+1, all in one transaction. Concurrent calls finalize once (the CompetitionWeek
 * primary key decides); a repeated call returns the stored result with `alreadyFinalized: true`.
 */
import { AppError } from "../errors.js";
import { formatUsdc } from "../shared/money.js";
import { checksumWallet } from "../users/presenters.js";
import { findDisplayInfo } from "../users/users.repository.js";
import { weekBounds } from "./calendar.js";
import {
  claimFinalization,
  completeFinalization,
  findFinalizedWeek,
  insertEligibility,
  insertSnapshotRows,
  snapshotQualification,
} from "./competition.repository.js";
import {
  type CompetitionDeps,
  CUTOFFS,
  championsLadder,
  eligibilityFor,
  poolEstimateFor,
  qualificationTop,
  readContext,
} from "./competition-context.js";
import { nextWeekEligibility } from "./eligibility.js";
import { assertWeek } from "./ladders.js";
import { splitPrizes } from "./prizes.js";
import { cutoffSp, withinCutoff } from "./ranking.js";

export interface FinalizeResult {
  week: number;
  finalizedAt: string;
  qualification: { participants: number; cutoffSp: number | null; qualifiers: number };
  champions: { enabled: boolean; participants: number; cutoffSp: number | null; retained: number };
  prizes: Array<{
    rank: number;
    userId: string;
    wallet: string | null;
    competitiveSp: number;
    rankPct: number;
    splitAmong: number;
    amountUsdc: string;
  }>;
  pool: { estimatedUsdc: string; distributedUsdc: string; undistributedUsdc: string };
  nextWeekEligible: number;
}

export async function finalizeWeek(
  deps: CompetitionDeps,
  input: { week: number },
): Promise<FinalizeResult & { alreadyFinalized: boolean }> {
  const { week } = input;
  assertWeek(week);
  const stored = await findFinalizedWeek(deps.db, week);
  if (stored) return { ...(stored.result as FinalizeResult), alreadyFinalized: true };

  const now = deps.clock.now();
  if (now.getTime() < weekBounds(deps.season, week).end.getTime()) {
    throw new AppError("WEEK_NOT_ENDED", `Week ${week} has not ended yet`);
  }
  if (week >= 1 && deps.feesIndexedThrough) {
    // The pool freezes fees of week W−1: every block up to that week's end must have been indexed.
    const feeWindowEnd = weekBounds(deps.season, week - 1).end;
    const through = await deps.feesIndexedThrough();
    if (!through || through.getTime() < feeWindowEnd.getTime()) {
      throw new AppError(
        "FEES_NOT_INDEXED",
        `The fee indexer has not yet read the chain up to ${feeWindowEnd.toISOString()}, the end of week ${week - 1}'s fees (read up to ${through?.toISOString() ?? "nothing yet"}); try again shortly`,
      );
    }
  }
  const result = await deps.db.transaction(async (tx) => {
    if (week >= 1 && !(await findFinalizedWeek(tx, week - 1))) {
      throw new AppError("PREVIOUS_WEEK_NOT_FINALIZED", `Finalize week ${week - 1} first`);
    }
    if (!(await claimFinalization(tx, week, now))) {
      // Another caller finalized it while we waited on its row: serve what it stored.
      const winner = await findFinalizedWeek(tx, week);
      return { ...(winner!.result as FinalizeResult), alreadyFinalized: true };
    }
    const ctx = await readContext(deps, tx);
    ctx.now = now;
    // Our own claim row is already in competition_weeks, but week W has no snapshot yet: rank it live.
    ctx.finalized.delete(week);

    const participants = await snapshotQualification(tx, week, CUTOFFS.qualification);
    const qualification = await qualificationTop(ctx, week);

    const eligibleThisWeek = await eligibilityFor(ctx, week);
    // Not yet in ctx.finalized, so this ranks the live Champions ladder inside our transaction.
    const champions = week >= 1 ? await championsLadder(ctx, week) : null;
    const { estimate } = await poolEstimateFor(ctx, week);
    const split = splitPrizes(champions ?? [], week >= 1 ? estimate.estimatedMicro : 0n);
    const prizeOf = new Map(split.prizes.map((p) => [p.userId, p.amountMicro]));
    if (champions) {
      await insertSnapshotRows(
        tx,
        week,
        "champions",
        champions.map((e, i) => ({
          position: i + 1,
          userId: e.userId,
          sp: e.sp,
          rank: e.rank,
          withinCutoff: withinCutoff(e.rank, CUTOFFS.champions),
          prizeMicro: prizeOf.get(e.userId) ?? null,
        })),
      );
    }

    const next = nextWeekEligibility({
      week,
      qualification,
      champions,
      eligibleThisWeek: new Set(eligibleThisWeek.keys()),
    });
    await insertEligibility(tx, week + 1, week, next);

    const winners = await findDisplayInfo(
      tx,
      split.prizes.map((p) => p.userId),
    );
    const result: FinalizeResult = {
      week,
      finalizedAt: now.toISOString(),
      qualification: {
        participants,
        cutoffSp: cutoffSp(qualification, CUTOFFS.qualification),
        qualifiers: qualification.filter((e) => withinCutoff(e.rank, CUTOFFS.qualification)).length,
      },
      champions: {
        enabled: week >= 1,
        participants: champions?.length ?? 0,
        cutoffSp: champions ? cutoffSp(champions, CUTOFFS.champions) : null,
        retained: champions?.filter((e) => withinCutoff(e.rank, CUTOFFS.champions)).length ?? 0,
      },
      prizes: split.prizes.map((p) => ({
        rank: p.rank,
        userId: p.userId,
        wallet: checksumWallet(winners.get(p.userId)?.wallet ?? null),
        competitiveSp: p.sp,
        rankPct: p.rankPct,
        splitAmong: p.splitAmong,
        amountUsdc: formatUsdc(p.amountMicro),
      })),
      pool: {
        estimatedUsdc: formatUsdc(estimate.estimatedMicro),
        distributedUsdc: formatUsdc(split.distributedMicro),
        undistributedUsdc: formatUsdc(estimate.estimatedMicro - split.distributedMicro),
      },
      nextWeekEligible: next.size,
    };
    await completeFinalization(tx, week, estimate.estimatedMicro, result);
    return { ...result, alreadyFinalized: false };
  });
  // This week is now served from its snapshot; its live ranks need not stay in memory.
  deps.cache?.drop(week);
  return result;
}
