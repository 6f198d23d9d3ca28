/**
 * A player's profile statistics: SP totals by type, prediction counts, win rate and streaks, credits, USDC
 * staked and won, all-time rank, and this week's competitive SP and ladder ranks (from the competition use case).
 */
import type { CompetitionDeps } from "../competition/competition-deps.js";
import { getMyStatus } from "../competition/get-my-status.js";
import { getAllTimeRow } from "../leaderboard/all-time.js";
import { creditsBalance } from "../ledger/credits.js";
import { spByType } from "../ledger/ledger.js";
import { predictionCounts, settledResults, usdcTotals } from "../predictions/predictions.js";
import { SP_TYPES } from "../shared/sp-types.js";
import type { UserRow } from "../users/users.js";
import { winRate, winStreaks } from "./stats-rules.js";

export async function getProfileStats(deps: CompetitionDeps, user: UserRow) {
  const [byType, counts, results, usdc, balance, allTime, week] = await Promise.all([
    spByType(deps.db, user.id),
    predictionCounts(deps.db, user.id),
    settledResults(deps.db, user.id),
    usdcTotals(deps.db, user.id),
    creditsBalance(deps.db, user.id),
    getAllTimeRow(deps, user.id),
    getMyStatus(deps, { userId: String(user.id) }),
  ]);
  const n = (s: string) => counts.get(s) ?? 0;
  const won = n("won");
  const lost = n("lost");
  // "Pending" is everything not yet settled: reported-but-unconfirmed v2 bets and open bets.
  const pending = n("pending") + n("open");
  const voided = n("void");
  const streaks = winStreaks(results);
  return {
    user,
    totalSp: allTime.totalSp,
    spByType: Object.fromEntries(SP_TYPES.map((t) => [t, byType.get(t) ?? 0])),
    predictions: { total: won + lost + pending + voided, won, lost, pending, void: voided },
    winRate: winRate(won, lost),
    currentStreak: streaks.current,
    bestStreak: streaks.best,
    creditsBalance: balance,
    usdcStakedMicro: usdc.stakedMicro,
    usdcWonMicro: usdc.wonMicro,
    allTimeRank: allTime.rank,
    week: {
      week: week.week,
      competitiveSp: week.qualification.competitiveSp,
      qualificationRank: week.qualification.rank,
      championsRank: week.champions.rank,
    },
  };
}
