/**
 * Names of markets and outcomes as players read them: known market keys by name, any other key made readable
 * (`MATCH_RESULT`, `match_result`, `matchResult` → `Match result`), never shown raw; an outcome by its event's
 * label, or by its team (`home` → the home team) when the event does not label it.
 */
import type { SportEvent } from "../api";

const MARKET_NAMES: Record<string, string> = {
  "1x2": "Match result",
  match_result: "Match result",
  matchresult: "Match result",
  moneyline: "Money line",
  winner: "Winner",
  total: "Total goals",
  totals: "Total goals",
  over_under: "Over / under",
  btts: "Both teams to score",
  handicap: "Handicap",
  spread: "Point spread",
  double_chance: "Double chance",
  draw_no_bet: "Draw no bet",
};

/** `snake_case`, `SCREAMING_CASE`, `kebab-case` or `camelCase` as a sentence: `Match result`. */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_.-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  const text = words.join(" ");
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : key;
}

/** `1x2` → `Match result`, `MATCH_RESULT` → `Match result`, `corners_first` → `Corners first`. */
export const marketName = (key: string): string =>
  MARKET_NAMES[key] ?? MARKET_NAMES[key.toLowerCase()] ?? humanizeKey(key);

/** The label of an outcome of an event's market (`home` → `Arsenal`): the event's label, else readable. */
export function outcomeLabel(
  event: Pick<SportEvent, "homeTeam" | "awayTeam" | "markets">,
  market: string,
  outcome: string,
): string {
  const label = event.markets.find((m) => m.key === market)?.outcomes.find((o) => o.key === outcome)?.label;
  if (label) return label;
  switch (outcome.toLowerCase()) {
    case "home":
    case "1":
      return event.homeTeam;
    case "away":
    case "2":
      return event.awayTeam;
    case "draw":
    case "x":
      return "Draw";
    default:
      return humanizeKey(outcome);
  }
}

/** `Arsenal v Chelsea`. */
export const matchName = (event: { homeTeam: string; awayTeam: string }): string =>
  `${event.homeTeam} v ${event.awayTeam}`;
