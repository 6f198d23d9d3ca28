/**
 * PlayPage: upcoming events with their odds, filtered by sport and league (kept in the URL), ten at a time with
 * "Show more events" (the API's cursor); the bet slip and the player's recent bets beside them on a desktop, and on
 * a phone behind a bar fixed to the bottom of the screen (the slip's count and return, always in reach) that opens
 * the slip as a sheet.
 */
import { useEffect, useState } from "preact/hooks";
import { useAccount } from "../account";
import { api, type EventPage, type SportEvent } from "../api";
import { checkSlip } from "../betting/slip-rules";
import { useSlip } from "../betting/slip-store";
import { BetSlip } from "../components/bet-slip";
import { EventCard } from "../components/event-card";
import { RecentBets } from "../components/recent-bets";
import type { Navigate } from "../components/route-link";
import { formatCredits } from "../format";
import type { Route } from "../routes";
import { invalidate, useResource, useResources } from "../use-resource";

const EVENTS_PER_PAGE = 10;
/** Filter choices come from this many upcoming events (the API has no list of sports and leagues). */
const FACET_SAMPLE = 100;

type PlayRoute = Extract<Route, { page: "play" }>;

/** Sports and their leagues among the next upcoming events, sorted by name. */
function facetsOf(events: SportEvent[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>();
  for (const e of events) {
    const leagues = map.get(e.sport) ?? new Set<string>();
    leagues.add(e.league);
    map.set(e.sport, leagues);
  }
  const sorted = [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
  return new Map(sorted.map(([sport, leagues]) => [sport, [...leagues].sort((a, b) => a.localeCompare(b))]));
}

export function PlayPage(props: {
  route: PlayRoute;
  onNavigate: Navigate;
  onReplace: (route: Route) => void;
}) {
  const { route, onNavigate, onReplace } = props;
  const { user, balance } = useAccount();
  const { sport, league } = route;
  useEffect(() => {
    document.title = "Play — SP Competition";
  }, []);

  const facets = useResource(["facets"], async () =>
    facetsOf((await api.events({ limit: FACET_SAMPLE })).items),
  );
  const sports = facets.status === "ok" ? facets.data : new Map<string, string[]>();
  const leagues = sport ? (sports.get(sport) ?? []) : [...new Set([...sports.values()].flat())].sort();

  const filterKey = `${sport ?? ""}/${league ?? ""}`;
  // Prices move: the list is re-read whenever the window comes back into view or the events are invalidated.
  const first = useResource(
    ["events", sport, league],
    () => api.events({ sport: sport ?? undefined, league: league ?? undefined, limit: EVENTS_PER_PAGE }),
    { staleMs: 0 },
  );
  // "Show more events": the cursors asked for, each page its own cached query under the list's key, so the live
  // stream's patches (a new price, a closed event) and invalidations reach every page shown.
  const [more, setMore] = useState<{ key: string; cursors: string[] }>({ key: filterKey, cursors: [] });
  const cursors = more.key === filterKey ? more.cursors : [];
  const extraPages = useResources(
    cursors.map((cursor) => ({
      key: ["events", sport, league, cursor],
      load: () =>
        api.events({
          sport: sport ?? undefined,
          league: league ?? undefined,
          limit: EVENTS_PER_PAGE,
          cursor,
        }),
    })),
  );
  const loaded: EventPage[] = [];
  for (const p of extraPages) {
    if (!p.data) break;
    loaded.push(p.data);
  }
  const lastExtra = extraPages.at(-1);
  const extra = {
    loading: lastExtra !== undefined && lastExtra.data === undefined && lastExtra.error === null,
    error: lastExtra?.error ? lastExtra.error.message : null,
  };
  const pages = first.status === "ok" ? [first.data, ...loaded] : [];
  // A page re-read after events closed may repeat one of the next page's: each event is listed once.
  const events = [...new Map(pages.flatMap((p) => p.items).map((e) => [e.id, e])).values()];
  const nextCursor = pages.at(-1)?.nextCursor ?? null;

  const showMore = () => {
    const failed = extra.error ? cursors.at(-1) : undefined;
    if (failed !== undefined) {
      void invalidate(["events", sport, league, failed]);
      return;
    }
    if (!nextCursor || cursors.includes(nextCursor)) return;
    setMore({ key: filterKey, cursors: [...cursors, nextCursor] });
  };

  const setFilter = (next: { sport: string | null; league: string | null }) => {
    setMore({ key: `${next.sport ?? ""}/${next.league ?? ""}`, cursors: [] });
    onReplace({ page: "play", ...next });
  };

  return (
    <div class="wrap page play">
      <div class="play-main">
        <div class="page-head">
          <h1 class="page-title">Play</h1>
          <p class="muted">
            Pick the odds of an outcome to add it to the bet slip (several make several bets). A won
            free-credit bet pays stake × odds in credits and earns as many SP for that week's ladders.
            {user && balance !== null && ` You have ${formatCredits(balance)}.`}
          </p>
        </div>
        <form class="filters" aria-label="Filter events" onSubmit={(e) => e.preventDefault()}>
          <div class="field">
            <label for="filter-sport">Sport</label>
            <select
              id="filter-sport"
              class="input"
              value={sport ?? ""}
              onChange={(e) => setFilter({ sport: e.currentTarget.value || null, league: null })}
            >
              <option value="">All sports</option>
              {[...sports.keys()].map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
              {sport && !sports.has(sport) && <option value={sport}>{sport}</option>}
            </select>
          </div>
          <div class="field">
            <label for="filter-league">League</label>
            <select
              id="filter-league"
              class="input"
              value={league ?? ""}
              onChange={(e) => setFilter({ sport, league: e.currentTarget.value || null })}
            >
              <option value="">All leagues</option>
              {leagues.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
              {league && !leagues.includes(league) && <option value={league}>{league}</option>}
            </select>
          </div>
          {(sport || league) && (
            <button type="button" class="button" onClick={() => setFilter({ sport: null, league: null })}>
              Clear filters
            </button>
          )}
        </form>

        {first.status === "loading" || first.status === "idle" ? (
          <p class="muted card page-state" aria-busy="true">
            Loading events…
          </p>
        ) : first.status === "error" ? (
          <div class="card page-state" role="alert">
            <p class="error-text">{`Couldn't load the events: ${first.error.message}`}</p>
            <button type="button" class="button" onClick={first.reload}>
              Try again
            </button>
          </div>
        ) : events.length === 0 ? (
          <div class="card page-state">
            <p class="empty-title">No upcoming events</p>
            <p class="muted">
              {sport || league
                ? "Nothing matches these filters right now."
                : "New events appear here before kickoff."}
            </p>
          </div>
        ) : (
          <>
            <ul class="events" aria-label="Upcoming events">
              {events.map((event) => (
                <EventCard key={event.id} event={event} />
              ))}
            </ul>
            {extra.error && (
              <p class="error-text" role="alert">
                {`Couldn't load more events: ${extra.error}`}
              </p>
            )}
            {nextCursor && (
              <p class="more">
                <button type="button" class="button" onClick={showMore} disabled={extra.loading}>
                  {extra.loading ? "Loading…" : "Show more events"}
                </button>
              </p>
            )}
          </>
        )}
      </div>
      <PlaySide onNavigate={onNavigate} />
    </div>
  );
}

/** The slip and recent bets: a column on a desktop; on a phone a sheet opened from the bottom bar. */
function PlaySide(props: { onNavigate: Navigate }) {
  const slip = useSlip();
  const { balance, user } = useAccount();
  const count = slip.selections.length;
  const check = checkSlip(
    slip.selections.map((s) => ({ stake: s.stake, odds: s.odds, blocked: false })),
    user ? balance : null,
  );
  const open = () => {
    slip.setOpen(true);
    // The sheet takes the focus, so a keyboard or screen-reader user lands in it.
    requestAnimationFrame(() => document.getElementById("bet-slip")?.focus());
  };
  return (
    <>
      <aside class={`play-side${slip.open ? " is-open" : ""}`} aria-label="Bet slip and recent bets">
        <BetSlip onNavigate={props.onNavigate} />
        <RecentBets onNavigate={props.onNavigate} />
      </aside>
      {!slip.open && (
        <div class="slip-bar">
          <button type="button" class="slip-bar-button" aria-controls="bet-slip" onClick={open}>
            <span class="slip-bar-label">{`Bet slip (${count})`}</span>
            <span class="slip-bar-figure">
              {count > 0 ? `Returns ${formatCredits(check.totalReturns)}` : "Pick odds to start"}
            </span>
          </button>
        </div>
      )}
    </>
  );
}
