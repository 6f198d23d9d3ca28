/**
 * One page of a week's Qualification or Champions ladder (SPEC §8, default: the current week). A finalized week
 * is served from its snapshot; any other week live and provisional, Champions rows of rank ≤ 5 with the prize
 * projected from the week's pool as it stands.
 */

import { currentWeek, isChampionsEnabled } from "../shared/season.js";
import { displayExtent, displayRowsInPages, findLadderDisplay } from "../users/users.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { projectedPrizeFor, splitPrizes } from "./prizes.js";
import type { DisplaySource, PageDisplay } from "./rank-cache/display-cache.js";
import {
  CUTOFFS,
  competitionRank,
  cutoffSp,
  type Ladder,
  PAID_RANKS,
  pageRanks,
  type RankedEntry,
  withinCutoff,
} from "./ranking.js";
import { Standings } from "./standings.js";
import { weekPool } from "./week-pool.js";

export interface LadderRow {
  rank: number;
  userId: string;
  displayName: string;
  /** EIP-55 checksummed. */
  wallet: string | null;
  competitiveSp: number;
  withinCutoff: boolean;
  prizeMicro: bigint | null;
}

/** A page without its rows. */
export interface LadderFrame {
  week: number;
  type: Ladder;
  championsEnabled: boolean;
  provisional: boolean;
  total: number;
  offset: number;
  limit: number;
  cutoffRank: number;
  cutoffSp: number | null;
}

export interface LadderPage extends LadderFrame {
  rows: LadderRow[];
}

/**
 * A live Qualification page read from the rank cache: its ranked entries and where each one's display data is
 * (the display store's bytes, or an entry), for a body written straight from them (ladder-json.ts) rather than
 * through row objects and the response schema's serializer.
 */
export interface LiveLadderPage extends LadderFrame {
  live: { entries: RankedEntry[]; display: PageDisplay };
}

type PageFrame = Omit<LadderFrame, "total" | "cutoffSp">;

export async function getLadderPage(
  deps: CompetitionDeps,
  input: { week?: number; type: Ladder; offset: number; limit: number },
): Promise<LadderPage | LiveLadderPage> {
  const standings = await Standings.open(deps);
  const now = deps.clock.now();
  const week = input.week ?? currentWeek(deps.season, now);
  const { type, offset, limit } = input;
  const frame: PageFrame = {
    week,
    type,
    championsEnabled: isChampionsEnabled(week),
    provisional: !standings.isFinalized(week),
    offset,
    limit,
    cutoffRank: CUTOFFS[type],
  };
  if (type === "champions" && !isChampionsEnabled(week)) {
    return { ...frame, total: 0, cutoffSp: null, rows: [] };
  }
  if (standings.isFinalized(week)) return finalizedPage(standings, frame);
  return type === "qualification"
    ? // The same page for every request served after the same cache sync (it depends on ranks and profiles only).
      standings.shared(`qualification-page:${week}:${offset}:${limit}`, () =>
        liveQualificationPage(deps, standings, frame),
      )
    : liveChampionsPage(deps, standings, frame, now);
}

async function finalizedPage(standings: Standings, frame: PageFrame): Promise<LadderPage> {
  const { week, type, offset, limit } = frame;
  const [result, page] = await Promise.all([
    standings.weekResult(week),
    standings.snapshotPage(week, type, offset, limit),
  ]);
  const part = type === "qualification" ? result.qualification : result.champions;
  return {
    ...frame,
    total: part.participants,
    cutoffSp: part.cutoffSp,
    rows: page.map((r) => ({
      rank: r.rank,
      userId: r.userId,
      displayName: r.displayName,
      wallet: r.wallet,
      competitiveSp: r.sp,
      withinCutoff: r.withinCutoff,
      prizeMicro: r.prizeMicro,
    })),
  };
}

async function liveQualificationPage(
  deps: CompetitionDeps,
  standings: Standings,
  frame: PageFrame,
): Promise<LadderPage | LiveLadderPage> {
  const { week, offset, limit, cutoffRank } = frame;
  const ladder = await standings.liveLadder(week);
  const [page, total, line] = await Promise.all([
    ladder.page(offset, limit),
    ladder.total(),
    ladder.spAtPosition(cutoffRank),
  ]);
  const firstRank = page.length > 0 ? competitionRank(await ladder.countAbove(page[0]!.sp)) : 1;
  const ranks = pageRanks(
    page.map((r) => r.sp),
    offset,
    firstRank,
  );
  const entries = page.map((r, i) => ({ userId: r.userId, sp: r.sp, rank: ranks[i]! }));
  if (deps.cache) {
    const display = await deps.cache.pageDisplay(
      entries.map((e) => e.userId),
      displaySource(deps),
    );
    return { ...frame, total, cutoffSp: line, live: { entries, display } };
  }
  return { ...frame, total, cutoffSp: line, rows: await ladderRows(deps, entries, cutoffRank, () => null) };
}

async function liveChampionsPage(
  deps: CompetitionDeps,
  standings: Standings,
  frame: PageFrame,
  now: Date,
): Promise<LadderPage> {
  const { week, offset, limit, cutoffRank } = frame;
  const ladder = await standings.championsLadder(week);
  const { estimate } = await weekPool(deps, deps.db, week, now);
  const { prizes } = splitPrizes(ladder, estimate.estimatedMicro);
  const rows = await ladderRows(deps, ladder.slice(offset, offset + limit), cutoffRank, (e) =>
    e.rank <= PAID_RANKS ? projectedPrizeFor(prizes, e.userId) : null,
  );
  return { ...frame, total: ladder.length, cutoffSp: cutoffSp(ladder, cutoffRank), rows };
}

/** Ladder rows of ranked entries: display data, the cutoff flag, the prize when paid. */
async function ladderRows(
  deps: CompetitionDeps,
  entries: RankedEntry[],
  cutoffRank: number,
  prizeOf: (e: RankedEntry) => bigint | null,
): Promise<LadderRow[]> {
  const users = await displayInfo(
    deps,
    entries.map((e) => e.userId),
  );
  return entries.map((e) => {
    const u = users.get(e.userId)!;
    return {
      rank: e.rank,
      userId: e.userId,
      displayName: u.displayName,
      wallet: u.wallet,
      competitiveSp: e.sp,
      withinCutoff: withinCutoff(e.rank, cutoffRank),
      prizeMicro: prizeOf(e),
    };
  });
}

/**
 * Display data (name, checksummed wallet as stored) of ladder users: from the rank cache's memory when it is on
 * (a store of every user, loaded once), else one query.
 */
function displayInfo(deps: CompetitionDeps, userIds: string[]) {
  if (!deps.cache) return findLadderDisplay(deps.db, userIds);
  return deps.cache.displayOf(userIds, displaySource(deps));
}

/** The users capability's queries the display cache loads from. */
function displaySource(deps: CompetitionDeps): DisplaySource {
  return {
    of: (ids) => findLadderDisplay(deps.db, ids),
    inPages: (fromPage, toPage) => displayRowsInPages(deps.db, fromPage, toPage),
    extent: () => displayExtent(deps.db),
  };
}
