/** Names of markets and outcomes as players read them. */
import type { SportEvent } from "../api";

const MARKET_NAMES: Record<string, string> = {
  "1x2": "Match result",
  winner: "Winner",
  total: "Total goals",
  btts: "Both teams to score",
  handicap: "Handicap",
};

/** `1x2` → `Match result`; unknown keys are shown as they are. */
export const marketName = (key: string): string => MARKET_NAMES[key] ?? key;

/** The label of an outcome of an event's market (`home` → `Arsenal`), or its key when unknown. */
export function outcomeLabel(event: SportEvent, market: string, outcome: string): string {
  return (
    event.markets.find((m) => m.key === market)?.outcomes.find((o) => o.key === outcome)?.label ?? outcome
  );
}

/** `Arsenal v Chelsea`. */
export const matchName = (event: { homeTeam: string; awayTeam: string }): string =>
  `${event.homeTeam} v ${event.awayTeam}`;
