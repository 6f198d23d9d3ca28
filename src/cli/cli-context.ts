/**
 * What every CLI command runs with: the database, the configuration and a clock. `main.ts` wires the real
 * ones; tests pass a test database, a test configuration and a pinned clock.
 */
import { competitionDepsFor } from "../app-deps.js";
import type { Clock } from "../clock.js";
import type { Season } from "../competition/calendar.js";
import type { CompetitionDeps } from "../competition/competition-deps.js";
import type { Config } from "../config.js";
import type { Database, Db } from "../db/client.js";

export interface CliContext {
  database: Database;
  config: Config;
  clock: Clock;
}

export function seasonOf(config: Config): Season {
  return { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart };
}

/** The competition use cases' dependencies, built exactly as the app builds them (the same finalize guards). */
export function competitionDeps(ctx: CliContext): CompetitionDeps {
  return competitionDepsFor(ctx.config, ctx.database, ctx.clock);
}

/**
 * Runs `work` inside one database transaction, handing it a `Db` on which every use case's own
 * `db.transaction(…)` becomes a savepoint. Many use-case calls then commit once (much faster on PGlite), and a
 * failure anywhere rolls all of them back.
 */
export function inOneTransaction<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  // A transaction is itself a Db: its nested `transaction` opens a savepoint instead of a new transaction.
  return db.transaction((tx) => work(tx));
}
