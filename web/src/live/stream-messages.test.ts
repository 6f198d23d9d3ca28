import { describe, expect, it } from "vitest";
import type { SportEvent } from "../api";
import { predictionToast } from "./prediction-toast";
import {
  bettingClosed,
  type CacheKey,
  cacheEffectsOf,
  coveringPrefixes,
  parseStreamMessage,
  patchedEvent,
  type StreamMessage,
  streamedPrefixes,
} from "./stream-messages";
import { oddsMoves } from "./use-odds-moves";

const markets = (draw: number) => [
  {
    key: "1x2",
    outcomes: [
      { key: "home", label: "Fulham", odds: 2.15 },
      { key: "draw", label: "Draw", odds: draw },
      { key: "away", label: "Brentford", odds: 3.1 },
    ],
  },
];

const event: SportEvent = {
  id: "play-fb-2",
  sport: "football",
  league: "Premier League",
  homeTeam: "Fulham",
  awayTeam: "Brentford",
  kickoffAt: "2026-11-21T17:00:00.000Z", // Sat
  status: "scheduled",
  warmup: false,
  markets: markets(3.4),
};

describe("the live stream's messages", () => {
  it("reads each event the stream sends, as SPEC §12 shapes it", () => {
    expect(parseStreamMessage("odds", JSON.stringify({ eventId: "e1", markets: markets(3.6) }))).toEqual({
      type: "odds",
      eventId: "e1",
      markets: markets(3.6),
    });
    expect(
      parseStreamMessage("event", '{"eventId":"e1","status":"finished","winningOutcome":"home"}'),
    ).toEqual({ type: "event", eventId: "e1", status: "finished", winningOutcome: "home" });
    expect(parseStreamMessage("event", '{"eventId":"e1","status":"live","winningOutcome":null}')).toEqual({
      type: "event",
      eventId: "e1",
      status: "live",
      winningOutcome: null,
    });
    expect(parseStreamMessage("ladder", '{"week":2,"type":"champions"}')).toEqual({
      type: "ladder",
      week: 2,
      ladder: "champions",
    });
    expect(parseStreamMessage("week", '{"week":1,"status":"finalized"}')).toEqual({
      type: "week",
      week: 1,
      status: "finalized",
    });
    expect(parseStreamMessage("balance", '{"credits":600}')).toEqual({ type: "balance", credits: 600 });
    expect(parseStreamMessage("prediction", '{"predictionId":"17","status":"won","payout":215}')).toEqual({
      type: "prediction",
      predictionId: "17",
      eventId: null,
      status: "won",
      payout: 215,
      payoutUsdc: null,
    });
    expect(
      parseStreamMessage("prediction", '{"predictionId":"18","status":"won","payoutUsdc":"21.500000"}'),
    ).toMatchObject({ payout: null, payoutUsdc: "21.500000" });
    expect(parseStreamMessage("reset", '{"reason":"too old"}')).toEqual({ type: "reset" });
  });

  it("ignores what it cannot read, without throwing", () => {
    expect(parseStreamMessage("odds", "not json")).toBeNull();
    expect(parseStreamMessage("odds", '{"eventId":"e1","markets":[{"key":"1x2"}]}')).toBeNull();
    expect(parseStreamMessage("event", '{"eventId":"e1","status":"paused"}')).toBeNull();
    expect(parseStreamMessage("balance", '{"credits":"600"}')).toBeNull();
    expect(parseStreamMessage("balance", '{"credits":1.5}')).toBeNull();
    expect(parseStreamMessage("prediction", '{"predictionId":"1","status":"settled"}')).toBeNull();
    expect(parseStreamMessage("ladder", '{"week":2}')).toBeNull();
    expect(parseStreamMessage("surprise", "{}")).toBeNull();
    expect(parseStreamMessage("odds", "null")).toBeNull();
  });

  it("writes prices and statuses into the cache, and invalidates only what the message names", () => {
    const odds = parseStreamMessage("odds", JSON.stringify({ eventId: "e1", markets: markets(3.6) }))!;
    expect(cacheEffectsOf(odds, "7")).toEqual({
      patchEvent: { eventId: "e1", markets: markets(3.6) },
      balance: null,
      invalidate: [],
    });
    expect(
      cacheEffectsOf({ type: "event", eventId: "e1", status: "live", winningOutcome: null }, null),
    ).toEqual({ patchEvent: { eventId: "e1", status: "live" }, balance: null, invalidate: [] });
    expect(cacheEffectsOf({ type: "ladder", week: 2, ladder: "champions" }, "7").invalidate).toEqual([
      ["ladder", 2, "champions"],
      ["player", "7", "me"],
    ]);
    expect(cacheEffectsOf({ type: "ladder", week: 2, ladder: "champions" }, null).invalidate).toEqual([
      ["ladder", 2, "champions"],
    ]);
    expect(cacheEffectsOf({ type: "week", week: 1, status: "finalized" }, "7").invalidate).toEqual([
      ["meta"],
      ["ladder", 1],
      ["pool", 1],
      ["prize-tree"],
      ["player", "7"],
    ]);
    expect(cacheEffectsOf({ type: "balance", credits: 600 }, "7")).toEqual({
      patchEvent: null,
      balance: 600,
      invalidate: [["player", "7"]],
    });
    expect(cacheEffectsOf({ type: "reset" }, "7").invalidate).toEqual([[]]);
  });

  it("reads again, after a connection that could not resume, exactly what some message can change", () => {
    const messages: StreamMessage[] = [
      { type: "odds", eventId: "e1", markets: markets(3.6) },
      { type: "event", eventId: "e1", status: "finished", winningOutcome: "home" },
      { type: "ladder", week: 2, ladder: "qualification" },
      { type: "week", week: 1, status: "finalized" },
      { type: "balance", credits: 600 },
      {
        type: "prediction",
        predictionId: "p1",
        eventId: "e1",
        status: "won",
        payout: 215,
        payoutUsdc: null,
      },
    ];
    /** Every cache key a message's effects touch (a patch: the event and the list pages; a balance: its key). */
    const touched = (m: StreamMessage, userId: string | null): CacheKey[] => {
      const e = cacheEffectsOf(m, userId);
      return [
        ...e.invalidate,
        ...(e.patchEvent ? [["event", e.patchEvent.eventId], ["events"]] : []),
        ...(e.balance !== null && userId ? [["player", userId, "balance"]] : []),
      ];
    };
    const startsWith = (key: CacheKey, prefix: CacheKey) => prefix.every((p, i) => key[i] === p);
    for (const userId of ["7", null]) {
      const prefixes = streamedPrefixes(userId);
      const keys = messages.flatMap((m) => touched(m, userId));
      for (const key of keys)
        expect(
          prefixes.some((p) => startsWith(key, p)),
          String(key),
        ).toBe(true);
      for (const prefix of prefixes)
        expect(
          keys.some((k) => startsWith(k, prefix)),
          String(prefix),
        ).toBe(true);
    }
    expect(streamedPrefixes("7")).toContainEqual(["player", "7"]);
    expect(streamedPrefixes(null).some((p) => p[0] === "player")).toBe(false);
  });

  it("patches an event only where something changed", () => {
    expect(patchedEvent(event, { markets: event.markets })).toBe(event);
    expect(patchedEvent(event, { status: "scheduled" })).toBe(event);
    expect(patchedEvent(event, { markets: markets(3.6) }).markets[0]!.outcomes[1]!.odds).toBe(3.6);
    expect(patchedEvent(event, { status: "live" })).toEqual({ ...event, status: "live" });
  });

  it("closes betting when the event is no longer scheduled or its kickoff has passed", () => {
    const before = Date.parse("2026-11-21T16:59:59.000Z");
    expect(bettingClosed(event, before)).toBe(false);
    expect(bettingClosed(event, Date.parse("2026-11-21T17:00:00.000Z"))).toBe(true);
    expect(bettingClosed({ ...event, status: "live" }, before)).toBe(true);
    expect(bettingClosed({ ...event, status: "cancelled" }, before)).toBe(true);
  });

  it("invalidates a burst's prefixes once each, a shorter prefix covering the longer ones", () => {
    expect(
      coveringPrefixes([
        ["player", "7"],
        ["ladder", 2, "champions"],
        ["player", "7", "me"],
        ["player", "7"],
      ]),
    ).toEqual([
      ["player", "7"],
      ["ladder", 2, "champions"],
    ]);
    expect(coveringPrefixes([["meta"], [], ["ladder", 1]])).toEqual([[]]);
  });

  it("finds which prices moved, and which way", () => {
    expect(oddsMoves(markets(3.4), markets(3.6))).toEqual({ "1x2/draw": "up" });
    expect(oddsMoves(markets(3.4), markets(3.2))).toEqual({ "1x2/draw": "down" });
    expect(oddsMoves(markets(3.4), markets(3.4))).toEqual({});
  });
});

describe("what a player is told when one of his bets changes", () => {
  const change = { predictionId: "17", payout: null, payoutUsdc: null };
  it("names the pick and the winnings, in credits or USDC", () => {
    expect(
      predictionToast({ ...change, status: "won", payout: 215 }, "Liverpool (Liverpool v Everton)"),
    ).toEqual({
      id: "prediction-17-won",
      tone: "good",
      text: "Your bet on Liverpool (Liverpool v Everton) won 215 credits.",
      action: { text: "Claim your winnings", status: "won" },
    });
    expect(
      predictionToast({ ...change, status: "won", payoutUsdc: "21.500000" }, "Draw (Fulham v Brentford)")!
        .text,
    ).toBe("Your bet on Draw (Fulham v Brentford) won $21.50.");
    expect(predictionToast({ ...change, status: "lost" }, null)!.text).toBe("Your bet lost.");
    expect(
      predictionToast({ ...change, status: "void", payout: 100 }, "Draw (Fulham v Brentford)")!.text,
    ).toBe("Your bet on Draw (Fulham v Brentford) was void: your stake is yours to claim back.");
    expect(predictionToast({ ...change, status: "pending" }, null)).toBeNull();
  });
});
