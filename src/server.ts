/** Entry point: validate config, open the database (migrating it), build the app, listen, shut down gracefully. */
import { buildApp } from "./app.js";
import { startChainJobs } from "./chain/chain-jobs.js";
import type { RunningJobs } from "./chain/job-runner.js";
import { AdjustableClock } from "./clock.js";
import { ConfigError, loadConfig } from "./config.js";
import { databaseOptions, openDatabase } from "./db/client.js";
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
  const app = await buildApp({ config, database, clock, redis });
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
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
