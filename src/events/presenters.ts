/** What goes out about an event: odds as decimal numbers, instants as ISO strings. */
import { formatOdds } from "../shared/money.js";
import type { EventRow, StoredMarket } from "./events.js";
import type { EventStatus } from "./schema.js";

export function presentMarkets(markets: unknown) {
  return (markets as StoredMarket[]).map((m) => ({
    key: m.key,
    outcomes: m.outcomes.map((o) => ({ key: o.key, label: o.label, odds: formatOdds(BigInt(o.oddsMilli)) })),
  }));
}

export function presentEvent(e: EventRow) {
  return {
    id: e.id,
    sport: e.sport,
    league: e.league,
    homeTeam: e.homeTeam,
    awayTeam: e.awayTeam,
    kickoffAt: e.kickoffAt.toISOString(),
    // The column allows only these (events_status_check).
    status: e.status as EventStatus,
    warmup: e.warmup,
    markets: presentMarkets(e.markets),
  };
}

export function presentOdds(e: EventRow) {
  return { eventId: e.id, updatedAt: e.oddsUpdatedAt.toISOString(), markets: presentMarkets(e.markets) };
}
