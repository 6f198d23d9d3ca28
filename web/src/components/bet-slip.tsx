/**
 * BetSlip: the selections the player picked, placed together as singles with free credits (version 1), or one
 * through the wallet in USDC (version 2) when the service has a chain.
 *
 * - Each line: the pick, the odds it will be placed at, its stake, and what it returns and earns, as typed
 *   (floor(stake × odds) in integers, like the server). The totals, the balance and the per-bet maximum are
 *   checked before any request (slip-rules.ts); the reason shows instead of a request.
 * - The events of the selections follow the live stream (a new price or a closed event is written into their
 *   cached queries), and are re-read on window focus, on invalidation, and every 15 s while the stream is down.
 *   A price that changed shows on its line, old → new, with "Accept new odds"; the slip is not placed until the
 *   player accepts it, unless it got better and "always accept better odds" is on. A bet the server refuses with ODDS_CHANGED stakes nothing and shows the new price the same way.
 * - Each bet carries its own Idempotency-Key, reused only when the answer was lost (network), so a retry cannot
 *   bet twice.
 */
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { useAccount } from "../account";
import { ApiError, api, type BetPlaced, type SportEvent } from "../api";
import { marketName, matchName, outcomeLabel } from "../betting/markets";
import { ODDS_FORMATS, type OddsFormat } from "../betting/odds-format";
import {
  checkSlip,
  describeReturn,
  MAX_STAKE_CREDITS,
  type PriceChange,
  priceChange,
} from "../betting/slip-rules";
import { type SlipSelection, useSlip } from "../betting/slip-store";
import { useOddsText } from "../betting/use-odds-text";
import { writeChange } from "../cache-writes";
import { formatCredits, formatNumber } from "../format";
import { useLiveState } from "../live/use-live-updates";
import { randomKey } from "../random";
import { invalidate, queryClient, useResources } from "../use-resource";
import { type Navigate, RouteLink } from "./route-link";
import { UsdcSlip } from "./usdc-slip";

const QUICK_STAKES = [50, 100, 250, 500];
const REREAD_MS = 15_000;

type Mode = "credits" | "usdc";

interface Receipt {
  id: string;
  text: string;
}

/** The odds of an outcome in an event as the server offers it now; undefined when it is not offered. */
function offeredOdds(event: SportEvent, market: string, outcome: string, nowMs: number): number | undefined {
  if (event.status !== "scheduled" || Date.parse(event.kickoffAt) <= nowMs) return undefined;
  return event.markets.find((m) => m.key === market)?.outcomes.find((o) => o.key === outcome)?.odds;
}

/** The event with one outcome's odds replaced (the price an ODDS_CHANGED answer named). */
function withOdds(event: SportEvent, market: string, outcome: string, odds: number): SportEvent {
  return {
    ...event,
    markets: event.markets.map((m) =>
      m.key !== market
        ? m
        : { ...m, outcomes: m.outcomes.map((o) => (o.key === outcome ? { ...o, odds } : o)) },
    ),
  };
}

