/**
 * The demo season as data: fixtures for every competition week from the opening week to the week after the
 * current one, wallet players (some referred by another), their picks, the timeline of what the players and the
 * results feed did by `now` (daily credits, bets, results, payout claims), the SP rows the chain feed reports,
 * protocol fees and the weeks to finalize. `seed-demo.ts` writes it through the use cases.
 *
 * Contract:
 * - Pure and deterministic: the same options give the same season (seeded PRNG, no clock read, no I/O).
 * - `now` only decides what has happened yet: an event's status and result, which timeline actions are due
 *   (`at` ≤ now), which fees have occurred and which weeks have ended. Fixtures, odds, players, picks, their
 *   instants and results themselves are fixed by the seed, so a later run adds the actions and rows that became
 *   due and never a different version of one.
 * - Every identifier is stable: event ids, pick keys (the bets' idempotency keys), ledger `externalId`s and
 *   transaction hashes derive from the seed, which is what makes re-running the seed idempotent.
 * - Player i's wallet is the address of private key keccak256("sp-demo|<seed>|player|<i>") (a demo key, never a
 *   real wallet); its draws come from its own stream, so `players` changes nobody else's data.
 * - A credit pick is a version-1 bet placed at `placedAt` (2 to 48 h before kickoff); a USDC pick is either a
 *   version-2 bet the player reports (`reported`) or a bet the chain feed reports as ONCHAIN_SP (`spRows`).
 *   SP follows the ledger rules (`pickReward`): settlement writes PREDICTION / WARMUP_PREDICTION /
 *   ONCHAIN_PREDICTION for won bets; lost, void and unsettled picks earn nothing. Picks are drawn for the last
 *   `SP_HISTORY_WEEKS` weeks before the current one onwards, which bounds the seed's work on a long season.
 * - Credits never run out: a player claims the daily credits on each UTC day they bet through the app (before
 *   the day's first bet), claims most won or void picks some time after the result, and a credit pick the
 *   balance could not cover at its instant is left out (`affordablePicks`).
 * - Weekly SP is long-tailed (70 % casual players, 25 % regulars, 5 % whales, a few on-chain) and tied in
 *   places: players who copy the same tip sheet end the week on the same SP.
 */
import { keccak256, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { EventUpsertInput } from "../events/schema.js";
import { creditsPayout } from "../predictions/settlement.js";
import { formatUsdc, mulOddsFloor, parseOddsMilli } from "../shared/money.js";
import {
  hash32,
  intBetween,
  longTailCount,
  pickOne,
  pickWeighted,
  type Rng,
  shuffled,
  streamFor,
} from "../shared/prng.js";
import { currentWeek, type Season, weekBounds, weekIndexAt } from "../shared/season.js";
import type { SpType } from "../shared/sp-types.js";
import { DEMO_LEAGUES, type DemoLeague } from "./demo-leagues.js";

export interface DemoOptions {
  seed: string;
  players: number;
  season: Season;
  now: Date;
  spPerUsdc: number;
  welcomeCredits: number;
  dailyCredits: number;
}

/** How many weeks before the current one receive picks (older weeks keep their fixtures and fees). */
export const SP_HISTORY_WEEKS = 8;
/** Share of played fixtures that end up cancelled (void). */
const CANCEL_RATE = 0.03;
/** Share of USDC picks the player reports as version-2 bets (the others reach the ledger from the chain feed). */
const REPORT_RATE = 0.4;
/** Share of won or void picks whose payout gets claimed. */
const CLAIM_RATE = 0.85;
/** Share of players who signed up with another player's referral code; of referrers, those who redeem. */
const REFERRED_RATE = 0.12;
const REDEEM_RATE = 0.75;
const HOUR_MS = 3600 * 1000;
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
  /** When the result is posted (a cancelled fixture's kickoff, else its final whistle), fixed by the seed. */
  resultAt: string;
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
  /** Index of the player whose referral code this one signed up with (always a lower index), or null. */
  referrer: number | null;
  /** Whether the player redeems the referral rewards of its referees. */
  redeemsReferrals: boolean;
}

