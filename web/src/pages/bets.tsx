/**
 * BetsPage: the player's predictions, newest first, filtered by status (kept in the URL), twenty at a time with
 * "Show more" (the API's cursor): the pick, stake, odds, status, payout, why a rejected bet does not count, and a
 * claim button: "Claim winnings" on a won bet, "Get stake back" on a void one or a rejected USDC bet. A USDC claim
 * is a payout voucher the browser wallet sends to the betting contract (the pending transaction shows until it is
 * mined). USDC bets still pending confirmation are re-read every few seconds.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { ApiError, api, type PredictionItem, type PredictionPage, type PredictionStatus } from "../api";
import { marketName, matchName, outcomeLabel } from "../betting/markets";
import { claimPayoutOnChain, isVoucher } from "../betting/payout-claim";
import { useOddsText } from "../betting/use-odds-text";
import type { Navigate } from "../components/route-link";
import { RouteLink } from "../components/route-link";
import { SignInPrompt } from "../components/sign-in-prompt";
import { Usdc, When } from "../components/values";
import { formatCredits, formatUsdc, shortWallet } from "../format";
import type { Route } from "../routes";
import { storedWalletId } from "../session/stored";
import { useBrowserWallets } from "../session/wallets";

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

/** Why a rejected bet does not count, in words a player reads (the service's words when it has none here). */
const REJECT_TEXT: Record<string, string> = {
  EVENT_CLOSED: "Placed after betting on the match had closed: it does not count.",
  QUOTE_INVALID: "Placed with a price this service did not offer: it does not count.",
  QUOTE_EXPIRED: "Placed after its price had expired: it does not count.",
  OUTCOME_UNAVAILABLE: "That outcome is no longer offered: the bet does not count.",
  STAKE_LIMIT: "The stake is beyond what one bet may be: it does not count.",
  REORGANISED: "The block holding the bet left the chain (a reorganisation): it was never placed.",
};

/**
 * What a bet can claim: a won one its winnings, a void one its stake, a rejected USDC bet still on-chain its stake
 * back (a reorganised one was never placed). Null when nothing. (Credits are paid at once: "Claim N credits".)
 */
function claimOf(p: PredictionItem): { label: string } | null {
  if (p.claimed) return null;
  if (p.status === "won") return { label: "Claim winnings" };
  if (p.status === "void") return { label: "Get stake back" };
  if (p.status === "rejected" && p.version === 2 && p.rejectReason !== "REORGANISED") {
    return { label: "Get stake back" };
  }
  return null;
}

function BetRow(props: { p: PredictionItem }) {
  const { p } = props;
  const { changed } = useAccount();
  const oddsText = useOddsText();
  const wallets = useBrowserWallets();
  const wallet = useMemo(
    () => wallets.find((w) => w.id === storedWalletId()) ?? wallets[0] ?? null,
    [wallets],
  );
  const [claim, setClaim] = useState<{
    busy: string | null;
    error: string | null;
    done: string | null;
    txHash: string | null;
  }>({ busy: null, error: null, done: null, txHash: null });
  const usdc = p.version === 2;
  const owed = claim.done === null ? claimOf(p) : null;
  const payout = usdc ? (p.payoutUsdc ?? null) : (p.payout ?? null);

  const onClaim = async () => {
    setClaim({ busy: "Claiming…", error: null, done: null, txHash: null });
    try {
      const c = await api.claim(p.id);
      if (isVoucher(c)) {
        if (!wallet) throw new Error("No browser wallet found: USDC payouts are collected with your wallet.");
        setClaim({ busy: "Confirm the payout in your wallet…", error: null, done: null, txHash: null });
        const txHash = await claimPayoutOnChain({
          provider: wallet.provider,
          voucher: c,
          onSent: (hash) =>
            setClaim({
              busy: "Payout sent: waiting for it to be mined…",
              error: null,
              done: null,
              txHash: hash,
            }),
        });
        setClaim({
          busy: null,
          error: null,
          done: `Paid ${formatUsdc(c.amountUsdc)} to ${shortWallet(c.account)}.`,
          txHash,
        });
      } else {
        const amount = c.payoutUsdc !== undefined ? formatUsdc(c.payoutUsdc) : formatCredits(c.payout ?? 0);
        setClaim({ busy: null, error: null, done: `Claimed ${amount}.`, txHash: null });
      }
      changed();
    } catch (err) {
      const message =
        err instanceof ApiError && err.code === "ALREADY_CLAIMED"
          ? "Already claimed."
          : err instanceof Error
            ? err.message
            : String(err);
      setClaim({ busy: null, error: message, done: null, txHash: null });
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
        {p.status === "rejected" && (p.rejectReason || p.rejectMessage) && (
          <p class="error-text small" data-testid="reject-reason" title={p.rejectMessage ?? undefined}>
            {(p.rejectReason && REJECT_TEXT[p.rejectReason]) ?? p.rejectMessage}
          </p>
        )}
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
        {owed ? (
          <button
            type="button"
            class="button button-primary"
            onClick={onClaim}
            disabled={claim.busy !== null}
            data-testid="claim-button"
          >
            {claim.busy ??
              (!usdc
                ? `Claim ${formatCredits(Number(payout ?? 0))}`
                : p.status === "won"
                  ? `${owed.label} · ${formatUsdc(p.payoutUsdc ?? "0")}`
                  : owed.label)}
          </button>
        ) : p.claimed || claim.done ? (
          <span class="status-good small" role="status" data-testid="claimed">
            {claim.done ?? "Claimed"}
          </span>
        ) : null}
        {claim.txHash && (
          <p class="muted small" title={claim.txHash} data-testid="payout-tx">
            {`Payout transaction ${shortWallet(claim.txHash)}`}
          </p>
        )}
        {claim.error && (
          <p class="error-text small" role="alert">
            {claim.error}
          </p>
        )}
      </div>
    </li>
  );
}
