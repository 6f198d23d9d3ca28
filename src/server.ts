/**
 * Entry point: validate config, open the database (migrating it), build the app, listen, shut down gracefully.
 * `startService` is also what `npm run demo` (src/demo/demo.ts) runs, with its demo chain's faucet.
 */
import { pathToFileURL } from "node:url";
import { type AppDeps, buildApp } from "./app.js";
import { startChainJobs } from "./chain/chain-jobs.js";
import type { RunningJobs } from "./chain/job-runner.js";
import { AdjustableClock } from "./clock.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { type Database, databaseOptions, openDatabase } from "./db/client.js";
import { DataDirLockedError } from "./db/data-dir-lock.js";
import { openRedis } from "./http/redis-client.js";
import { startOperationsJobs } from "./jobs/operations-jobs.js";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Invalid configuration: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  await startService(config);
}

/** Opens the database, builds the app, listens, starts the chain jobs; resolves with the address listened on. */
export async function startService(
  config: Config,
  extras: {
    demo?: AppDeps["demo"];
    /** Runs on the open database before the app is built (the demo seeds its season here). */
    prepare?: (ctx: { database: Database; config: Config; clock: AdjustableClock }) => Promise<void>;
    onShutdown?: () => Promise<void>;
  } = {},
): Promise<{ address: string }> {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(databaseOptions(config));
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`Cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const redis = config.redisUrl ? openRedis(config.redisUrl, config.redisCommandTimeoutMs) : null;
  const clock = new AdjustableClock();
  await extras.prepare?.({ database, config, clock });
  const app = await buildApp({ config, database, clock, redis, demo: extras.demo });
  let chainJobs: RunningJobs | null = null;
  let operationsJobs: RunningJobs | null = null;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    await chainJobs?.stop();
    await operationsJobs?.stop();
    await app.close();
    await database.close();
    redis?.disconnect();
    await extras.onShutdown?.();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  const address = await app.listen({ port: config.port, host: config.host });
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
    console.error(err);
    process.exit(1);
  });
}
