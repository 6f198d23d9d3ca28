/**
 * EventCard: an upcoming event — league, teams, kickoff in the player's time and zone — with its markets'
 * outcomes as odds buttons (in the player's odds format). A button adds the outcome to the bet slip at the price
 * shown, or takes it out again (`aria-pressed` says which). Live: a price that moves is highlighted for a moment
 * (up or down); once betting has closed (the event started, finished or was cancelled, or its kickoff passed)
 * its markets are greyed out, the buttons disabled, and the card says why.
 */

import { useAccount } from "../account";
import type { SportEvent } from "../api";
import { marketName, matchName } from "../betting/markets";
import { useSlip } from "../betting/slip-store";
import { useOddsText } from "../betting/use-odds-text";
import { bettingClosed } from "../live/stream-messages";
import { useOddsMoves } from "../live/use-odds-moves";
import { When } from "./values";

const CLOSED_TEXT: Record<SportEvent["status"], string> = {
  scheduled: "Betting has closed: kickoff has passed.",
  live: "Betting has closed: the event has started.",
  finished: "Betting has closed: the event has finished.",
  cancelled: "This event was cancelled.",
};

export function EventCard(props: { event: SportEvent }) {
  const { event } = props;
  const slip = useSlip();
  const { serverNow } = useAccount();
  const oddsText = useOddsText();
  const moves = useOddsMoves(event.markets);
  const closed = bettingClosed(event, serverNow().getTime());
  const titleId = `event-${event.id}`;
  return (
    <li class={`card event${closed ? " is-closed" : ""}`} aria-labelledby={titleId} data-event-id={event.id}>
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
        <div class={`market${closed ? " is-closed" : ""}`} key={market.key}>
          <h3 class="market-name">{marketName(market.key)}</h3>
          <div class="outcomes">
            {market.outcomes.map((o) => {
              const selected = slip.has(event.id, market.key, o.key);
              const move = moves[`${market.key}/${o.key}`];
              return (
                <button
                  key={o.key}
                  type="button"
                  class={`outcome${selected ? " is-selected" : ""}${move ? ` odds-${move}` : ""}`}
                  aria-pressed={selected}
                  disabled={closed}
                  data-move={move}
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
      {closed && (
        <p class="event-closed small" data-testid="event-closed">
          {CLOSED_TEXT[event.status]}
        </p>
      )}
    </li>
  );
}
