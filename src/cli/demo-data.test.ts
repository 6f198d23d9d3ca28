import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { EVENT_ID_PATTERN, EventUpsertBody } from "../events/schema.js";
import { toStoredMarkets } from "../events/upsert-event.js";
import { USDC_PATTERN } from "../shared/money.js";
import { hash32, longTailCount, mulberry32, streamFor } from "../shared/prng.js";
import { type Season, weekBounds, weekIndexAt } from "../shared/season.js";
import {
  buildDemoSeason,
  type DemoAction,
  type DemoOptions,
  type DemoPick,
  kickoffSlots,
  oddsFromProbability,
  pickReward,
  SP_HISTORY_WEEKS,
  viaApp,
} from "./demo-data.js";
import { DEMO_LEAGUES } from "./demo-leagues.js";

// Opening week Mon 2026-11-02 .. Tue 2026-11-10; week 1 from Tue 2026-11-10; week 2 from Tue 2026-11-17.
const season: Season = {
  seasonStart: new Date("2026-11-02T00:00:00.000Z"),
  weekOneStart: new Date("2026-11-10T00:00:00.000Z"),
};
// Fri 2026-11-20 12:00 UTC: weeks 0 and 1 have ended, week 2 is live, week 3 is upcoming.
const NOW = new Date("2026-11-20T12:00:00.000Z");

function options(overrides: Partial<DemoOptions> = {}): DemoOptions {
  return {
    seed: "unit",
    players: 120,
    season,
    now: NOW,
    spPerUsdc: 100,
    welcomeCredits: 1000,
    dailyCredits: 1000,
    ...overrides,
  };
}

const demo = buildDemoSeason(options());
const eventById = new Map(demo.events.map((e) => [e.id, e]));
const weekOf = (eventId: string) => weekIndexAt(season, new Date(eventById.get(eventId)!.body.kickoffAt))!;

/** The competitive SP each player earns in `week`: won picks on finished events, whichever channel. */
function weeklyTotals(week: number): number[] {
  const totals = new Map<string, number>();
  for (const p of demo.picks) {
    const event = eventById.get(p.eventId)!;
    if (weekOf(p.eventId) !== week || event.result?.status !== "finished") continue;
    if (event.result.winningOutcome !== p.outcome) continue;
    const { amount } = pickReward(p, event.body.warmup === true, 100);
    totals.set(p.wallet, (totals.get(p.wallet) ?? 0) + amount);
  }
  return [...totals.values()].sort((a, b) => b - a);
}

describe("prng", () => {
  it("repeats a sequence for a seed and stays in [0, 1)", () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBeGreaterThan(990);
  });

  it("derives independent streams from key paths", () => {
    expect(streamFor("s", "player", 1)()).toBe(streamFor("s", "player", 1)());
    expect(streamFor("s", "player", 1)()).not.toBe(streamFor("s", "player", 2)());
    expect(hash32("")).toBe(0x811c9dc5);
  });

  it("draws long-tailed counts: mostly small, occasionally large", () => {
    const rng = mulberry32(7);
    const counts = Array.from({ length: 5000 }, () => longTailCount(rng, 2));
    const mean = counts.reduce((s, c) => s + c, 0) / counts.length;
    expect(mean).toBeGreaterThan(1);
    expect(mean).toBeLessThan(2);
    expect(Math.max(...counts)).toBeGreaterThan(10);
  });
});

