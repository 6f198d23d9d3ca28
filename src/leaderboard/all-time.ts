/**
 * The general (all-time) leaderboard: every SP type counts (referral and non-event included). Standard
 * competition ranking over users with SP > 0, ordered by SP descending then user id.
 */
import { competitionRank, pageRanks } from "../competition/ranking.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { countUsersAbove, type TotalRow, totalRowOf, totalsPage } from "./leaderboard.repository.js";

export type RankedTotal = TotalRow & { rank: number | null };

export async function getAllTimePage(
  deps: { db: Db },
  input: { offset: number; limit: number },
): Promise<{ total: number; rows: RankedTotal[] }> {
  const [page, total] = await Promise.all([
    totalsPage(deps.db, input.offset, input.limit),
    countUsersAbove(deps.db, 0),
  ]);
  const firstRank =
    page.length > 0 ? competitionRank(await countUsersAbove(deps.db, page[0]!.totalSp)) : competitionRank(0);
  const ranks = pageRanks(
    page.map((r) => r.totalSp),
    input.offset,
    firstRank,
  );
  return { total, rows: page.map((r, i) => ({ ...r, rank: ranks[i]! })) };
}

/** One user's all-time row; rank null at 0 SP or below. */
export async function getAllTimeRow(deps: { db: Db }, userId: bigint): Promise<RankedTotal> {
  const row = await totalRowOf(deps.db, userId);
  if (!row) throw new AppError("NOT_FOUND", `User ${userId} not found`);
  const rank = row.totalSp > 0 ? competitionRank(await countUsersAbove(deps.db, row.totalSp)) : null;
  return { ...row, rank };
}
