/**
 * Entry point: validate config, reach Redis, open the database (migrating it), build the app, listen, start the
 * background jobs, and shut down within SHUTDOWN_TIMEOUT_MS on SIGTERM/SIGINT. `startService` is also what
 * `npm run demo` (scripts/demo.ts) runs, with its demo chain's faucet.
 *
 * A start that cannot succeed (a bad variable, a database that is missing or unreachable, an unreachable Redis,
 * a DATA_DIR held by another process, a port in use) prints one line naming the problem and the fix, and exits 1:
 * no stack trace (startup-problem.ts).
 */
import { pathToFileURL } from "node:url";
import type { Redis } from "ioredis";
import { type AppDeps, buildApp } from "./app.js";
import { startChainJobs } from "./chain/chain-jobs.js";
import type { RunningJobs } from "./chain/job-runner.js";
import { AdjustableClock } from "./clock.js";
import { backfillPrizeTrees } from "./competition/backfill-prize-trees.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { type Database, databaseOptions, openDatabase } from "./db/client.js";
import { openRedis, waitForRedis } from "./http/redis-client.js";
import { closeWithin } from "./http/shutdown.js";
import { startOperationsJobs } from "./jobs/operations-jobs.js";
import { type StartupStep, startupProblem } from "./startup-problem.js";
import { backfillWalletChecksums } from "./users/backfill-wallet-checksums.js";

/** After the budget: the most the database may take to close (a statement still running is abandoned). */
const DATABASE_CLOSE_MS = 1000;

function exitWith(line: string): never {
  console.error(line);
  process.exit(1);
}

/** `work`, or a one-line exit naming what failed at `step`. */
async function step<T>(name: StartupStep, config: Config, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (config.logLevel === "debug" || config.logLevel === "trace") console.error(err);
    return exitWith(`Cannot start: ${startupProblem(name, err, config)}`);
  }
}

/** Resolves when `p` settles or `ms` pass, whichever is first (never rejects). */
function bounded(p: Promise<unknown> | undefined, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    void Promise.resolve(p)
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) exitWith(`Invalid configuration: ${err.message}`);
    throw err;
  }
  await startService(config);
}

/** Reaches Redis, opens the database, builds the app, listens, starts the jobs; resolves with the address. */
export async function startService(
  config: Config,
  extras: {
    demo?: AppDeps["demo"];
    /** Runs on the open database before the app is built (the demo seeds its season here). */
    prepare?: (ctx: { database: Database; config: Config; clock: AdjustableClock }) => Promise<void>;
    onShutdown?: () => Promise<void>;
  } = {},
): Promise<{ address: string }> {
  let redis: Redis | null = null;
  if (config.redisUrl) {
    const url = config.redisUrl;
    redis = await step("redis", config, async () => {
      const r = openRedis(url, config.redisCommandTimeoutMs);
      try {
        await waitForRedis(r);
      } catch (err) {
        r.disconnect();
        throw err;
      }
      return r;
    });
  }
  // After Redis, the cheaper check: a start that fails should fail fast.
  const database: Database = await step("database", config, () => openDatabase(databaseOptions(config)));
  // Before serving: reads of prize trees never write, so the weeks finalized before trees were stored get theirs.
  await step("database", config, () => backfillPrizeTrees(database.db));
  // Ladder reads show stored checksums: users from before the column (or bulk SQL) get theirs.
  await step("database", config, () => backfillWalletChecksums(database.db));
  const clock = new AdjustableClock();
  await extras.prepare?.({ database, config, clock });
  const app = await buildApp({ config, database, clock, redis, demo: extras.demo });
  let chainJobs: RunningJobs | null = null;
  let operationsJobs: RunningJobs | null = null;

  let closing = false;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    const budgetMs = config.shutdownTimeoutMs;
    app.log.info({ signal, budgetMs }, "shutting down");
    // Last resort: whatever hangs, the process is gone shortly after its budget.
    setTimeout(
      () => {
        app.log.error("shutdown outlived its budget: exiting");
        process.exit(1);
      },
      budgetMs + DATABASE_CLOSE_MS + 2000,
    ).unref();
    const [inTime] = await Promise.all([
      closeWithin(app, budgetMs),
      bounded(chainJobs?.stop(), budgetMs),
      bounded(operationsJobs?.stop(), budgetMs),
    ]);
    if (!inTime)
      app.log.warn({ budgetMs }, "requests still in flight at the shutdown budget: connections closed");
    // A statement still running (a request cut at the budget) is abandoned: its transaction never commits, so a
    // finalize stays all or nothing.
    await bounded(database.close(), DATABASE_CLOSE_MS);
    redis?.disconnect();
    await bounded(extras.onShutdown?.(), DATABASE_CLOSE_MS);
    process.exit(exitCode);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  // The embedded database's lock ended without us (its child process killed): another process may now open the
  // DATA_DIR, so this one must stop writing to it.
  database.dataDirLock?.onLost(() => {
    app.log.error("the DATA_DIR lock was lost: shutting down");
    void shutdown("lock lost", 1);
  });

  const address = await step("listen", config, () => app.listen({ port: config.port, host: config.host }));
  // A CLI run beside this server on the same DATA_DIR sends its writes here (cli/remote.ts).
  database.dataDirLock?.advertise(address.replace(/\/\/(0\.0\.0\.0|\[::\])(?=:)/, "//127.0.0.1"));
  chainJobs = startChainJobs({ config, database, clock, log: app.log });
  // Auto-finalize, webhook fan-out and delivery, outbox pruning (jobs/operations-jobs.ts).
  operationsJobs = startOperationsJobs({ config, database, clock, log: app.log });
  app.log.info(`database: ${database.engine}${database.engine === "pglite" ? ` in ${config.dataDir}` : ""}`);
  return { address };
}

// Run only as the entry point (npm start), not when the demo imports startService.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    // Not a known start-up failure: still one line; LOG_LEVEL=debug prints the whole error.
    if (process.env.LOG_LEVEL === "debug" || process.env.LOG_LEVEL === "trace") console.error(err);
    console.error(
      `Cannot start: ${err instanceof Error ? err.message.replace(/[\r\n]+/g, " ") : String(err)}`,
    );
    process.exit(1);
  });
}