/** `reported`: a version-2 bet the player reports; otherwise the chain feed reports its SP. */
export type DemoStake =
  | { kind: "credits"; credits: number }
  | { kind: "usdc"; usdc: number; reported: boolean };

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
  /** When the bet is placed: 2 to 48 h before kickoff. */
  placedAt: string;
  /** When its payout is claimed through the app (a won or void pick, most of them), or null. */
  claimAt: string | null;
}

export interface DemoSpRow {
  wallet: `0x${string}`;
  type: SpType;
  amount: number;
  eventId?: string;
  externalId: string;
}

/**
 * One step of the season's timeline. At the same instant: daily credits, then bets, then results, then claims.
 * A `bet` of a version-2 pick is its report (`stake.reported`).
 */
export type DemoAction =
  | { kind: "daily-credits"; at: string; player: number }
  | { kind: "bet"; at: string; pick: DemoPick }
  | { kind: "result"; at: string; eventId: string; result: DemoResult }
  | { kind: "claim"; at: string; pick: DemoPick };

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
  /** Every pick of the history weeks, placed by now or not (without those the balance could not cover). */
  picks: DemoPick[];
  /** Credit picks left out because the player's balance could not cover them. */
  unaffordable: number;
  /** Players signed up by now, ascending (referrers before their referees): bettors and their referrers. */
  signedUp: number[];
  /** What happened by `now`, in order. */
  actions: DemoAction[];
  /** ONCHAIN_SP rows the chain feed reports: won USDC picks that were not reported as version-2 bets. */
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

/** Wallets derived so far, by `seed|index`: deriving one is an elliptic-curve multiplication (~2 ms). */
const wallets = new Map<string, { privateKey: `0x${string}`; wallet: `0x${string}` }>();
const MAX_CACHED_WALLETS = 20_000;

/** The demo key and wallet of player `index`. */
export function demoWallet(
  seed: string,
  index: number,
): { privateKey: `0x${string}`; wallet: `0x${string}` } {
  const key = `${seed}|${index}`;
  const known = wallets.get(key);
  if (known) return known;
  const privateKey = keccak256(toHex(`sp-demo|${seed}|player|${index}`));
  const derived = { privateKey, wallet: privateKeyToAccount(privateKey).address };
  if (wallets.size >= MAX_CACHED_WALLETS) wallets.clear();
  wallets.set(key, derived);
  return derived;
}

/**
 * Derives the wallets of players 0..count-1 ahead of `buildDemoSeason`, a few at a time with the event loop let go
 * in between: 300 players take ~0.6 s of curve arithmetic, which in one piece would hold every request of the
 * server running the seed.
 */
export async function deriveDemoWallets(seed: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    demoWallet(seed, i);
    if (i % 25 === 24) await new Promise((resolve) => setImmediate(resolve));
  }
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
  /** The result fixed by the seed, whether or not it is decided at `now`. */
  outcome: DemoResult;
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
  const outcome: DemoResult = cancelled
    ? { status: "cancelled" }
    : { status: "finished", winningOutcome: outcomes[winner]!.key };
  const resultAt = cancelled ? start : start + league.durationMinutes * 60_000;
  let status: NonNullable<EventUpsertInput["status"]> = "scheduled";
  if (now >= resultAt) status = outcome.status;
  else if (now >= start) status = "live";
  const result = now >= resultAt ? outcome : null;
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
  return {
    event: { id: f.id, week: f.week, body, result, resultAt: new Date(resultAt).toISOString() },
    probabilities,
    outcome,
  };
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
  // Its own stream, so the referral draws shift none of the player's other numbers.
  const social = streamFor(seed, "referral", index);
  const referred = social() < REFERRED_RATE;
  const referrer = referred && index > 0 ? Math.floor(social() * index) : null;
  const redeemsReferrals = social() < REDEEM_RATE;
  return { index, ...demoWallet(seed, index), tier, onchain, joinWeek, referrer, redeemsReferrals };
}