export function BetSlip(props: { onNavigate: Navigate }) {
  const { onNavigate } = props;
  const slip = useSlip();
  const { user, chain, balance, openSignIn, changed, serverNow } = useAccount();
  const oddsText = useOddsText();
  const id = useId();
  const [mode, setMode] = useState<Mode>("credits");
  const [busy, setBusy] = useState(false);
  const [receipts, setReceipts] = useState<Receipt[]>([]);
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});
  const [taken, setTaken] = useState<Record<string, { from: number; to: number }>>({});
  const [error, setError] = useState<string | null>(null);
  // One key per selection's bet attempt: reused only when the answer was lost.
  const keys = useRef(new Map<string, string>());
  const keyFor = (sid: string) => {
    let k = keys.current.get(sid);
    if (!k) {
      k = randomKey();
      keys.current.set(sid, k);
    }
    return k;
  };

  const eventIds = [...new Set(slip.selections.map((s) => s.eventId))];
  // Live, the stream writes new prices and closed events into these queries; while it is down they are
  // re-read every 15 s.
  const live = useLiveState();
  const fresh = useResources(
    eventIds.map((eventId) => ({ key: ["event", eventId], load: () => api.event(eventId) })),
    { staleMs: live === "open" ? 5_000 : 0, refetchIntervalMs: live === "open" ? undefined : REREAD_MS },
  );
  const nowMs = serverNow().getTime();
  const changes = new Map<string, PriceChange>();
  for (const s of slip.selections) {
    const f = fresh.find((e) => e.key[1] === s.eventId);
    const gone = f?.error instanceof ApiError && f.error.status === 404;
    // While the event is being (re)read, the price the player accepted stands.
    const current = f?.data ? offeredOdds(f.data, s.market, s.outcome, nowMs) : gone ? undefined : s.odds;
    changes.set(s.id, priceChange(s.odds, current, slip.acceptBetter));
  }

  // Better odds taken on the player's standing instruction: applied, and said on the line.
  const toTake = slip.selections.flatMap((s) => {
    const c = changes.get(s.id);
    return c?.kind === "taken" ? [{ id: s.id, from: c.from, to: c.to }] : [];
  });
  useEffect(() => {
    if (toTake.length === 0) return;
    for (const t of toTake) slip.accept(t.id, t.to);
    setTaken((m) => ({ ...m, ...Object.fromEntries(toTake.map((t) => [t.id, { from: t.from, to: t.to }])) }));
  }, [toTake.map((t) => `${t.id}@${t.to}`).join(",")]);

  const lines = slip.selections.map((s) => ({
    stake: s.stake,
    odds: s.odds,
    blocked: ["ask", "gone"].includes(changes.get(s.id)?.kind ?? "same"),
  }));
  const check = checkSlip(lines, user ? balance : null);
  const count = slip.selections.length;
  const usdcAvailable = chain !== null && user?.wallet != null;

  const accept = (s: SlipSelection, to: number) => {
    slip.accept(s.id, to);
    setLineErrors(({ [s.id]: _, ...rest }) => rest);
    setTaken(({ [s.id]: _, ...rest }) => rest);
  };

  const place = async () => {
    if (check.problem || busy) return;
    setBusy(true);
    setError(null);
    setReceipts([]);
    const placed: string[] = [];
    const done: Receipt[] = [];
    const errors: Record<string, string> = {};
    let lastBalance: number | null = null;
    for (const [i, s] of slip.selections.entries()) {
      const stake = check.lines[i]!.stake!;
      const label = outcomeLabel(s.event, s.market, s.outcome);
      try {
        const res: BetPlaced = await api.placeBet(
          { eventId: s.eventId, market: s.market, outcome: s.outcome, stake, expectedOdds: s.odds },
          keyFor(s.id),
        );
        keys.current.delete(s.id);
        placed.push(s.id);
        lastBalance = res.balance;
        done.push({
          id: res.prediction.id,
          text: `Bet placed: ${formatCredits(res.prediction.stake ?? stake)} on ${label} at ${oddsText(res.prediction.odds)}.`,
        });
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 0) keys.current.delete(s.id);
        if (err instanceof ApiError && err.code === "ODDS_CHANGED") {
          const to = (err.details as { currentOdds?: unknown } | undefined)?.currentOdds;
          if (typeof to === "number") {
            // The line now shows the server's price and waits for "accept"; nothing was staked.
            writeChange<SportEvent>(queryClient, { queryKey: ["event", s.eventId], exact: true }, (ev) =>
              ev ? withOdds(ev, s.market, s.outcome, to) : ev,
            );
            errors[s.id] =
              `The odds moved from ${oddsText(s.odds)} to ${oddsText(to)} before your bet was placed. Nothing was staked.`;
            continue;
          }
        }
        if (err instanceof ApiError && err.code === "INSUFFICIENT_CREDITS") {
          errors[s.id] = "You don't have enough credits for this stake.";
          break; // the rest would be refused too
        }
        errors[s.id] =
          err instanceof ApiError && err.code === "EVENT_CLOSED"
            ? "Betting on this event has closed: it has started."
            : err instanceof Error
              ? err.message
              : String(err);
      }
    }
    slip.removeAll(placed);
    setLineErrors(errors);
    setReceipts(done);
    if (done.length > 0) {
      if (lastBalance !== null) done.push({ id: "balance", text: `Balance: ${formatCredits(lastBalance)}.` });
      changed();
    }
    void invalidate(["events"]);
    setBusy(false);
  };

  return (
    <section
      class="card slip"
      id="bet-slip"
      aria-labelledby={`${id}-title`}
      tabIndex={-1}
      data-testid="bet-slip"
    >
      <div class="slip-head">
        <h2 id={`${id}-title`} class="slip-title">
          Bet slip{count > 0 && <span class="slip-count">{` (${count})`}</span>}
        </h2>
        <button type="button" class="button button-small slip-close" onClick={() => slip.setOpen(false)}>
          Close
        </button>
      </div>

      {receipts.length > 0 && (
        <div class="slip-done" role="status">
          {receipts.map((r) => (
            <p key={r.id} class={r.id === "balance" ? "muted small" : "status-good"}>
              {r.text}
            </p>
          ))}
          <p class="slip-links">
            <RouteLink to={{ page: "bets", status: null }} onNavigate={onNavigate}>
              See my bets
            </RouteLink>
          </p>
        </div>
      )}

      {count === 0 ? (
        receipts.length === 0 && (
          <p class="muted small">
            Pick an outcome's odds to add it here. Add several to place them together.
          </p>
        )
      ) : (
        <>
          {usdcAvailable && (
            <fieldset class="mode">
              <legend class="sr-only">Pay with</legend>
              {(["credits", "usdc"] as const).map((m) => (
                <label key={m} class={`mode-option${mode === m ? " is-selected" : ""}`}>
                  <input
                    type="radio"
                    name={`${id}-mode`}
                    value={m}
                    checked={mode === m}
                    onChange={() => setMode(m)}
                  />
                  {m === "credits" ? "Free credits" : "USDC (wallet)"}
                </label>
              ))}
            </fieldset>
          )}
          {mode === "usdc" && usdcAvailable ? (
            count === 1 ? (
              <UsdcSelection selection={slip.selections[0]!} onNavigate={onNavigate} />
            ) : (
              <p class="notice small">
                A USDC bet is sent from your wallet one at a time: keep one selection in the slip, or bet with
                free credits.
              </p>
            )
          ) : (
            <form
              class="slip-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (user) void place();
              }}
            >
              <ul class="slip-lines">
                {slip.selections.map((s, i) => (
                  <SlipLine
                    key={s.id}
                    selection={s}
                    check={check.lines[i]!}
                    change={changes.get(s.id) ?? { kind: "same" }}
                    taken={taken[s.id] ?? null}
                    error={lineErrors[s.id] ?? null}
                    onAccept={(to) => accept(s, to)}
                  />
                ))}
              </ul>
              <div class="slip-footer">
                <dl class="slip-totals">
                  <div>
                    <dt>Total stake</dt>
                    <dd data-testid="slip-total-stake">{formatCredits(check.totalStake)}</dd>
                  </div>
                  <div>
                    <dt>Potential return</dt>
                    <dd data-testid="slip-total-return">{formatCredits(check.totalReturns)}</dd>
                  </div>
                </dl>
                {user && balance !== null && (
                  <p
                    class="muted small"
                    data-testid="slip-balance"
                  >{`You have ${formatCredits(balance)}.`}</p>
                )}
                {user && check.problem && (
                  <p class="error-text small" role="alert" data-testid="slip-problem">
                    {check.problem}
                    {check.problem.startsWith("Your stakes total") && (
                      <>
                        {" "}
                        <RouteLink to={{ page: "rewards" }} onNavigate={onNavigate}>
                          Get free credits
                        </RouteLink>
                      </>
                    )}
                  </p>
                )}
                {error && (
                  <p class="error-text" role="alert">
                    {error}
                  </p>
                )}
                {user ? (
                  <button
                    type="submit"
                    class="button button-primary slip-submit"
                    disabled={busy || check.problem !== null}
                  >
                    {busy
                      ? "Placing…"
                      : count === 1
                        ? `Place ${check.lines[0]!.stake !== null ? formatCredits(check.lines[0]!.stake) : "bet"} at ${oddsText(slip.selections[0]!.odds)}`
                        : `Place ${count} bets for ${formatCredits(check.totalStake)}`}
                  </button>
                ) : (
                  <div class="slip-signed-out">
                    <p class="muted small">
                      Sign in to place these bets. New players start with free credits.
                    </p>
                    <button type="button" class="button button-primary" onClick={openSignIn}>
                      Sign in to bet
                    </button>
                  </div>
                )}
              </div>
            </form>
          )}
        </>
      )}
      <SlipSettings format={slip.oddsFormat} onFormat={slip.setOddsFormat} />
    </section>
  );
}

