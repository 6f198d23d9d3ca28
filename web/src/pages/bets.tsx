/**
 * BetsPage: the player's predictions, newest first, filtered by status (kept in the URL), twenty at a time with
 * "Show more" (the API's cursor): the pick, stake, odds, status, payout, and a claim button on a won or void bet
 * not yet claimed. USDC bets still pending confirmation are re-read every few seconds.
 */
import { useEffect, useState } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { ApiError, api, type PredictionItem, type PredictionPage, type PredictionStatus } from "../api";
import { marketName, matchName, outcomeLabel } from "../betting/markets";
import { useOddsText } from "../betting/use-odds-text";
import type { Navigate } from "../components/route-link";
import { RouteLink } from "../components/route-link";
import { SignInPrompt } from "../components/sign-in-prompt";
import { Usdc, When } from "../components/values";
import { formatCredits, formatUsdc, shortWallet } from "../format";
import type { Route } from "../routes";

const PER_PAGE = 20;
const PENDING_POLL_MS = 5000;

export const STATUS_TEXT: Record<string, string> = {
  pending: "Pending",
  open: "Open",
  won: "Won",
  lost: "Lost",
  void: "Void",
  rejected: "Rejected",
};

const FILTERS: { status: PredictionStatus | null; label: string }[] = [
  { status: null, label: "All" },
  { status: "open", label: "Open" },
  { status: "won", label: "Won" },
  { status: "lost", label: "Lost" },
  { status: "void", label: "Void" },
  { status: "pending", label: "Pending" },
  { status: "rejected", label: "Rejected" },
];

type BetsRoute = Extract<Route, { page: "bets" }>;

export function BetsPage(props: { route: BetsRoute; onNavigate: Navigate }) {
  const { route, onNavigate } = props;
  const { user } = useAccount();
  useEffect(() => {
    document.title = "My bets — SP Competition";
  }, []);
  return (
    <div class="wrap page">
      <div class="page-head">
        <h1 class="page-title">My bets</h1>
        <p class="muted">Settled bets that won (or were voided) are paid when you claim them.</p>
      </div>
      {user ? (
        <BetList route={route} onNavigate={onNavigate} />
      ) : (
        <SignInPrompt what="see and claim your bets" />
      )}
    </div>
  );
}

function BetList(props: { route: BetsRoute; onNavigate: Navigate }) {
  const { route, onNavigate } = props;
  const status = route.status;
  const first = usePlayerResource(["predictions", status ?? "all"], () =>
    api.predictions({ status: status ?? undefined, limit: PER_PAGE }),
  );
  const [more, setMore] = useState<{ key: string; pages: PredictionPage[]; loading: boolean }>({
    key: "",
    pages: [],
    loading: false,
  });
  const key = status ?? "all";
  const extra = more.key === key ? more : { key, pages: [], loading: false };
  const pages = first.status === "ok" ? [first.data, ...extra.pages] : [];
  const items = pages.flatMap((p) => p.items);
  const nextCursor = pages.at(-1)?.nextCursor ?? null;

  // A USDC bet waiting for its on-chain confirmation: read the list again until it is confirmed or rejected.
  const anyPending = items.some((p) => p.status === "pending");
  const { refresh } = first;
  useEffect(() => {
    if (!anyPending) return;
    const id = setInterval(refresh, PENDING_POLL_MS);
    return () => clearInterval(id);
  }, [anyPending, refresh]);

  const showMore = async () => {
    if (!nextCursor) return;
    setMore({ ...extra, loading: true });
    try {
      const page = await api.predictions({
        status: status ?? undefined,
        limit: PER_PAGE,
        cursor: nextCursor,
      });
      setMore({ key, pages: [...extra.pages, page], loading: false });
    } catch {
      setMore({ ...extra, loading: false });
    }
  };

  return (
    <>
      <nav class="filter-tabs" aria-label="Bet status">
        {FILTERS.map((f) => (
          <RouteLink
            key={f.label}
            class={`chip-link${f.status === status ? " is-selected" : ""}`}
            to={{ page: "bets", status: f.status }}
            onNavigate={onNavigate}
            aria-current={f.status === status ? "page" : undefined}
          >
            {f.label}
          </RouteLink>
        ))}
      </nav>
      {first.status === "loading" || first.status === "idle" ? (
        <p class="muted card page-state" aria-busy="true">
          Loading your bets…
        </p>
      ) : first.status === "error" ? (
        <div class="card page-state" role="alert">
          <p class="error-text">{`Couldn't load your bets: ${first.error.message}`}</p>
          <button type="button" class="button" onClick={first.reload}>
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <div class="card page-state">
          <p class="empty-title">
            {status ? `No ${STATUS_TEXT[status]!.toLowerCase()} bets` : "No bets yet"}
          </p>
          <p>
            <RouteLink to={{ page: "play", sport: null, league: null }} onNavigate={onNavigate}>
              Find an event to bet on
            </RouteLink>
          </p>
        </div>
      ) : (
        <>
          <ul class="bets">
            {items.map((p) => (
              <BetRow key={p.id} p={p} />
            ))}
          </ul>
          {nextCursor && (
            <p class="more">
              <button type="button" class="button" onClick={showMore} disabled={extra.loading}>
                {extra.loading ? "Loading…" : "Show more bets"}
              </button>
            </p>
          )}
        </>
      )}
    </>
  );
}

