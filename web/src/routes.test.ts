import { describe, expect, it } from "vitest";
import { pageOfRank, readRoute, routeHref } from "./routes";

describe("routes in the URL", () => {
  it("reads and writes every page", () => {
    const cases = [
      ["/", ""],
      ["/", "?week=3&type=champions&page=2"],
      ["/play", "?sport=football&league=Serie+A"],
      ["/bets", "?status=won"],
      ["/rewards", ""],
      ["/leaderboard", "?page=4"],
      ["/profile", ""],
      ["/how-it-works", ""],
    ] as const;
    for (const [path, search] of cases) {
      expect(routeHref(readRoute(path, search))).toBe(`${path}${search}`);
    }
  });

  it("falls back on malformed values and unknown paths", () => {
    expect(readRoute("/", "?week=-1&type=x&page=0")).toEqual({
      page: "weekly",
      week: null,
      type: "qualification",
      pageNo: 1,
    });
    expect(readRoute("/bets", "?status=paid")).toEqual({ page: "bets", status: null });
    expect(readRoute("/nowhere", "").page).toBe("weekly");
    expect(readRoute("/play/", "").page).toBe("play");
  });

  it("finds the ladder page of a rank (50 per page)", () => {
    expect(pageOfRank(1)).toBe(1);
    expect(pageOfRank(50)).toBe(1);
    expect(pageOfRank(51)).toBe(2);
    expect(pageOfRank(59)).toBe(2);
  });

  it("keeps the hash of 'Show in ladder'", () => {
    expect(routeHref({ page: "weekly", week: 2, type: "qualification", pageNo: 2 }, "#me")).toBe(
      "/?week=2&page=2#me",
    );
  });
});
