/**
 * What the competition use cases run with; the app, the CLI and the background jobs build it from the
 * configuration in one place (src/app-deps.ts), so every path to finalize has the same guards.
 */
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import type { OpLog } from "../shared/op-log.js";
import type { Season } from "../shared/season.js";
import type { RankCache } from "./rank-cache/rank-cache.js";

export interface CompetitionDeps {
  db: Db;
  /** Where finalize runs its transaction (long statements at scale: Database.bulkDb); absent: `db`. */
  bulkDb?: Db;
  clock: Clock;
  season: Season;
  /** PROTOCOL_INCENTIVE_USDC in micro-USDC: the weekly subsidy added to the pool. */
  incentiveMicro: bigint;
  /** In-memory ranks of live weeks (RANK_CACHE=on); null or absent reads every rank from SQL. */
  cache?: RankCache | null;
  /** With the fee indexer on: the time up to which chain fees are recorded (null: none yet). Finalize waits on it. */
  feesIndexedThrough?: (() => Promise<Date | null>) | null;
  /** With the bet indexer on: the time up to which chain bets are recorded (null: none yet). Finalize waits on it. */
  betsIndexedThrough?: (() => Promise<Date | null>) | null;
  /** The prize distributor whose PrizeClaimed logs say a prize is claimed; null or absent: none configured. */
  prizeDistributor?: { chainId: number; contract: string } | null;
  /** Where finalize writes its one outcome line; absent: nowhere (CLI, tests). */
  log?: OpLog;
}