function BetRow(props: { p: PredictionItem }) {
  const { p } = props;
  const { changed } = useAccount();
  const oddsText = useOddsText();
  const [claim, setClaim] = useState<{ busy: boolean; error: string | null; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });
  const usdc = p.version === 2;
  const claimable = (p.status === "won" || p.status === "void") && !p.claimed && claim.done === null;
  const payout = usdc ? (p.payoutUsdc ?? null) : (p.payout ?? null);

  const onClaim = async () => {
    setClaim({ busy: true, error: null, done: null });
    try {
      const c = await api.claim(p.id);
      const amount = c.payoutUsdc !== undefined ? formatUsdc(c.payoutUsdc) : formatCredits(c.payout ?? 0);
      setClaim({ busy: false, error: null, done: `Claimed ${amount}.` });
      changed();
    } catch (err) {
      const message =
        err instanceof ApiError && err.code === "ALREADY_CLAIMED"
          ? "Already claimed."
          : err instanceof Error
            ? err.message
            : String(err);
      setClaim({ busy: false, error: message, done: null });
      if (err instanceof ApiError && err.code === "ALREADY_CLAIMED") changed();
    }
  };

  return (
    <li class="card bet" data-prediction-id={p.id} data-status={p.status}>
      <div class="bet-main">
        <p class="bet-pick">
          <strong>{outcomeLabel(p.event, p.market, p.outcome)}</strong>
          <span class="muted">{` · ${marketName(p.market)}`}</span>
        </p>
        <p class="small">{matchName(p.event)}</p>
        <p class="muted small">
          Kickoff <When iso={p.event.kickoffAt} /> · placed <When iso={p.placedAt} />
        </p>
        {usdc && p.txHash && (
          <p class="muted small" title={p.txHash}>
            {`USDC bet · tx ${shortWallet(p.txHash)}`}
          </p>
        )}
        {p.status === "rejected" && p.rejectReason && <p class="error-text small">{p.rejectReason}</p>}
      </div>
      <dl class="bet-figures">
        <div>
          <dt>Stake</dt>
          <dd>{usdc ? <Usdc amount={p.stakeUsdc ?? "0"} /> : formatCredits(p.stake ?? 0)}</dd>
        </div>
        <div>
          <dt>Odds</dt>
          <dd>{oddsText(p.odds)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <span class={`pill pill-${p.status}`} data-testid="bet-status">
              {p.status === "pending" ? "Pending confirmation" : (STATUS_TEXT[p.status] ?? p.status)}
            </span>
          </dd>
        </div>
        {payout !== null && (
          <div>
            <dt>Payout</dt>
            <dd>{usdc ? <Usdc amount={String(payout)} /> : formatCredits(Number(payout))}</dd>
          </div>
        )}
      </dl>
      <div class="bet-actions">
        {claimable ? (
          <button type="button" class="button button-primary" onClick={onClaim} disabled={claim.busy}>
            {claim.busy
              ? "Claiming…"
              : `Claim ${usdc ? formatUsdc(p.payoutUsdc ?? "0") : formatCredits(Number(payout ?? 0))}`}
          </button>
        ) : p.claimed || claim.done ? (
          <span class="status-good small" role="status">
            {claim.done ?? "Claimed"}
          </span>
        ) : null}
        {claim.error && (
          <p class="error-text small" role="alert">
            {claim.error}
          </p>
        )}
      </div>
    </li>
  );
}
