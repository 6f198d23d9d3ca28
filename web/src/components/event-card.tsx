/**
 * EventCard: an upcoming event — league, teams, kickoff in the player's time and zone — with its markets'
 * outcomes as odds buttons (in the player's odds format). A button adds the outcome to the bet slip at the price
 * shown, or takes it out again (`aria-pressed` says which).
 */
import type { SportEvent } from "../api";
import { marketName, matchName } from "../betting/markets";
import { useSlip } from "../betting/slip-store";
import { useOddsText } from "../betting/use-odds-text";
import { When } from "./values";

export function EventCard(props: { event: SportEvent }) {
  const { event } = props;
  const slip = useSlip();
  const oddsText = useOddsText();
  const titleId = `event-${event.id}`;
  return (
    <li class="card event" aria-labelledby={titleId} data-event-id={event.id}>
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
              const selected = slip.has(event.id, market.key, o.key);
              return (
                <button
                  key={o.key}
                  type="button"
                  class={`outcome${selected ? " is-selected" : ""}`}
                  aria-pressed={selected}
                  onClick={() => slip.toggle(event, market.key, o.key)}
                >
                  <span class="outcome-label">{o.label}</span>
                  <span class="outcome-odds">{oddsText(o.odds)}</span>
                </button>
              );
            })}
          </div>
        </div>
      ))}
    </li>
  );
}
