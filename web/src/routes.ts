/**
 * Where the player is, kept in the URL so a link reproduces it (and opens in a new tab):
 * - `/` the weekly competition: `?week=3&type=champions&page=2` (no week = the current one), `#me` = scroll to my row;
 * - `/play?sport=…&league=…` events and the bet slip; `/bets?status=…` my predictions; `/rewards`;
 *   `/leaderboard?page=N` all-time SP; `/profile`; `/how-it-works` the rules.
 * Unknown paths show the weekly page. `?ref=CODE` (an invite link) is read once by the app and removed.
 */
import type { LadderType, PredictionStatus } from "./api";

export type Route =
  | { page: "weekly"; week: number | null; type: LadderType; pageNo: number }
  | { page: "play"; sport: string | null; league: string | null }
  | { page: "bets"; status: PredictionStatus | null }
  | { page: "rewards" }
  | { page: "leaderboard"; pageNo: number }
  | { page: "profile" }
  | { page: "how" };

export type PageName = Route["page"];

/** Rows per ladder and leaderboard page. */
export const PAGE_SIZE = 50;

const PATHS: Record<PageName, string> = {
  weekly: "/",
  play: "/play",
  bets: "/bets",
  rewards: "/rewards",
  leaderboard: "/leaderboard",
  profile: "/profile",
  how: "/how-it-works",
};

const STATUSES: readonly PredictionStatus[] = ["pending", "open", "won", "lost", "void", "rejected"];

const wholeNumber = (s: string | null, min: number): number | null => {
  if (s === null || !/^\d{1,6}$/.test(s)) return null;
  const n = Number(s);
  return n >= min ? n : null;
};

const text = (s: string | null): string | null => (s && s.length <= 100 ? s : null);

export function readRoute(pathname: string, search: string): Route {
  const p = new URLSearchParams(search);
  const path = pathname.replace(/\/+$/, "") || "/";
  switch (path) {
    case "/play":
      return { page: "play", sport: text(p.get("sport")), league: text(p.get("league")) };
    case "/bets": {
      const status = p.get("status");
      return { page: "bets", status: STATUSES.find((s) => s === status) ?? null };
    }
    case "/rewards":
      return { page: "rewards" };
    case "/leaderboard":
      return { page: "leaderboard", pageNo: wholeNumber(p.get("page"), 1) ?? 1 };
    case "/profile":
      return { page: "profile" };
    case "/how-it-works":
      return { page: "how" };
    default:
      return {
        page: "weekly",
        week: wholeNumber(p.get("week"), 0),
        type: p.get("type") === "champions" ? "champions" : "qualification",
        pageNo: wholeNumber(p.get("page"), 1) ?? 1,
      };
  }
}

/** The URL of a route; defaults are left out, so the plain `/` stays the live week. */
export function routeHref(route: Route, hash = ""): string {
  const p = new URLSearchParams();
  switch (route.page) {
    case "weekly":
      if (route.week !== null) p.set("week", String(route.week));
      if (route.type !== "qualification") p.set("type", route.type);
      if (route.pageNo > 1) p.set("page", String(route.pageNo));
      break;
    case "play":
      if (route.sport) p.set("sport", route.sport);
      if (route.league) p.set("league", route.league);
      break;
    case "bets":
      if (route.status) p.set("status", route.status);
      break;
    case "leaderboard":
      if (route.pageNo > 1) p.set("page", String(route.pageNo));
      break;
  }
  const q = p.toString();
  return `${PATHS[route.page]}${q ? `?${q}` : ""}${hash}`;
}

/** The weekly view of a ladder page. */
export const weekly = (week: number | null, type: LadderType, pageNo = 1): Route => ({
  page: "weekly",
  week,
  type,
  pageNo,
});

/** The ladder page holding a rank (pages of PAGE_SIZE; ties sharing a rank all sit from that position on). */
export const pageOfRank = (rank: number): number => Math.floor((rank - 1) / PAGE_SIZE) + 1;
