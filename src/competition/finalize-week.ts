/**
 * Finalizes week W once — the one use case behind every path (HTTP, the CLI, the remote CLI endpoint, the
 * auto-finalize scheduler), so each has the same guards: WEEK_NOT_ENDED, FEES_NOT_INDEXED (the fee indexer has not
 * read past the end of week W−1's fees), BETS_NOT_INDEXED (the bet indexer has not read past the end of week W),
 * PREVIOUS_WEEK_NOT_FINALIZED. Snapshots both ladders, pays the Champions prizes from the week's pool, stores their
 * Merkle tree (prize-tree.ts) and who may play Champions week W+1, all in one transaction. Concurrent calls finalize once (the CompetitionWeek
 * primary key decides); a repeated call returns the stored result with `alreadyFinalized: true`. The finalizing
 * transaction also records the `week.finalized` domain event (src/domain-events/), so it is announced exactly once.
 */
import { recordDomainEvent } from "../domain-events/domain-events.js";
import { AppError } from "../errors.js";
import { finalizeDurationSeconds } from "../metrics/app-metrics.js";
import { elapsedMs } from "../shared/op-log.js";
import { isChampionsEnabled, weekBounds } from "../shared/season.js";
import { findDisplayInfo } from "../users/users.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { nextWeekEligibility } from "./eligibility.js";
import { presentWeekFinalized } from "./presenters.js";
import { insertPrizeTree } from "./prize-tree.repository.js";
import { prizeTreeOf } from "./prize-tree-of.js";
import { splitPrizes } from "./prizes.js";
import { CUTOFFS, withinCutoff } from "./ranking.js";
import {
  attachWeekSnapshot,
  claimFinalization,
  completeFinalization,
  findWeekResult,
  insertEligibility,
  insertSnapshotRows,
  openWeekSnapshot,
} from "./snapshot.repository.js";
import { Standings } from "./standings.js";
import { weekPool } from "./week-pool.js";
import { type FinalizeOutcome, summarizeWeek, type WeekResult } from "./week-result.js";

/**
 * Finalizes week W (see the file's contract), timed: a finalization that finalized is observed in
 * `app_finalize_duration_seconds`; every call logs one line `{op: "finalize", week, outcome, durationMs}` to
 * `deps.log` (outcome `finalized`, `already-finalized`, or the error code).
 */
export async function finalizeWeek(deps: CompetitionDeps, input: { week: number }): Promise<FinalizeOutcome> {
  const startedAt = performance.now();
  try {
    const outcome = await finalizeOrServe(deps, input);
    const durationMs = elapsedMs(startedAt);
    if (!outcome.alreadyFinalized) finalizeDurationSeconds.observe(durationMs / 1000);
    deps.log?.info(
      {
        op: "finalize",
        week: input.week,
        outcome: outcome.alreadyFinalized ? "already-finalized" : "finalized",
        durationMs,
      },
      "finalize",
    );
    return outcome;
  } catch (err) {
    const code = err instanceof AppError ? err.code : "INTERNAL";
    const line = { op: "finalize", week: input.week, outcome: code, durationMs: elapsedMs(startedAt) };
    if (err instanceof AppError && err.status < 500) deps.log?.info(line, "finalize");
    else deps.log?.error({ ...line, err }, "finalize");
    throw err;
  }
}

async function finalizeOrServe(deps: CompetitionDeps, input: { week: number }): Promise<FinalizeOutcome> {
  const stored = await findWeekResult(deps.db, input.week);
  const { result, alreadyFinalized } = stored
    ? { result: stored, alreadyFinalized: true }
    : await finalizeOnce(deps, input.week);
  // This week is now served from its snapshot; its live ranks need not stay in memory.
  if (!alreadyFinalized) deps.cache?.drop(input.week);
  const users = await findDisplayInfo(
    deps.db,
    result.prizes.map((p) => p.userId),
  );
  const wallets = new Map(result.prizes.map((p) => [p.userId, users.get(p.userId)?.wallet ?? null]));
  return { result, alreadyFinalized, wallets };
}

