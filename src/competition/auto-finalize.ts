/**
 * The week finalizes itself (SPEC §11, AUTO_FINALIZE): a background job that, on the instance holding the
 * auto-finalize lease, finalizes the oldest unfinalized week once it has ended plus FINALIZE_GRACE_SECONDS,
 * through `finalizeWeek`, the use case of every other path (same guards, same idempotence).
 *
 * Contract of one tick (`tick()`, run every `intervalMs`, 10 s by default, by the job runner):
 * - Not the lease holder (another instance runs it): nothing. The lease is a PostgreSQL advisory lock held by a
 *   dedicated connection (freed when the instance dies), in-process on PGlite (db/leader-lock.ts).
 * - Waiting out a failure: nothing until `retryMs` (one minute) has passed on the clock since it.
 * - Otherwise, while the oldest unfinalized week W has ended plus the grace on the app's clock (the test clock
 *   under TEST_CLOCK=1): finalize W, then look at W+1 (catching up after a downtime, at most 52 weeks a tick).
 * - WEEK_NOT_ENDED, FEES_NOT_INDEXED, BETS_NOT_INDEXED mean "not ready yet": look again next tick, no failure.
 * - Any other error is a failure: logged with the job name, counted in `app_finalize_failures_total`, retried
 *   after `retryMs`.
 */
import type { LeaderLock } from "../db/leader-lock.js";
import { AppError } from "../errors.js";
import { finalizeFailuresTotal } from "../metrics/app-metrics.js";
import type { OpLog } from "../shared/op-log.js";
import { weekBounds } from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { finalizeWeek } from "./finalize-week.js";
import { newestFinalizedWeek } from "./snapshot.repository.js";

/** Codes that mean the week cannot be finalized yet, not that finalizing failed. */
const NOT_READY: ReadonlySet<string> = new Set(["WEEK_NOT_ENDED", "FEES_NOT_INDEXED", "BETS_NOT_INDEXED"]);

export const AUTO_FINALIZE_JOB = "auto-finalize";
const MAX_WEEKS_PER_TICK = 52;

export interface AutoFinalizeDeps {
  competition: CompetitionDeps;
  lock: LeaderLock;
  graceSeconds: number;
  log: OpLog;
  /** Pause after a failure before the next attempt; default one minute. */
  retryMs?: number;
}

export type TickResult =
  | { status: "not-leader" | "backing-off" }
  | { status: "waiting"; week: number; dueAt: Date }
  | { status: "not-ready"; week: number; code: string }
  | { status: "failed"; week: number }
  | { status: "idle"; finalized: number[] };

/** The newest finalized week, or null before any (for metrics). */
export function lastFinalizedWeek(deps: Pick<CompetitionDeps, "db">): Promise<number | null> {
  return newestFinalizedWeek(deps.db);
}

export function autoFinalizer(deps: AutoFinalizeDeps): { tick(): Promise<TickResult> } {
  const retryMs = deps.retryMs ?? 60_000;
  const { competition } = deps;
  let retryAt: number | null = null;
  return {
    async tick() {
      if (!(await deps.lock.acquire())) return { status: "not-leader" };
      if (retryAt !== null && competition.clock.now().getTime() < retryAt) return { status: "backing-off" };
      retryAt = null;
      const finalized: number[] = [];
      for (let i = 0; i < MAX_WEEKS_PER_TICK; i++) {
        const last = await newestFinalizedWeek(competition.db);
        const week = last === null ? 0 : last + 1;
        const dueAt = new Date(weekBounds(competition.season, week).end.getTime() + deps.graceSeconds * 1000);
        if (competition.clock.now().getTime() < dueAt.getTime()) {
          return finalized.length > 0 ? { status: "idle", finalized } : { status: "waiting", week, dueAt };
        }
        try {
          await finalizeWeek({ ...competition, log: deps.log }, { week });
          finalized.push(week);
        } catch (err) {
          if (err instanceof AppError && NOT_READY.has(err.code)) {
            return { status: "not-ready", week, code: err.code };
          }
          finalizeFailuresTotal.inc();
          retryAt = competition.clock.now().getTime() + retryMs;
          deps.log.error(
            { job: AUTO_FINALIZE_JOB, week, err, retryInSeconds: retryMs / 1000 },
            "automatic finalize failed; retrying",
          );
          return { status: "failed", week };
        }
      }
      return { status: "idle", finalized };
    },
  };
}