function SlipLine(props: {
  selection: SlipSelection;
  check: ReturnType<typeof checkSlip>["lines"][number];
  change: PriceChange;
  taken: { from: number; to: number } | null;
  error: string | null;
  onAccept: (odds: number) => void;
}) {
  const { selection: s, check, change, taken, error, onAccept } = props;
  const slip = useSlip();
  const oddsText = useOddsText();
  const id = useId();
  const label = outcomeLabel(s.event, s.market, s.outcome);
  return (
    <li class="slip-line" data-selection={s.id}>
      <div class="slip-line-head">
        <p class="slip-pick">
          <strong>{label}</strong>
          <span class="muted small block">{`${marketName(s.market)} · ${matchName(s.event)}`}</span>
        </p>
        <p class="slip-odds">
          <strong data-testid="slip-odds">{oddsText(s.odds)}</strong>
        </p>
        <button
          type="button"
          class="button button-small"
          aria-label={`Remove ${label} from the slip`}
          onClick={() => slip.remove(s.id)}
        >
          Remove
        </button>
      </div>
      {change.kind === "ask" && (
        <div class="notice slip-change" role="alert" data-testid="odds-changed">
          <p>
            {error ??
              `The odds changed from ${oddsText(change.from)} to ${oddsText(change.to)}. Your bet stays at ${oddsText(change.from)} until you accept.`}
          </p>
          <div class="price-move" data-testid="price-move">
            <del>{oddsText(change.from)}</del>
            {" → "}
            <ins>{oddsText(change.to)}</ins>
          </div>
          <button type="button" class="button button-small" onClick={() => onAccept(change.to)}>
            Accept new odds
          </button>
        </div>
      )}
      {change.kind === "gone" && (
        <p class="error-text small" role="alert">
          This outcome is no longer offered (betting may have closed). Remove it to place the rest.
        </p>
      )}
      {change.kind !== "ask" && error && (
        <p class="error-text small" role="alert">
          {error}
        </p>
      )}
      {taken && change.kind === "same" && (
        <p class="status-good small" role="status">
          {`Better odds taken: ${oddsText(taken.from)} → ${oddsText(taken.to)}.`}
        </p>
      )}
      <div class="field slip-stake">
        <label for={`${id}-stake`}>{`Stake on ${label} (credits)`}</label>
        <input
          id={`${id}-stake`}
          class="input"
          inputMode="numeric"
          value={s.stake}
          aria-invalid={check.problem !== null}
          aria-describedby={`${id}-returns`}
          onInput={(e) => slip.setStake(s.id, e.currentTarget.value)}
        />
      </div>
      <div class="quick-stakes">
        {QUICK_STAKES.map((q) => (
          <button
            key={q}
            type="button"
            class="button button-small"
            aria-pressed={check.stake === q}
            onClick={() => slip.setStake(s.id, String(q))}
          >
            {formatNumber(q)}
          </button>
        ))}
      </div>
      <p id={`${id}-returns`} class={check.problem ? "error-text small" : "small"} data-testid="slip-returns">
        {check.problem ??
          (check.returns !== null && check.profit !== null
            ? `${describeReturn(check.returns, check.profit)} and ${formatNumber(check.returns)} SP if it wins.`
            : "")}
      </p>
    </li>
  );
}

