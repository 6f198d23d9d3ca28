import { describe, expect, it } from "vitest";
import { humanizeKey, marketName, outcomeLabel } from "./markets";

describe("market and outcome names, never raw keys", () => {
  it("names known markets and makes any other key readable", () => {
    expect(marketName("1x2")).toBe("Match result");
    expect(marketName("match_result")).toBe("Match result");
    expect(marketName("MATCH_RESULT")).toBe("Match result");
    expect(marketName("moneyline")).toBe("Money line");
    expect(marketName("CORNERS_FIRST_HALF")).toBe("Corners first half");
    expect(marketName("playerToScore")).toBe("Player to score");
    expect(humanizeKey("over-2.5")).toBe("Over 2 5");
  });

  it("labels an outcome by the event's label, else by its team, never by its key", () => {
    const event = {
      homeTeam: "Arsenal",
      awayTeam: "Chelsea",
      markets: [{ key: "1x2", outcomes: [{ key: "home", label: "Arsenal (home)", odds: 2 }] }],
    };
    expect(outcomeLabel(event, "1x2", "home")).toBe("Arsenal (home)");
    expect(outcomeLabel(event, "moneyline", "home")).toBe("Arsenal");
    expect(outcomeLabel(event, "moneyline", "AWAY")).toBe("Chelsea");
    expect(outcomeLabel(event, "1x2", "draw")).toBe("Draw");
    expect(outcomeLabel(event, "totals", "OVER_2_5")).toBe("Over 2 5");
  });
});
