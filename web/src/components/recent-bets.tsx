/**
 * RecentBets: the player's last five bets beside the slip, with their status (open, won, lost, void, pending,
 * rejected); refreshed whenever the player's data is invalidated (a bet, a claim, the live stream).
 */
import { useId } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { api } from "../api";
import { marketName, matchName, outcomeLabel } from "../betting/markets";
import { useOddsText } from "../betting/use-odds-text";
import { formatCredits } from "../format";
import { STATUS_TEXT } from "../pages/bets";
import { type Navigate, RouteLink } from "./route-link";
import { Usdc } from "./values";

export function RecentBets(props: { onNavigate: Navigate }) {
  const { user } = useAccount();
  const oddsText = useOddsText();
  const id = useId();
  const recent = usePlayerResource(["predictions", "recent"], () => api.predictions({ limit: 5 }), {
    staleMs: 0,
  });
  if (!user) return null;
  return (
    <section class="card recent" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} class="card-title">
        Recent bets
      </h2>
      {recent.status === "ok" ? (
        recent.data.items.length === 0 ? (
          <p class="muted small">Your bets will show here.</p>
        ) : (
          <ul class="recent-list">
            {recent.data.items.map((p) => (
              <li key={p.id} data-prediction-id={p.id}>
                <span class="recent-pick">
                  <strong>{outcomeLabel(p.event, p.market, p.outcome)}</strong>
                  <span class="muted small block">
                    {`${marketName(p.market)} · ${matchName(p.event)} · `}
                    {p.version === 2 ? <Usdc amount={p.stakeUsdc ?? "0"} /> : formatCredits(p.stake ?? 0)}
                    {` at ${oddsText(p.odds)}`}
                  </span>
                </span>
                <span class={`pill pill-${p.status}`} data-testid="recent-status">
                  {STATUS_TEXT[p.status] ?? p.status}
                </span>
              </li>
            ))}
          </ul>
        )
      ) : recent.status === "error" ? (
        <p class="error-text small">{`Couldn't load your bets: ${recent.error.message}`}</p>
      ) : (
        <p class="muted small" aria-busy="true">
          Loading…
        </p>
      )}
      <p class="small">
        <RouteLink to={{ page: "bets", status: null }} onNavigate={props.onNavigate}>
          All my bets
        </RouteLink>
      </p>
    </section>
  );
}
