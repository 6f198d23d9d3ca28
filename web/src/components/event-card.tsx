/**
 * EventCard: an upcoming event — league, teams, kickoff in the player's time — with its markets' outcomes as
 * odds buttons. The picked outcome opens the bet slip inside the card, next to what was picked (on a phone too).
 */
import type { SportEvent } from "../api";
import { marketName, matchName } from "../betting/markets";
import { formatOdds } from "../betting/odds";
import { BetSlip } from "./bet-slip";
import type { Navigate } from "./route-link";
import { When } from "./values";

export interface Pick {
  eventId: string;
  market: string;
  outcome: string;
}

export function EventCard(props: {
  event: SportEvent;
  pick: Pick | null;
  onPick: (pick: Pick | null) => void;
  onOddsMoved: () => void;
  onNavigate: Navigate;
}) {
  const { event, pick, onPick, onOddsMoved, onNavigate } = props;
  const mine = pick?.eventId === event.id ? pick : null;
  const titleId = `event-${event.id}`;
  const pickedOdds = mine
    ? event.markets.find((m) => m.key === mine.market)?.outcomes.find((o) => o.key === mine.outcome)?.odds
    : undefined;
  return (
    <li class="card event" data-event-id={event.id}>
      <p class="event-meta small">
        <span>{`${event.sport} · ${event.league}`}</span>
        {event.warmup && (
          <span class="tag" title="Warm-up events count like any other for SP">
            Warm-up
          </span>
        )}
      </p>
      <h2 id={titleId} class="event-title">
        {matchName(event)}
      </h2>
      <p class="muted small">
        Kickoff <When iso={event.kickoffAt} />
      </p>
      {event.markets.map((market) => (
        <div class="market" key={market.key}>
          <h3 class="market-name">{marketName(market.key)}</h3>
          <div class="outcomes">
            {market.outcomes.map((o) => {
              const selected = mine?.market === market.key && mine.outcome === o.key;
              return (
                <button
                  key={o.key}
                  type="button"
                  class={`outcome${selected ? " is-selected" : ""}`}
                  aria-pressed={selected}
                  onClick={() =>
                    onPick(selected ? null : { eventId: event.id, market: market.key, outcome: o.key })
                  }
                >
                  <span class="outcome-label">{o.label}</span>
                  <span class="outcome-odds">{formatOdds(o.odds)}</span>
                </button>
              );
            })}
          </div>
        </div>
      ))}
      {mine && pickedOdds !== undefined && (
        <BetSlip
          key={`${mine.market}/${mine.outcome}`}
          event={event}
          market={mine.market}
          outcome={mine.outcome}
          odds={pickedOdds}
          onClose={() => onPick(null)}
          onOddsMoved={onOddsMoved}
          onNavigate={onNavigate}
        />
      )}
    </li>
  );
}