/** Won, lost or void: how a pick ends under the seed's result of its fixture. */
function pickEnd(fixture: Fixture, outcome: string): "won" | "lost" | "void" {
  if (fixture.outcome.status === "cancelled") return "void";
  return fixture.outcome.winningOutcome === outcome ? "won" : "lost";
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
    const key = `${fixture.event.id}:p${player.index}:${n}`;
    // The pick's own stream: its instants and channel shift no other draw.
    const own = streamFor(seed, "pick", key);
    const kickoff = Date.parse(fixture.event.body.kickoffAt);
    const placedAt = kickoff - 2 * HOUR_MS - Math.floor(own() * 46 * 60) * 60_000;
    const claims = own() < CLAIM_RATE && pickEnd(fixture, outcome.key) !== "lost";
    const claimAt = Date.parse(fixture.event.resultAt) + 15 * 60_000 + Math.floor(own() * 36 * 60) * 60_000;
    const channel: DemoStake = stake.kind === "usdc" ? { ...stake, reported: own() < REPORT_RATE } : stake;
    return {
      key,
      player: player.index,
      wallet: player.wallet,
      week,
      eventId: fixture.event.id,
      kickoffAt: fixture.event.body.kickoffAt,
      market: market.key,
      outcome: outcome.key,
      odds: outcome.odds,
      stake: channel,
      placedAt: new Date(placedAt).toISOString(),
      claimAt: claims ? new Date(claimAt).toISOString() : null,
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
      ? { kind: "usdc", usdc: pickOne(rng, tier.usdc), reported: false }
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
      type: pick.stake.reported ? "ONCHAIN_PREDICTION" : "ONCHAIN_SP",
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

/** Whether the player places the pick through the app (credits, or a reported USDC bet), not only on-chain. */
export function viaApp(pick: DemoPick): boolean {
  return pick.stake.kind === "credits" || pick.stake.reported;
}

/** Players with a due bet and, transitively, their referrers, ascending (a referrer has a lower index). */
function signedUpPlayers(players: readonly DemoPlayer[], bettors: ReadonlySet<number>): number[] {
  const joined = new Set<number>();
  for (let i = players.length - 1; i >= 0; i--) {
    if (!bettors.has(i) && !joined.has(i)) continue;
    joined.add(i);
    const referrer = players[i]!.referrer;
    if (referrer !== null) joined.add(referrer);
  }
  return [...joined].sort((a, b) => a - b);
}

const ACTION_ORDER: Record<DemoAction["kind"], number> = { "daily-credits": 0, bet: 1, result: 2, claim: 3 };

function actionTie(a: DemoAction): string {
  if (a.kind === "daily-credits") return String(a.player).padStart(8, "0");
  return a.kind === "result" ? a.eventId : a.pick.key;
}

function byTimeline(a: DemoAction, b: DemoAction): number {
  return (
    a.at.localeCompare(b.at) ||
    ACTION_ORDER[a.kind] - ACTION_ORDER[b.kind] ||
    actionTie(a).localeCompare(actionTie(b))
  );
}

/** The daily-credit claims: one per player and UTC day with a pick, at that day's first pick. */
function dailyClaims(picks: readonly DemoPick[]): DemoAction[] {
  const first = new Map<string, DemoAction>();
  for (const p of picks) {
    const id = `${p.player}|${p.placedAt.slice(0, 10)}`;
    const seen = first.get(id);
    if (!seen || p.placedAt < seen.at)
      first.set(id, { kind: "daily-credits", at: p.placedAt, player: p.player });
  }
  return [...first.values()];
}

/**
 * Replays each player's credits over all drawn picks (welcome credits, daily credits, stakes, claimed payouts,
 * in timeline order, due or not) and keeps the picks the balance covers. Whether a due pick is kept does not
 * depend on `now`: picks drawn later (the week after next) are placed after everything due today. Only the
 * history window moving on (`SP_HISTORY_WEEKS`) changes the replay, and with it, rarely, a later drop.
 */
function affordablePicks(
  opts: DemoOptions,
  picks: readonly DemoPick[],
  dailies: readonly DemoAction[],
  fixtureById: ReadonlyMap<string, Fixture>,
): DemoPick[] {
  const timeline: DemoAction[] = [...dailies];
  for (const pick of picks) {
    if (pick.stake.kind !== "credits") continue;
    timeline.push({ kind: "bet", at: pick.placedAt, pick });
    if (pick.claimAt) timeline.push({ kind: "claim", at: pick.claimAt, pick });
  }
  timeline.sort(byTimeline);
  const balance = new Map<number, number>();
  const dropped = new Set<string>();
  for (const a of timeline) {
    if (a.kind === "result") continue;
    const player = a.kind === "daily-credits" ? a.player : a.pick.player;
    const before = balance.get(player) ?? opts.welcomeCredits;
    if (a.kind === "daily-credits") {
      balance.set(player, before + opts.dailyCredits);
      continue;
    }
    if (a.pick.stake.kind !== "credits") continue;
    const stake = a.pick.stake.credits;
    if (a.kind === "bet") {
      if (before < stake) dropped.add(a.pick.key);
      else balance.set(player, before - stake);
    } else if (!dropped.has(a.pick.key)) {
      const end = pickEnd(fixtureById.get(a.pick.eventId)!, a.pick.outcome);
      balance.set(player, before + creditsPayout(stake, parseOddsMilli(a.pick.odds), end));
    }
  }
  return picks.filter((p) => !dropped.has(p.key));
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
  const drawn = players.flatMap((p) =>
    pickWeeks.flatMap((w) => picksOf(opts.seed, p, w, fixturesByWeek.get(w)!, sheetsByWeek.get(w)!)),
  );
  const fixtureById = new Map(weeks.flatMap((w) => fixturesByWeek.get(w)!.map((f) => [f.event.id, f])));
  const dailies = dailyClaims(drawn.filter(viaApp));
  const picks = affordablePicks(opts, drawn, dailies, fixtureById);

  const now = opts.now.toISOString();
  const due = (a: DemoAction) => a.at <= now;
  const bets: DemoAction[] = picks.filter(viaApp).map((pick) => ({ kind: "bet", at: pick.placedAt, pick }));
  const claims: DemoAction[] = picks
    .filter(viaApp)
    .flatMap((pick) => (pick.claimAt ? [{ kind: "claim" as const, at: pick.claimAt, pick }] : []));
  const results: DemoAction[] = events.flatMap((e) =>
    e.result ? [{ kind: "result" as const, at: e.resultAt, eventId: e.id, result: e.result }] : [],
  );
  const actions = [...dailies, ...bets, ...results, ...claims].filter(due).sort(byTimeline);
  const bettors = new Set(picks.filter((p) => p.placedAt <= now).map((p) => p.player));

  const feedRows: DemoSpRow[] = [];
  for (const pick of picks) {
    if (pick.stake.kind !== "usdc" || pick.stake.reported) continue;
    const event = eventById.get(pick.eventId)!;
    if (event.result?.status !== "finished" || event.result.winningOutcome !== pick.outcome) continue;
    const reward = pickReward(pick, event.body.warmup === true, opts.spPerUsdc);
    if (reward.amount <= 0) continue;
    feedRows.push({ wallet: pick.wallet, ...reward, eventId: pick.eventId, externalId: `sp:${pick.key}` });
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
    unaffordable: drawn.length - picks.length,
    signedUp: signedUpPlayers(players, bettors),
    actions,
    spRows: feedRows,
    fees: pastWeeks.flatMap((w) => feesOfWeek(opts, w)),
    finalizeWeeks: started ? weeks.filter((w) => w < current) : [],
  };
}
