/**
 * The demo season as data: fixtures for every competition week from the opening week to the week after the
 * current one, wallet players, their picks, the SP ledger rows the won picks earn, protocol fees and the weeks to
 * finalize. `seed-demo.ts` writes it through the use cases.
 *
 * Contract:
 * - Pure and deterministic: the same options give the same season (seeded PRNG, no clock read, no I/O).
 * - `now` only decides what has happened yet: an event's status and result, which won picks have earned SP,
 *   which fees have occurred and which weeks have ended. Fixtures, odds, players, picks and results themselves
 *   are fixed by the seed, so a later run adds the rows that became due and never a different version of one.
 * - Every identifier is stable: event ids, ledger `externalId`s and fee transaction hashes derive from the seed,
 *   which is what makes re-running the seed idempotent.
 * - Player i's wallet is the address of private key keccak256("sp-demo|<seed>|player|<i>") (a demo key, never a
 *   real wallet); its draws come from its own stream, so `players` changes nobody else's data.
 * - SP follows the ledger rules: a won credit pick earns floor(stake × odds) (WARMUP_PREDICTION on warm-up
 *   events, PREDICTION otherwise), a won USDC pick floor(stakeUsdc × SP_PER_USDC × odds) as ONCHAIN_SP; lost,
 *   void and unsettled picks earn nothing. Picks are drawn for the last `SP_HISTORY_WEEKS` weeks before the
 *   current one onwards, which bounds the seed's work on a long-running season.
 * - Weekly SP is long-tailed (70 % casual players, 25 % regulars, 5 % whales, a few on-chain) and tied in
 *   places: players who copy the same tip sheet end the week on the same SP.
 */
import { keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { currentWeek, type Season, weekBounds, weekIndexAt } from "../competition/calendar.js";
import type { SpType } from "../competition/competitive-sp.js";
import type { EventUpsertInput } from "../events/schema.js";
import { formatUsdc, mulOddsFloor, parseOddsMilli } from "../shared/money.js";
import { DEMO_LEAGUES, type DemoLeague } from "./demo-leagues.js";
import {
  hash32,
  intBetween,
  longTailCount,
  pickOne,
  pickWeighted,
  type Rng,
  shuffled,
  streamFor,
} from "./prng.js";

export interface DemoOptions {
  seed: string;
  players: number;
  season: Season;
  now: Date;
  spPerUsdc: number;
  referralRewardSp: number;
}

/** How many weeks before the current one receive picks (older weeks keep their fixtures and fees). */
export const SP_HISTORY_WEEKS = 8;
/** Share of played fixtures that end up cancelled (void). */
const CANCEL_RATE = 0.03;
/** Bookmaker margin built into the demo odds. */
const MARGIN = 1.05;
const DAY_MS = 24 * 3600 * 1000;

export type DemoResult = { status: "finished"; winningOutcome: string } | { status: "cancelled" };

export interface DemoEvent {
  id: string;
  week: number;
  /** The body of PUT /api/admin/events/:id, with the status as of `now`. */
  body: EventUpsertInput;
  /** The result, fixed by the seed; null while the fixture has not been decided at `now`. */
  result: DemoResult | null;
}

export type PlayerTier = "casual" | "regular" | "whale";

export interface DemoPlayer {
  index: number;
  /** Checksummed address of `privateKey`. */
  wallet: `0x${string}`;
  /** A demo key derived from the seed (for signing in as the player); never a real wallet. */
  privateKey: `0x${string}`;
  tier: PlayerTier;
  /** Plays partly with USDC on-chain (those wins arrive as ONCHAIN_SP). */
  onchain: boolean;
  /** First competition week the player plays. */
  joinWeek: number;
}

export type DemoStake = { kind: "credits"; credits: number } | { kind: "usdc"; usdc: number };

export interface DemoPick {
  /** Stable key of the pick: `<eventId>:p<player>:<n>`. */
  key: string;
  player: number;
  wallet: `0x${string}`;
  week: number;
  eventId: string;
  kickoffAt: string;
  market: string;
  outcome: string;
  odds: number;
  stake: DemoStake;
}

export interface DemoSpRow {
  wallet: `0x${string}`;
  type: SpType;
  amount: number;
  eventId?: string;
  externalId: string;
}

export interface DemoFee {
  txHash: `0x${string}`;
  logIndex: number;
  amountUsdc: string;
  occurredAt: string;
}

export interface DemoSeason {
  /** Short hash of the seed, part of every id. */
  tag: string;
  currentWeek: number;
  /** 0 .. currentWeek + 1. */
  weeks: number[];
  events: DemoEvent[];
  players: DemoPlayer[];
  picks: DemoPick[];
  /** Won picks on finished events, then the referral rewards. */
  spRows: DemoSpRow[];
  /** Fees that have occurred by `now`, in week order. */
  fees: DemoFee[];
  /** Weeks that have ended by `now`, ascending (finalize them in this order). */
  finalizeWeeks: number[];
}

/** Short hex tag of a seed, used in event ids and external ids. */
export function seedTag(seed: string): string {
  return hash32(`sp-demo|${seed}`).toString(16).padStart(8, "0");
}

/** The demo key and wallet of player `index`. */
export function demoWallet(
  seed: string,
  index: number,
): { privateKey: `0x${string}`; wallet: `0x${string}` } {
  const privateKey = keccak256(toHex(`sp-demo|${seed}|player|${index}`));
  return { privateKey, wallet: privateKeyToAccount(privateKey).address };
}

/** Kick-off instants of `league` inside [start, end): its weekdays × its times, in UTC. */
export function kickoffSlots(league: DemoLeague, start: Date, end: Date): Date[] {
  const slots: Date[] = [];
  const firstDay = Math.floor(start.getTime() / DAY_MS) * DAY_MS;
  for (let day = firstDay; day < end.getTime(); day += DAY_MS) {
    if (!league.days.includes(new Date(day).getUTCDay())) continue;
    for (const time of league.times) {
      const [h, m] = time.split(":").map(Number) as [number, number];
      const at = day + (h * 60 + m) * 60_000;
      if (at >= start.getTime() && at < end.getTime()) slots.push(new Date(at));
    }
  }
  return slots;
}

/** Decimal odds with 2 decimals from a probability, after the margin; never below 1.03. */
export function oddsFromProbability(p: number): number {
  return Math.max(1.03, Math.round(100 / (p * MARGIN)) / 100);
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/** Team strength in [0, 1] from its place in the league's list (strongest first). */
function rating(league: DemoLeague, team: string): number {
  const i = league.teams.indexOf(team);
  return 1 - i / Math.max(1, league.teams.length - 1);
}

/** True outcome probabilities of a fixture, in market order (home, [draw,] away). */
function outcomeProbabilities(league: DemoLeague, home: string, away: string, form: number): number[] {
  const d = rating(league, home) - rating(league, away) + 0.06 + form;
  if (league.market === "two-way") {
    const pHome = clamp(0.55 + 0.45 * d, 0.1, 0.9);
    return [pHome, 1 - pHome];
  }
  const pHome = clamp(0.45 + 0.4 * d, 0.1, 0.8);
  const pDraw = clamp(0.27 - 0.12 * Math.abs(d), 0.14, 0.3);
  const pAway = Math.max(0.06, 1 - pHome - pDraw);
  const total = pHome + pDraw + pAway;
  return [pHome / total, pDraw / total, pAway / total];
}

interface Fixture {
  event: DemoEvent;
  /** True probabilities, used for the players' choices. */
  probabilities: number[];
}

function fixturesOfWeek(opts: DemoOptions, tag: string, week: number): Fixture[] {
  const bounds = weekBounds(opts.season, week);
  const fixtures: Fixture[] = [];
  for (const league of DEMO_LEAGUES) {
    if (league.warmupWeeks && !league.warmupWeeks.includes(week)) continue;
    const rng = streamFor(opts.seed, "fixtures", week, league.key);
    const slots = shuffled(rng, kickoffSlots(league, bounds.start, bounds.end));
    const teams = shuffled(rng, league.teams);
    const count = Math.min(league.perWeek, slots.length, Math.floor(teams.length / 2));
    const kickoffs = slots.slice(0, count).sort((a, b) => a.getTime() - b.getTime());
    kickoffs.forEach((kickoff, n) => {
      const home = teams[2 * n]!;
      const away = teams[2 * n + 1]!;
      const id = `demo-${tag}-w${String(week).padStart(2, "0")}-${league.key}-${n + 1}`;
      fixtures.push(buildFixture(opts, league, { id, week, kickoff, home, away }));
    });
  }
  return fixtures.sort(
    (a, b) =>
      Date.parse(a.event.body.kickoffAt) - Date.parse(b.event.body.kickoffAt) ||
      a.event.id.localeCompare(b.event.id),
  );
}

function buildFixture(
  opts: DemoOptions,
  league: DemoLeague,
  f: { id: string; week: number; kickoff: Date; home: string; away: string },
): Fixture {
  const rng = streamFor(opts.seed, "event", f.id);
  // Every draw happens whatever `now` is, so the result never depends on when the seed runs.
  const form = (rng() - 0.5) * 0.16;
  const probabilities = outcomeProbabilities(league, f.home, f.away, form);
  const winner = pickWeighted(rng, probabilities);
  const cancelled = rng() < CANCEL_RATE;

  const outcomes =
    league.market === "two-way"
      ? [
          { key: "home", label: f.home },
          { key: "away", label: f.away },
        ]
      : [
          { key: "home", label: f.home },
          { key: "draw", label: "Draw" },
          { key: "away", label: f.away },
        ];
  const market = {
    key: league.market === "two-way" ? "moneyline" : "match_result",
    outcomes: outcomes.map((o, i) => ({ ...o, odds: oddsFromProbability(probabilities[i]!) })),
  };

  const now = opts.now.getTime();
  const start = f.kickoff.getTime();
  let status: NonNullable<EventUpsertInput["status"]> = "scheduled";
  let result: DemoResult | null = null;
  if (now >= start && cancelled) {
    status = "cancelled";
    result = { status: "cancelled" };
  } else if (now >= start + league.durationMinutes * 60_000) {
    status = "finished";
    result = { status: "finished", winningOutcome: outcomes[winner]!.key };
  } else if (now >= start) {
    status = "live";
  }
  const body: EventUpsertInput = {
    sport: league.sport,
    league: league.league,
    homeTeam: f.home,
    awayTeam: f.away,
    kickoffAt: f.kickoff.toISOString(),
    status,
    markets: [market],
  };
  if (league.warmupWeeks) body.warmup = true;
  return { event: { id: f.id, week: f.week, body, result }, probabilities };
}

const TIERS: Record<
  PlayerTier,
  { activity: number; basePicks: number; extraPicks: number; credits: number[]; usdc: number[] }
> = {
  casual: {
    activity: 0.55,
    basePicks: 1,
    extraPicks: 1.5,
    credits: [10, 25, 50, 100, 100, 100, 200],
    usdc: [1, 2, 5],
  },
  regular: {
    activity: 0.85,
    basePicks: 3,
    extraPicks: 3,
    credits: [50, 100, 200, 250, 300, 500],
    usdc: [2, 5, 10, 20],
  },
  whale: {
    activity: 0.95,
    basePicks: 6,
    extraPicks: 6,
    credits: [300, 500, 500, 750, 1000],
    usdc: [10, 25, 50, 100],
  },
};

/**
 * Tip sheets: each week a few tipsters publish favourites at a fixed stake and some players copy a sheet
 * instead of picking themselves. Followers of one sheet finish the week on exactly the same SP, which gives
 * the ladders their ties (also near the top, from the high-stake sheet).
 */
const TIP_SHEET_STAKES = [1000, 500, 200, 100];
const FOLLOW_RATE = 0.15;

interface TipSheet {
  stake: number;
  selections: Array<{ fixture: Fixture; outcome: number }>;
}

function tipSheetsOfWeek(seed: string, week: number, fixtures: readonly Fixture[]): TipSheet[] {
  if (fixtures.length === 0) return [];
  return TIP_SHEET_STAKES.map((stake, s) => {
    const rng = streamFor(seed, "tips", week, s);
    const count = intBetween(rng, 2, 5);
    return {
      stake,
      selections: Array.from({ length: count }, () => {
        const fixture = pickOne(rng, fixtures);
        const favourite = fixture.probabilities.indexOf(Math.max(...fixture.probabilities));
        return { fixture, outcome: favourite };
      }),
    };
  });
}

function buildPlayer(seed: string, index: number): DemoPlayer {
  const rng = streamFor(seed, "player", index);
  const roll = rng();
  const tier: PlayerTier = roll < 0.05 ? "whale" : roll < 0.3 ? "regular" : "casual";
  const onchain = rng() < 0.2;
  const joinWeek = rng() < 0.7 ? 0 : longTailCount(rng, 1.5);
  return { index, ...demoWallet(seed, index), tier, onchain, joinWeek };
}

function picksOf(
  seed: string,
  player: DemoPlayer,
  week: number,
  fixtures: readonly Fixture[],
  sheets: readonly TipSheet[],
): DemoPick[] {
  if (week < player.joinWeek || fixtures.length === 0) return [];
  const tier = TIERS[player.tier];
  const rng: Rng = streamFor(seed, "picks", player.index, week);
  if (rng() >= tier.activity) return [];
  const pick = (n: number, fixture: Fixture, choice: number, stake: DemoStake): DemoPick => {
    const market = fixture.event.body.markets[0]!;
    const outcome = market.outcomes[choice]!;
    return {
      key: `${fixture.event.id}:p${player.index}:${n}`,
      player: player.index,
      wallet: player.wallet,
      week,
      eventId: fixture.event.id,
      kickoffAt: fixture.event.body.kickoffAt,
      market: market.key,
      outcome: outcome.key,
      odds: outcome.odds,
      stake,
    };
  };
  if (rng() < FOLLOW_RATE) {
    const sheet = pickOne(rng, sheets);
    return sheet.selections.map((s, n) =>
      pick(n, s.fixture, s.outcome, { kind: "credits", credits: sheet.stake }),
    );
  }
  const count = tier.basePicks + longTailCount(rng, tier.extraPicks);
  const picks: DemoPick[] = [];
  for (let n = 0; n < count; n++) {
    const fixture = pickOne(rng, fixtures);
    // Players lean towards favourites a little more than the true odds would.
    const choice = pickWeighted(
      rng,
      fixture.probabilities.map((p) => p ** 1.5),
    );
    const usdc = player.onchain && !fixture.event.body.warmup && rng() < 0.7;
    const stake: DemoStake = usdc
      ? { kind: "usdc", usdc: pickOne(rng, tier.usdc) }
      : { kind: "credits", credits: pickOne(rng, tier.credits) };
    picks.push(pick(n, fixture, choice, stake));
  }
  return picks;
}

/** The SP a won pick earns, and its ledger type. */
export function pickReward(
  pick: DemoPick,
  warmup: boolean,
  spPerUsdc: number,
): { type: SpType; amount: number } {
  const oddsMilli = parseOddsMilli(pick.odds);
  if (pick.stake.kind === "usdc") {
    return {
      type: "ONCHAIN_SP",
      amount: Number(mulOddsFloor(BigInt(pick.stake.usdc) * BigInt(spPerUsdc), oddsMilli)),
    };
  }
  return {
    type: warmup ? "WARMUP_PREDICTION" : "PREDICTION",
    amount: Number(mulOddsFloor(BigInt(pick.stake.credits), oddsMilli)),
  };
}

function feesOfWeek(opts: DemoOptions, week: number): DemoFee[] {
  const { start, end } = weekBounds(opts.season, week);
  const rng = streamFor(opts.seed, "fees", week);
  const count = intBetween(rng, 4, 9);
  const fees: DemoFee[] = [];
  for (let j = 0; j < count; j++) {
    const at = start.getTime() + Math.floor((rng() * (end.getTime() - start.getTime())) / 1000) * 1000;
    // Long-tailed amounts: mostly tens of USDC, now and then a few hundred.
    const micro = BigInt(Math.floor((5 + 295 * rng() ** 3) * 1_000_000));
    const logIndex = intBetween(rng, 0, 300);
    if (at >= opts.now.getTime()) continue;
    fees.push({
      txHash: keccak256(toHex(`sp-demo|${opts.seed}|fee|${week}|${j}`)),
      logIndex,
      amountUsdc: formatUsdc(micro),
      occurredAt: new Date(at).toISOString(),
    });
  }
  return fees.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.txHash.localeCompare(b.txHash));
}

function referralRows(opts: DemoOptions, tag: string, players: readonly DemoPlayer[]): DemoSpRow[] {
  if (players.length === 0 || opts.referralRewardSp === 0) return [];
  const rng = streamFor(opts.seed, "referrals");
  const count = Math.min(6, players.length);
  return Array.from({ length: count }, (_, k) => ({
    wallet: pickOne(rng, players).wallet,
    type: "REFERRAL" as const,
    amount: opts.referralRewardSp,
    externalId: `demo-${tag}:referral:${k}`,
  }));
}

/** Builds the whole demo season for `opts` (see the file's contract). */
export function buildDemoSeason(opts: DemoOptions): DemoSeason {
  if (!Number.isSafeInteger(opts.players) || opts.players < 0) {
    throw new RangeError(`players must be a non-negative integer, got ${opts.players}`);
  }
  const tag = seedTag(opts.seed);
  const started = weekIndexAt(opts.season, opts.now) !== null;
  const current = currentWeek(opts.season, opts.now);
  const weeks = Array.from({ length: current + 2 }, (_, w) => w);

  const fixturesByWeek = new Map(weeks.map((w) => [w, fixturesOfWeek(opts, tag, w)]));
  const events = weeks.flatMap((w) => fixturesByWeek.get(w)!.map((f) => f.event));
  const eventById = new Map(events.map((e) => [e.id, e]));

  const players = Array.from({ length: opts.players }, (_, i) => buildPlayer(opts.seed, i));
  const firstPickWeek = Math.max(0, current - SP_HISTORY_WEEKS);
  const pickWeeks = weeks.filter((w) => w >= firstPickWeek);
  const sheetsByWeek = new Map(
    pickWeeks.map((w) => [w, tipSheetsOfWeek(opts.seed, w, fixturesByWeek.get(w)!)]),
  );
  const picks = players.flatMap((p) =>
    pickWeeks.flatMap((w) => picksOf(opts.seed, p, w, fixturesByWeek.get(w)!, sheetsByWeek.get(w)!)),
  );

  const wonRows: DemoSpRow[] = [];
  for (const pick of picks) {
    const event = eventById.get(pick.eventId)!;
    if (event.result?.status !== "finished" || event.result.winningOutcome !== pick.outcome) continue;
    const reward = pickReward(pick, event.body.warmup === true, opts.spPerUsdc);
    if (reward.amount <= 0) continue;
    wonRows.push({ wallet: pick.wallet, ...reward, eventId: pick.eventId, externalId: `sp:${pick.key}` });
  }

  const pastWeeks = started
    ? weeks.filter((w) => weekBounds(opts.season, w).start.getTime() < opts.now.getTime())
    : [];
  return {
    tag,
    currentWeek: current,
    weeks,
    events,
    players,
    picks,
    spRows: [...wonRows, ...referralRows(opts, tag, players)],
    fees: pastWeeks.flatMap((w) => feesOfWeek(opts, w)),
    finalizeWeeks: started ? weeks.filter((w) => w < current) : [],
  };
}
