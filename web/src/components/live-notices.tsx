/**
 * The live stream's notices, over the page (at the bottom left on a desktop, right under the sticky header on a
 * phone):
 * - OfflineBanner: while the stream is down, "You're offline …" in a polite live region (present from the start,
 *   so screen readers announce it when it fills); gone when the stream is back.
 * - Toasts: what happened to the player's bets ("Your bet on … won 215 credits."), each with its link and a
 *   "Dismiss" button, in a polite live region; they leave by themselves after a while, not while the pointer or
 *   the focus is on them.
 */
import { useLive } from "../live/use-live-updates";
import { type Navigate, RouteLink } from "./route-link";

export function LiveNotices(props: { onNavigate: Navigate }) {
  const { onNavigate } = props;
  const { state, toasts, dismiss: onDismiss, pauseToasts: onPause } = useLive();
  return (
    <div class="live-notices">
      <div
        class="toasts"
        role="status"
        aria-live="polite"
        onMouseEnter={() => onPause(true)}
        onMouseLeave={() => onPause(false)}
        onFocusIn={() => onPause(true)}
        onFocusOut={() => onPause(false)}
      >
        {toasts.map((t) => (
          <div key={t.id} class={`toast toast-${t.tone}`} data-testid="toast">
            <p class="toast-text">{t.text}</p>
            <p class="toast-actions">
              {t.action && (
                <RouteLink to={{ page: "bets", status: t.action.status }} onNavigate={onNavigate}>
                  {t.action.text}
                </RouteLink>
              )}
              <button type="button" class="button button-small" onClick={() => onDismiss(t.id)}>
                Dismiss
              </button>
            </p>
          </div>
        ))}
      </div>
      <div class="offline-region" role="status" aria-live="polite">
        {state === "offline" && (
          <p class="offline-banner" data-testid="offline-banner">
            <strong>You're offline.</strong> Live updates are paused; reconnecting…
          </p>
        )}
      </div>
    </div>
  );
}
