/**
 * The operations' background jobs (SPEC §11), started by the server after it listens and stopped before the
 * database closes, like the chain jobs:
 * - `auto-finalize` (AUTO_FINALIZE, default on): every 10 s, competition/auto-finalize.ts, under its lease.
 * - `webhook-fan-out`: every second, domain events → webhook messages (webhooks/fan-out.ts).
 * - `webhook-delivery`: every second, due messages → their URLs (webhooks/deliver.ts).
 * - `outbox-prune`: hourly, domain events past their retention and finished webhook messages older than 7 days.
 * Each job logs through a child logger carrying `{job}`; a failed run is logged and retried at its next turn.
 */
import { competitionDepsFor } from "../app-deps.js";
import { type PollingJob, type RunningJobs, startJobs } from "../chain/job-runner.js";
import type { Clock } from "../clock.js";
import { AUTO_FINALIZE_JOB, autoFinalizer } from "../competition/auto-finalize.js";
import type { CompetitionDeps } from "../competition/competition-deps.js";
import type { Config } from "../config.js";
import type { Database } from "../db/client.js";
import { LOCK_KEYS, leaderLockFor } from "../db/leader-lock.js";
import { pruneDomainEvents } from "../domain-events/domain-events.js";
import type { OpLog } from "../shared/op-log.js";
import { type DeliveryDeps, deliverDueMessages } from "../webhooks/deliver.js";
import { fanOutDomainEvents } from "../webhooks/fan-out.js";
import { pruneWebhookMessages } from "../webhooks/subscriptions.js";

export interface JobLogger extends OpLog {
  child(bindings: { job: string }): OpLog;
}

export interface OperationsJobsDeps {
  config: Config;
  database: Database;
  clock: Clock;
  log: JobLogger;
  /** Overrides for tests: tick intervals, the finalize retry pause, the delivery settings, the finalize deps. */
  overrides?: {
    finalizeIntervalMs?: number;
    finalizeRetryMs?: number;
    webhookIntervalMs?: number;
    delivery?: Partial<
      Pick<DeliveryDeps, "timeoutMs" | "retryDelaysMs" | "nowSeconds" | "requirePublicHttps">
    >;
    competition?: Partial<CompetitionDeps>;
  };
}

export function startOperationsJobs(deps: OperationsJobsDeps): RunningJobs {
  const { config, database, clock, overrides = {} } = deps;
  const jobs: PollingJob[] = [];
  const lock = leaderLockFor(config.databaseUrl, database, LOCK_KEYS.autoFinalize);
  if (config.autoFinalize) {
    const finalizer = autoFinalizer({
      // The same dependencies as every other path to finalizeWeek, so the same guards (FEES_NOT_INDEXED,
      // BETS_NOT_INDEXED): the job's own list once left out the bet indexer's progress.
      competition: { ...competitionDepsFor(config, database, clock), ...overrides.competition },
      lock,
      graceSeconds: config.finalizeGraceSeconds,
      log: deps.log.child({ job: AUTO_FINALIZE_JOB }),
      retryMs: overrides.finalizeRetryMs,
    });
    jobs.push({
      name: AUTO_FINALIZE_JOB,
      intervalMs: overrides.finalizeIntervalMs ?? 10_000,
      run: finalizer.tick,
    });
  }
  const webhookMs = overrides.webhookIntervalMs ?? 1000;
  jobs.push({ name: "webhook-fan-out", intervalMs: webhookMs, run: () => fanOutDomainEvents(database.db) });
  const delivery: DeliveryDeps = {
    db: database.db,
    log: deps.log.child({ job: "webhook-delivery" }),
    requirePublicHttps: config.env === "production",
    ...overrides.delivery,
  };
  jobs.push({ name: "webhook-delivery", intervalMs: webhookMs, run: () => deliverDueMessages(delivery) });
  jobs.push({
    name: "outbox-prune",
    intervalMs: 3600_000,
    run: async () => {
      const now = new Date();
      await pruneDomainEvents(database.db, now);
      await pruneWebhookMessages({ db: database.db }, now);
    },
  });
  const running = startJobs(jobs, deps.log);
  return {
    async stop() {
      await running.stop();
      await lock.release();
    },
  };
}
