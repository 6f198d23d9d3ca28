/**
 * Factories of test data, after outline's server/test/factories.ts: each builds a valid object from defaults, and
 * a test overrides only the fields its assertions are about. They build request bodies; tests send them through
 * the API (or a CLI command, or a use case) themselves.
 */
import type { EventUpsertInput } from "../src/events/schema.js";

/** The default kickoff: Wed 2026-11-25 18:00 UTC, in week 3 = [Tue 2026-11-24, Tue 2026-12-01) of the test season. */
export const KICKOFF = "2026-11-25T18:00:00.000Z";

type MarketBody = EventUpsertInput["markets"][number];

/** A market from `[key, label, odds]` outcomes. */
export function buildMarket(key: string, ...outcomes: Array<[string, string, number]>): MarketBody {
  return { key, outcomes: outcomes.map(([k, label, odds]) => ({ key: k, label, odds })) };
}

/**
 * An admin event body (`PUT /api/admin/events/:id`, the CLI's event-upsert and import-events): football, Premier
 * League, Arsenal v Chelsea at KICKOFF, market "1x2" (home 2.15, draw 3.4, away 3.1) and market "total" (over
 * 1.95, under 1.85). Any field can be set through `over`, also to a value (or a field) the schema refuses.
 */
export function buildEventBody(over: Record<string, unknown> = {}): EventUpsertInput {
  return {
    sport: "football",
    league: "Premier League",
    homeTeam: "Arsenal",
    awayTeam: "Chelsea",
    kickoffAt: KICKOFF,
    markets: [
      buildMarket("1x2", ["home", "Arsenal", 2.15], ["draw", "Draw", 3.4], ["away", "Chelsea", 3.1]),
      buildMarket("total", ["over", "Over 2.5", 1.95], ["under", "Under 2.5", 1.85]),
    ],
    ...over,
  } as EventUpsertInput;
}

/**
 * A version-1 bet body (`POST /api/pred2earn/bet-placed`) on `eventId`: market "1x2", outcome "home", stake 10
 * credits. Any field can be set through `over`.
 */
export function buildBetBody(eventId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { eventId, market: "1x2", outcome: "home", stake: 10, ...over };
}
