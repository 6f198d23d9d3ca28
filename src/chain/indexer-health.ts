/**
 * How far behind each chain indexer is, as every instance can tell (metrics, /readyz): the instance that indexes
 * stores what it saw after each run (`recordIndexerCheck`), every instance reads it (`indexerLags`).
 *
 * - lag in blocks: final blocks not yet indexed when last checked, `max(0, finalHead + 1 − nextBlock)`.
 * - lag in seconds: now − the instant up to which the index is known complete: the time of the last check when it
 *   found the indexer caught up, else the time of the newest block it has stored. A stalled indexer (node down,
 *   job failing) stops checking, so its lag grows with the wall clock; one catching up shows how old its newest
 *   block is. Null when unknown (never checked, or behind with nothing stored yet).
 */
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { Queryable } from "../db/client.js";
import { findIndexerChecks, upsertIndexerCheck } from "./chain.repository.js";
import type { IndexRun } from "./log-indexer.js";

export const INDEXER_NAMES = ["bets", "payouts", "fees", "prize-claims"] as const;
export type IndexerName = (typeof INDEXER_NAMES)[number];

export interface IndexerLag {
  indexer: IndexerName;
  lagBlocks: number | null;
  lagSeconds: number | null;
  checkedAt: Date | null;
}

/** The indexers this configuration runs. */
export function configuredIndexers(config: Config): IndexerName[] {
  const names: IndexerName[] = [];
  if (config.chain?.rpcUrl && config.betIndexer && config.chain.contract) names.push("bets");
  if (config.chain?.rpcUrl && config.betIndexer && config.chain.contract && config.payouts)
    names.push("payouts");
  if (config.chain?.rpcUrl && config.feeIndexer) names.push("fees");
  if (config.chain?.rpcUrl && config.prizeDistributor) names.push("prize-claims");
  return names;
}

/**
 * Stores what a run saw; a run that did not index stores nothing: another instance leads, or the node is behind
 * what was already read (its head says nothing of our progress; the last check's lag keeps growing meanwhile).
 */
export async function recordIndexerCheck(
  q: Queryable,
  indexer: IndexerName,
  run: IndexRun,
  now: Date,
): Promise<void> {
  if (run.status === "not-leader" || run.status === "node-behind") return;
  await upsertIndexerCheck(q, {
    indexer,
    cursor: run.cursor,
    finalHead: run.head,
    nextBlock: run.nextBlock,
    checkedAt: now,
  });
}

/** The lag of each of `indexers`, in that order. */
export async function indexerLags(
  deps: { db: Queryable; clock: Clock },
  indexers: readonly IndexerName[],
): Promise<IndexerLag[]> {
  if (indexers.length === 0) return [];
  const checks = new Map((await findIndexerChecks(deps.db)).map((c) => [c.indexer, c]));
  const now = deps.clock.now().getTime();
  return indexers.map((indexer) => {
    const c = checks.get(indexer);
    if (!c) return { indexer, lagBlocks: null, lagSeconds: null, checkedAt: null };
    const behind = c.finalHead === null || c.nextBlock === null ? 0n : c.finalHead + 1n - c.nextBlock;
    const lagBlocks = behind > 0n ? Number(behind) : 0;
    const completeThrough = lagBlocks === 0 ? c.checkedAt : c.indexedThrough;
    return {
      indexer,
      lagBlocks,
      lagSeconds: completeThrough ? Math.max(0, Math.round((now - completeThrough.getTime()) / 1000)) : null,
      checkedAt: c.checkedAt,
    };
  });
}
