/** The competition's meta (SPEC §8): the current week, its countdown and the week rail with each week's status. */
import {
  currentWeek,
  isChampionsEnabled,
  secondsUntil,
  weekBounds,
  weekIndexAt,
  weekRail,
} from "../shared/season.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { Standings } from "./standings.js";

export async function getMeta(deps: CompetitionDeps) {
  const standings = await Standings.open(deps);
  const now = deps.clock.now();
  const week = currentWeek(deps.season, now);
  const bounds = weekBounds(deps.season, week);
  return {
    now,
    currentWeek: week,
    seasonStarted: weekIndexAt(deps.season, now) !== null,
    championsEnabled: isChampionsEnabled(week),
    countdown: { endsAt: bounds.end, secondsRemaining: secondsUntil(bounds.end, now) },
    weeks: weekRail(deps.season, now, (w) => standings.isFinalized(w)),
  };
}

export type Meta = Awaited<ReturnType<typeof getMeta>>;