const REPEATABLE_READ = { isolationLevel: "repeatable read" } as const;

async function finalizeOnce(
  deps: CompetitionDeps,
  week: number,
): Promise<{ result: WeekResult; alreadyFinalized: boolean }> {
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
  if (deps.betsIndexedThrough) {
    // The ladders count chain bets placed up to the week's end: every block up to it must have been indexed.
    const weekEnd = weekBounds(deps.season, week).end;
    const through = await deps.betsIndexedThrough();
    if (!through || through.getTime() < weekEnd.getTime()) {
      throw new AppError(
        "BETS_NOT_INDEXED",
        `The bet indexer has not yet read the chain up to ${weekEnd.toISOString()}, the end of week ${week} (read up to ${through?.toISOString() ?? "nothing yet"}); try again shortly`,
      );
    }
  }
  // REPEATABLE READ: the week's live ladder is read several times below (its Qualification snapshot, the top 25,
  // eligibility, the Champions ladder), all from one snapshot, so an SP row committing meanwhile is in none of
  // them rather than in some. A finalizer that loses the claim to one that committed after its snapshot gets a
  // serialization failure, and its retry (db/client.ts) serves the stored result.
  return (deps.bulkDb ?? deps.db).transaction(async (tx) => {
    // The opening week has no week before it.
    if (week > 0 && !(await findWeekResult(tx, week - 1))) {
      throw new AppError("PREVIOUS_WEEK_NOT_FINALIZED", `Finalize week ${week - 1} first`);
    }
    // Opened before our claim: week W is not finalized in it, so its ladders are ranked live in this transaction.
    const standings = await Standings.open(deps, tx);
    if (!(await claimFinalization(tx, week, now))) {
      // Another caller finalized it while we waited on its row: serve what it stored.
      return { result: (await findWeekResult(tx, week))!, alreadyFinalized: true };
    }
    // The week's snapshot table: filled here, attached (indexed) once both ladders are in.
    const qualificationParticipants = await openWeekSnapshot(tx, week, CUTOFFS.qualification);
    const qualificationTop = await standings.qualificationTop(week);
    const eligibleThisWeek = await standings.eligibility(week);
    const champions = isChampionsEnabled(week) ? await standings.championsLadder(week) : null;
    const { estimate } = await weekPool(deps, tx, week, now);
    const split = splitPrizes(champions ?? [], champions ? estimate.estimatedMicro : 0n);
    if (champions) {
      const prizeOf = new Map(split.prizes.map((p) => [p.userId, p.amountMicro]));
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
    await attachWeekSnapshot(tx, week);
    const next = nextWeekEligibility({
      week,
      qualification: qualificationTop,
      champions,
      eligibleThisWeek: new Set(eligibleThisWeek.keys()),
    });
    await insertEligibility(tx, week + 1, week, next);

    const result = summarizeWeek({
      week,
      finalizedAt: now,
      qualificationParticipants,
      qualificationTop,
      champions,
      pool: estimate,
      split,
      nextWeekEligible: next.size,
    });
    await completeFinalization(tx, result);
    // The week's prize list, plus earlier prizes whose winner has linked a wallet since, as a Merkle tree over the
    // wallets as they stand now; stored once.
    const tree = await prizeTreeOf(tx, week, split.prizes);
    await insertPrizeTree(tx, tree);
    const users = await findDisplayInfo(
      tx,
      result.prizes.map((p) => p.userId),
    );
    const wallets = new Map(result.prizes.map((p) => [p.userId, users.get(p.userId)?.wallet ?? null]));
    // Announced in the transaction that finalizes: exactly once, whichever path finalized.
    await recordDomainEvent(tx, {
      type: "week.finalized",
      payload: presentWeekFinalized(result, wallets, tree.root),
    });
    return { result, alreadyFinalized: false };
  }, REPEATABLE_READ);
}