/** The odds format (kept for the next visit) and "always accept better odds". */
function SlipSettings(props: { format: OddsFormat; onFormat: (f: OddsFormat) => void }) {
  const slip = useSlip();
  const id = useId();
  return (
    <div class="slip-settings">
      <div class="field">
        <label for={`${id}-format`}>Odds format</label>
        <select
          id={`${id}-format`}
          class="input"
          value={props.format}
          onChange={(e) => props.onFormat(e.currentTarget.value as OddsFormat)}
        >
          {ODDS_FORMATS.map((f) => (
            <option key={f.value} value={f.value}>
              {`${f.label} (${f.example})`}
            </option>
          ))}
        </select>
      </div>
      <label class="check">
        <input
          type="checkbox"
          checked={slip.acceptBetter}
          onChange={(e) => slip.setAcceptBetter(e.currentTarget.checked)}
        />
        Always accept better odds
      </label>
      <p class="muted small">{`At most ${formatCredits(MAX_STAKE_CREDITS)} on one bet.`}</p>
    </div>
  );
}

function UsdcSelection(props: { selection: SlipSelection; onNavigate: Navigate }) {
  const { selection: s, onNavigate } = props;
  const oddsText = useOddsText();
  return (
    <div class="slip-line">
      <p class="slip-pick">
        <strong>{outcomeLabel(s.event, s.market, s.outcome)}</strong>
        <span class="muted small block">{`${marketName(s.market)} · ${matchName(s.event)} · ${oddsText(s.odds)}`}</span>
      </p>
      <UsdcSlip event={s.event} market={s.market} outcome={s.outcome} onNavigate={onNavigate} />
    </div>
  );
}