describe("buildDemoSeason", () => {
  it("is deterministic", () => {
    expect(buildDemoSeason(options())).toEqual(demo);
  });

  it("covers week 0 to the week after the current one, and finalizes the ended weeks", () => {
    expect(demo.currentWeek).toBe(2);
    expect(demo.weeks).toEqual([0, 1, 2, 3]);
    expect(demo.finalizeWeeks).toEqual([0, 1]);
    for (const week of demo.weeks) {
      const { start, end } = weekBounds(season, week);
      const ofWeek = demo.events.filter((e) => e.week === week);
      expect(ofWeek.length).toBeGreaterThan(20);
      for (const e of ofWeek) {
        const kickoff = Date.parse(e.body.kickoffAt);
        expect(kickoff).toBeGreaterThanOrEqual(start.getTime());
        expect(kickoff).toBeLessThan(end.getTime());
      }
    }
  });

  it("produces valid admin upsert bodies with unique ids, several sports and some warm-up events", () => {
    const idPattern = new RegExp(EVENT_ID_PATTERN);
    expect(new Set(demo.events.map((e) => e.id)).size).toBe(demo.events.length);
    for (const e of demo.events) {
      expect(e.id).toMatch(idPattern);
      expect(Value.Check(EventUpsertBody, e.body)).toBe(true);
      expect(() => toStoredMarkets(e.body.markets)).not.toThrow();
    }
    expect(new Set(demo.events.map((e) => e.body.sport)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(demo.events.map((e) => e.body.league)).size).toBeGreaterThanOrEqual(8);
    const warmup = demo.events.filter((e) => e.body.warmup);
    expect(warmup.length).toBeGreaterThan(0);
    expect(warmup.every((e) => e.week <= 1)).toBe(true);
  });

  it("gives each event the status of `now`, with results only for decided ones", () => {
    for (const e of demo.events) {
      const kickoff = Date.parse(e.body.kickoffAt);
      if (kickoff > NOW.getTime()) {
        expect(e.body.status).toBe("scheduled");
        expect(e.result).toBeNull();
      }
      if (e.body.status === "finished") {
        expect(e.result).toMatchObject({ status: "finished" });
        const outcomes = e.body.markets[0]!.outcomes.map((o) => o.key);
        expect(outcomes).toContain((e.result as { winningOutcome: string }).winningOutcome);
      }
      if (e.body.status === "cancelled") expect(e.result).toEqual({ status: "cancelled" });
      if (e.body.status === "live") expect(e.result).toBeNull();
    }
    const statuses = new Set(demo.events.map((e) => e.body.status));
    expect(statuses).toContain("finished");
    expect(statuses).toContain("scheduled");
  });

  it("derives stable, distinct, checksummed wallets that do not depend on the player count", () => {
    const wallets = demo.players.map((p) => p.wallet);
    expect(new Set(wallets).size).toBe(120);
    for (const w of wallets) expect(w).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const fewer = buildDemoSeason(options({ players: 10 }));
    expect(fewer.players.map((p) => p.wallet)).toEqual(wallets.slice(0, 10));
    expect(fewer.picks).toEqual(demo.picks.filter((p) => p.player < 10));
    expect(buildDemoSeason(options({ seed: "other", players: 1 })).players[0]!.wallet).not.toBe(wallets[0]);
  });

  it("leaves to the chain feed only the won USDC picks not reported as version-2 bets", () => {
    expect(new Set(demo.spRows.map((r) => r.externalId)).size).toBe(demo.spRows.length);
    const picks = new Map(demo.picks.map((p) => [`sp:${p.key}`, p]));
    for (const r of demo.spRows) {
      expect(Number.isSafeInteger(r.amount) && r.amount > 0).toBe(true);
      expect(r.type).toBe("ONCHAIN_SP");
      const pick = picks.get(r.externalId)!;
      expect(pick.stake).toMatchObject({ kind: "usdc", reported: false });
      const event = eventById.get(r.eventId!)!;
      expect(event.result).toEqual({ status: "finished", winningOutcome: pick.outcome });
      expect(pickReward(pick, event.body.warmup === true, 100)).toEqual({ type: r.type, amount: r.amount });
    }
    const usdc = demo.picks.filter((p) => p.stake.kind === "usdc");
    const reported = usdc.filter((p) => viaApp(p));
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.length).toBeLessThan(usdc.length / 2);
    expect(demo.spRows.length).toBeGreaterThan(0);
  });

  it("orders the timeline: daily credits, then bets before kickoff, results, then claims", () => {
    const now = NOW.toISOString();
    const keyOf = (a: DemoAction) =>
      a.kind === "daily-credits"
        ? `d${a.player}|${a.at.slice(0, 10)}`
        : a.kind === "result"
          ? `r${a.eventId}`
          : `${a.kind}${a.pick.key}`;
    expect(new Set(demo.actions.map(keyOf)).size).toBe(demo.actions.length);
    const rank = { "daily-credits": 0, bet: 1, result: 2, claim: 3 };
    const claimedDays = new Set<string>();
    const resultAt = new Map<string, string>();
    for (const [i, a] of demo.actions.entries()) {
      expect(a.at <= now).toBe(true);
      const prev = demo.actions[i - 1];
      if (prev) expect(prev.at < a.at || (prev.at === a.at && rank[prev.kind] <= rank[a.kind])).toBe(true);
      if (a.kind === "daily-credits") {
        const day = `${a.player}|${a.at.slice(0, 10)}`;
        expect(claimedDays.has(day)).toBe(false);
        claimedDays.add(day);
      } else if (a.kind === "bet") {
        expect(viaApp(a.pick)).toBe(true);
        expect(a.at).toBe(a.pick.placedAt);
        const before = Date.parse(a.pick.kickoffAt) - Date.parse(a.at);
        expect(before).toBeGreaterThanOrEqual(2 * 3600_000);
        expect(before).toBeLessThanOrEqual(48 * 3600_000);
        expect(claimedDays.has(`${a.pick.player}|${a.at.slice(0, 10)}`)).toBe(true);
      } else if (a.kind === "result") {
        expect(eventById.get(a.eventId)!.result).toEqual(a.result);
        resultAt.set(a.eventId, a.at);
      } else {
        expect(a.pick.claimAt).toBe(a.at);
        expect(resultAt.get(a.pick.eventId)! < a.at).toBe(true);
        const result = eventById.get(a.pick.eventId)!.result!;
        expect(result.status === "cancelled" || result.winningOutcome === a.pick.outcome).toBe(true);
      }
    }
    const kinds = new Set(demo.actions.map((a) => a.kind));
    expect([...kinds].sort()).toEqual(["bet", "claim", "daily-credits", "result"]);
    expect(demo.events.filter((e) => e.result).length).toBe(
      demo.actions.filter((a) => a.kind === "result").length,
    );
    // Some bets on events still to be played stay open.
    expect(demo.actions.some((a) => a.kind === "bet" && Date.parse(a.pick.kickoffAt) > NOW.getTime())).toBe(
      true,
    );
  });

  it("never lets a credits balance go negative, with welcome and daily credits and claimed payouts", () => {
    const balance = new Map<number, number>();
    for (const a of demo.actions) {
      if (a.kind === "result") continue;
      const player = a.kind === "daily-credits" ? a.player : a.pick.player;
      const before = balance.get(player) ?? 1000;
      if (a.kind === "daily-credits") balance.set(player, before + 1000);
      else if (a.pick.stake.kind === "credits") {
        const stake = a.pick.stake.credits;
        const result = eventById.get(a.pick.eventId)!.result;
        const payout = result?.status === "cancelled" ? stake : pickReward(a.pick, false, 100).amount;
        balance.set(player, a.kind === "bet" ? before - stake : before + payout);
        expect(balance.get(player)!).toBeGreaterThanOrEqual(0);
      }
    }
    expect(demo.unaffordable).toBeLessThan(demo.picks.length / 100);
    // Without daily credits, more picks are left out, and never a USDC one.
    const poor = buildDemoSeason(options({ dailyCredits: 0 }));
    expect(poor.unaffordable).toBeGreaterThan(demo.unaffordable);
    expect(poor.picks.filter((p) => p.stake.kind === "usdc")).toEqual(
      demo.picks.filter((p) => p.stake.kind === "usdc"),
    );
  });

  it("signs up the bettors and their referrers, referrers first", () => {
    const bettors = new Set(demo.picks.filter((p) => p.placedAt <= NOW.toISOString()).map((p) => p.player));
    expect(demo.signedUp).toEqual([...demo.signedUp].sort((a, b) => a - b));
    const signedUp = new Set(demo.signedUp);
    for (const b of bettors) expect(signedUp.has(b)).toBe(true);
    for (const i of demo.signedUp) {
      const referrer = demo.players[i]!.referrer;
      if (referrer === null) continue;
      expect(referrer).toBeLessThan(i);
      expect(signedUp.has(referrer)).toBe(true);
    }
    const referred = demo.players.filter((p) => p.referrer !== null).length;
    expect(referred).toBeGreaterThan(0);
    expect(referred).toBeLessThan(demo.players.length / 4);
  });

  it("gives long-tailed weekly SP with ties", () => {
    for (const week of [0, 1]) {
      const totals = weeklyTotals(week);
      expect(totals.length).toBeGreaterThan(40);
      const median = totals[Math.floor(totals.length / 2)]!;
      expect(totals[0]!).toBeGreaterThan(5 * median);
      expect(new Set(totals).size).toBeLessThan(totals.length);
    }
  });

  it("has fees in every week that has started, none in the future", () => {
    expect(new Set(demo.fees.map((f) => f.txHash)).size).toBe(demo.fees.length);
    for (const f of demo.fees) {
      expect(f.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(f.amountUsdc).toMatch(new RegExp(USDC_PATTERN));
      expect(Date.parse(f.occurredAt)).toBeLessThan(NOW.getTime());
    }
    const feeWeeks = new Set(demo.fees.map((f) => weekIndexAt(season, new Date(f.occurredAt))));
    expect([...feeWeeks].sort()).toEqual([0, 1, 2]);
  });

  it("only adds what became due when run later (same fixtures, results, picks, actions and rows)", () => {
    // Fri 2026-11-27 12:00 UTC: one week later, week 2 has ended.
    const later = buildDemoSeason(options({ now: new Date("2026-11-27T12:00:00.000Z") }));
    expect(later.finalizeWeeks).toEqual([0, 1, 2]);
    const laterEvents = new Map(later.events.map((e) => [e.id, e]));
    for (const e of demo.events) {
      const l = laterEvents.get(e.id)!;
      expect({ ...l.body, status: undefined }).toEqual({ ...e.body, status: undefined });
      if (e.result) expect(l.result).toEqual(e.result);
    }
    const laterRows = new Map(later.spRows.map((r) => [r.externalId, r]));
    for (const r of demo.spRows) expect(laterRows.get(r.externalId)).toEqual(r);
    const placed = (picks: DemoPick[]) => picks.filter((p) => p.placedAt <= NOW.toISOString());
    expect(placed(later.picks)).toEqual(placed(demo.picks));
    expect(later.actions.length).toBeGreaterThan(demo.actions.length);
    expect(later.actions.slice(0, demo.actions.length)).toEqual(demo.actions);
    expect(later.signedUp).toEqual(expect.arrayContaining(demo.signedUp));
    const laterFees = new Set(later.fees.map((f) => f.txHash));
    for (const f of demo.fees) expect(laterFees.has(f.txHash)).toBe(true);
  });

  it("before the season: opening week and week 1 scheduled, nothing played, nothing to finalize", () => {
    // Thu 2026-10-01, a month before the season starts.
    const early = buildDemoSeason(options({ now: new Date("2026-10-01T00:00:00.000Z") }));
    expect(early.weeks).toEqual([0, 1]);
    expect(early.events.every((e) => e.body.status === "scheduled" && e.result === null)).toBe(true);
    expect(early.spRows).toEqual([]);
    expect(early.actions).toEqual([]);
    expect(early.signedUp).toEqual([]);
    expect(early.fees).toEqual([]);
    expect(early.finalizeWeeks).toEqual([]);
  });

  it("draws picks only for the recent weeks of a long season", () => {
    // Tue 2027-04-06 12:00 UTC: week 22.
    const long = buildDemoSeason(options({ players: 15, now: new Date("2027-04-06T12:00:00.000Z") }));
    expect(long.currentWeek).toBe(22);
    expect(long.finalizeWeeks.length).toBe(22);
    expect(Math.min(...long.picks.map((p) => p.week))).toBeGreaterThanOrEqual(22 - SP_HISTORY_WEEKS);
  });
});

describe("demo rules", () => {
  it("places kickoffs on the league's UTC weekdays and times inside the interval", () => {
    const epl = DEMO_LEAGUES.find((l) => l.key === "epl")!;
    // Week 1: Tue 2026-11-10 .. Tue 2026-11-17; EPL plays Sat 14, Sun 15 and Mon 16.
    const slots = kickoffSlots(
      epl,
      new Date("2026-11-10T00:00:00.000Z"),
      new Date("2026-11-17T00:00:00.000Z"),
    );
    expect(new Set(slots.map((d) => d.toISOString().slice(0, 10)))).toEqual(
      new Set(["2026-11-14", "2026-11-15", "2026-11-16"]),
    );
    expect(slots.map((d) => d.toISOString())).toContain("2026-11-14T12:30:00.000Z");
  });

  it("prices odds with a margin, 2 decimals, never below 1.03", () => {
    expect(oddsFromProbability(0.5)).toBe(1.9);
    expect(oddsFromProbability(0.99)).toBe(1.03);
    expect(oddsFromProbability(0.1)).toBe(9.52);
  });

  it("earns floor(stake × odds) for credits, floor(stakeUsdc × SP_PER_USDC × odds) for USDC", () => {
    const pick = (stake: DemoPick["stake"], odds: number): DemoPick => ({
      key: "k",
      player: 0,
      wallet: "0x0000000000000000000000000000000000000001",
      week: 1,
      eventId: "e",
      kickoffAt: "2026-11-14T12:30:00.000Z",
      market: "match_result",
      outcome: "home",
      odds,
      stake,
      placedAt: "2026-11-14T09:30:00.000Z",
      claimAt: null,
    });
    expect(pickReward(pick({ kind: "credits", credits: 25 }, 2.15), false, 100)).toEqual({
      type: "PREDICTION",
      amount: 53,
    });
    expect(pickReward(pick({ kind: "credits", credits: 100 }, 1.85), true, 100)).toEqual({
      type: "WARMUP_PREDICTION",
      amount: 185,
    });
    expect(pickReward(pick({ kind: "usdc", usdc: 5, reported: false }, 2.33), false, 100)).toEqual({
      type: "ONCHAIN_SP",
      amount: 1165,
    });
    expect(pickReward(pick({ kind: "usdc", usdc: 5, reported: true }, 2.33), false, 100)).toEqual({
      type: "ONCHAIN_PREDICTION",
      amount: 1165,
    });
  });
});
