/**
 * The use cases' dependencies built from the configuration, in one place for every caller: the HTTP app, the
 * CLI and the background jobs. So every path to a use case — finalize above all — runs with the same guards
 * (FEES_NOT_INDEXED, BETS_NOT_INDEXED) whoever calls it.
 */
import { betProgress, feeProgress, prizeDistributorOf } from "./chain/chain-deps.js";
import type { Clock } from "./clock.js";
import type { CompetitionDeps } from "./competition/competition-deps.js";
import type { RankCache } from "./competition/rank-cache/rank-cache.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";

export function competitionDepsFor(
  config: Config,
  database: Database,
  clock: Clock,
  cache: RankCache | null = null,
): CompetitionDeps {
  return {
    db: database.db,
    bulkDb: database.bulkDb,
    clock,
    season: { seasonStart: config.seasonStart, weekOneStart: config.weekOneStart },
    incentiveMicro: config.protocolIncentiveMicro,
    cache,
    feesIndexedThrough: feeProgress(config, database.db),
    betsIndexedThrough: betProgress(config, database.db),
    prizeDistributor: prizeDistributorOf(config),
  };
}
