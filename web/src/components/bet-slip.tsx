/**
 * BetSlip: one pick (event, market, outcome) and its stake. Free credits (version 1): the bet is placed at the odds
 * shown, sent as `expectedOdds`; when the price moved meanwhile the server answers ODDS_CHANGED with the new odds,
 * and the slip shows both and asks again. USDC (version 2, when the service has a chain and the player a wallet):
 * a signed quote, then the wallet's approve and placeBet transactions, then pending → confirmed.
 */
import { useEffect, useId, useMemo, useRef, useState } from "preact/hooks";
import { useAccount } from "../account";
import { ApiError, api, type BetPlaced, type SignedQuote, type SportEvent } from "../api";
import { marketName, matchName, outcomeLabel } from "../betting/markets";
import { formatOdds, usdcWinningsOf, winningsOf } from "../betting/odds";
import { type OnchainStep, placeOnchainBet, requestQuote } from "../betting/onchain-bet";
import { formatCredits, formatNumber, microToUsdc, parseUsdcInput } from "../format";
import { randomKey } from "../random";
import { storedWalletId } from "../session/stored";
import { useBrowserWallets } from "../session/wallets";
import { type Navigate, RouteLink } from "./route-link";
import { CountdownTo, Usdc, useTick } from "./values";

type Mode = "credits" | "usdc";

type Outcome =
  | { kind: "idle" }
  | { kind: "busy" }
  | { kind: "placed"; prediction: BetPlaced["prediction"]; balance: number }
  | { kind: "odds-changed"; from: number; to: number }
  | { kind: "error"; message: string; needsCredits?: boolean };

const QUICK_STAKES = [50, 100, 250, 500];

export function BetSlip(props: {
  event: SportEvent;
  market: string;
  outcome: string;
  odds: number;
  onClose: () => void;
  onOddsMoved: () => void;
  onNavigate: Navigate;
}) {
  const { event, market, outcome, onClose, onOddsMoved, onNavigate } = props;
  const { user, chain, balance, openSignIn, changed } = useAccount();
  const id = useId();
  const [mode, setMode] = useState<Mode>("credits");
  const [odds, setOdds] = useState(props.odds);
  const [stake, setStake] = useState("100");
  const [result, setResult] = useState<Outcome>({ kind: "idle" });
  // One key per bet attempt: reused only when the answer was lost (network), so a retry cannot bet twice.
  const key = useRef(randomKey());

  useEffect(() => {
    setOdds(props.odds);
  }, [props.odds]);

  const label = outcomeLabel(event, market, outcome);
  const usdcAvailable = chain !== null && user?.wallet != null;
  const stakeCredits = /^\d{1,9}$/.test(stake.trim()) ? Number(stake.trim()) : null;
  const creditsValid = stakeCredits !== null && stakeCredits >= 1;
  const returns = creditsValid ? winningsOf(stakeCredits, odds) : null;

  const place = async (atOdds: number) => {
    if (!creditsValid) return;
    setResult({ kind: "busy" });
    try {
      const placed = await api.placeBet(
        { eventId: event.id, market, outcome, stake: stakeCredits, expectedOdds: atOdds },
        key.current,
      );
      key.current = randomKey();
      setResult({ kind: "placed", ...placed });
      changed();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 0) key.current = randomKey();
      if (err instanceof ApiError && err.code === "ODDS_CHANGED") {
        const to = (err.details as { currentOdds?: unknown } | undefined)?.currentOdds;
        if (typeof to === "number") {
          setResult({ kind: "odds-changed", from: atOdds, to });
          setOdds(to);
          onOddsMoved();
          return;
        }
      }
      setResult(errorOutcome(err));
    }
  };

  return (
    <form
      class="slip"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        if (mode === "credits") place(odds);
      }}
    >
      <div class="slip-head">
        <h3 id={`${id}-title`} class="slip-title">
          Bet slip
        </h3>
        <button type="button" class="button button-small" onClick={onClose}>
          Remove
        </button>
      </div>
      <p class="slip-pick">
        <strong>{label}</strong>
        <span class="muted">{` · ${marketName(market)} · ${matchName(event)}`}</span>
      </p>
      <p class="slip-odds">
        Odds <strong data-testid="slip-odds">{formatOdds(odds)}</strong>
      </p>

      {!user ? (
        <div class="slip-signed-out">
          <p class="muted small">Sign in to place this bet. New players start with free credits.</p>
          <button type="button" class="button button-primary" onClick={openSignIn}>
            Sign in to bet
          </button>
        </div>
      ) : result.kind === "placed" ? (
        <div class="slip-done" role="status">
          <p class="status-good">
            {`Bet placed: ${formatCredits(result.prediction.stake ?? 0)} on ${label} at ${formatOdds(result.prediction.odds)}.`}
          </p>
          <p class="muted small">{`Balance: ${formatCredits(result.balance)}.`}</p>
          <p class="slip-links">
            <RouteLink to={{ page: "bets", status: null }} onNavigate={onNavigate}>
              See my bets
            </RouteLink>
            <button type="button" class="button button-small" onClick={() => setResult({ kind: "idle" })}>
              Bet again
            </button>
          </p>
        </div>
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
                    onChange={() => {
                      setMode(m);
                      setResult({ kind: "idle" });
                    }}
                  />
                  {m === "credits" ? "Free credits" : "USDC (wallet)"}
                </label>
              ))}
            </fieldset>
          )}
          {mode === "credits" ? (
            <>
              <div class="field">
                <label for={`${id}-stake`}>Stake (credits)</label>
                <input
                  id={`${id}-stake`}
                  class="input"
                  inputMode="numeric"
                  value={stake}
                  aria-invalid={!creditsValid}
                  aria-describedby={`${id}-returns`}
                  onInput={(e) => setStake(e.currentTarget.value)}
                />
              </div>
              <div class="quick-stakes">
                {QUICK_STAKES.map((q) => (
                  <button
                    key={q}
                    type="button"
                    class="button button-small"
                    aria-pressed={stakeCredits === q}
                    onClick={() => setStake(String(q))}
                  >
                    {formatNumber(q)}
                  </button>
                ))}
              </div>
              <p id={`${id}-returns`} class="small">
                {returns !== null
                  ? `Returns ${formatCredits(returns)} and ${formatNumber(returns)} SP if it wins.`
                  : "Enter a whole number of credits."}
                {balance !== null && <span class="muted">{` You have ${formatCredits(balance)}.`}</span>}
              </p>
              {result.kind === "odds-changed" && (
                <p class="notice" role="alert" data-testid="odds-changed">
                  {`The odds moved from ${formatOdds(result.from)} to ${formatOdds(result.to)} before your bet was placed. Nothing was staked.`}
                </p>
              )}
              {result.kind === "error" && (
                <p class="error-text" role="alert">
                  {result.message}{" "}
                  {result.needsCredits && (
                    <RouteLink to={{ page: "rewards" }} onNavigate={onNavigate}>
                      Claim daily credits
                    </RouteLink>
                  )}
                </p>
              )}
              <button
                type="submit"
                class="button button-primary slip-submit"
                disabled={!creditsValid || result.kind === "busy"}
              >
                {result.kind === "busy"
                  ? "Placing…"
                  : result.kind === "odds-changed"
                    ? `Place at ${formatOdds(odds)}`
                    : `Place ${creditsValid ? formatCredits(stakeCredits) : "bet"} at ${formatOdds(odds)}`}
              </button>
            </>
          ) : (
            <UsdcSlip event={event} market={market} outcome={outcome} onNavigate={onNavigate} />
          )}
        </>
      )}
    </form>
  );
}

/** `"10.000000"` → `10`, `"10.500000"` → `10.5`: a stake as the player typed it. */
const plainUsdc = (amount: string) => amount.replace(/\.0+$/, "").replace(/(\.\d*?)0+$/, "$1");

function errorOutcome(err: unknown): Outcome {
  if (err instanceof ApiError) {
    switch (err.code) {
      case "INSUFFICIENT_CREDITS":
        return {
          kind: "error",
          message: "You don't have enough credits for this stake.",
          needsCredits: true,
        };
      case "EVENT_CLOSED":
        return { kind: "error", message: "Betting on this event has closed: it has started." };
    }
  }
  return { kind: "error", message: err instanceof Error ? err.message : String(err) };
}

const STEP_TEXT: Record<OnchainStep["step"], string> = {
  quoting: "Getting a price…",
  approving: "Approve the USDC stake in your wallet…",
  placing: "Confirm the bet in your wallet…",
  reporting: "Sent. Recording your bet…",
  pending: "Bet sent: waiting for the chain to confirm it.",
  confirmed: "Bet confirmed on-chain.",
  rejected: "The bet was rejected.",
};

/** The USDC part of the slip: stake, signed quote with its expiry, the wallet's transactions and their progress. */
function UsdcSlip(props: { event: SportEvent; market: string; outcome: string; onNavigate: Navigate }) {
  const { event, market, outcome, onNavigate } = props;
  const { user, chain, changed, serverNow } = useAccount();
  const wallets = useBrowserWallets();
  const id = useId();
  const [stake, setStake] = useState("10");
  const [quote, setQuote] = useState<SignedQuote | null>(null);
  const [step, setStep] = useState<OnchainStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef(randomKey());
  useTick(1000); // the quote's expiry is checked against the clock
  const stakeMicro = parseUsdcInput(stake);
  const valid = stakeMicro !== null && stakeMicro > 0n;
  const wallet = useMemo(
    () => wallets.find((w) => w.id === storedWalletId()) ?? wallets[0] ?? null,
    [wallets],
  );
  const returns = valid && quote ? usdcWinningsOf(stakeMicro, quote.odds) : null;

  const getQuote = async () => {
    setError(null);
    setBusy(true);
    setStep({ step: "quoting" });
    try {
      setQuote(await requestQuote({ eventId: event.id, market, outcome }));
      setStep(null);
    } catch (err) {
      setStep(null);
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const place = async () => {
    if (!quote || !valid || !wallet || !chain || !user?.wallet) return;
    setError(null);
    setBusy(true);
    try {
      await placeOnchainBet({
        provider: wallet.provider,
        wallet: user.wallet,
        chain,
        quote,
        stakeMicro,
        idempotencyKey: key.current,
        onStep: (s) => {
          setStep(s);
          if (s.step === "pending" || s.step === "confirmed" || s.step === "rejected") changed();
        },
      });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setStep(null);
    } finally {
      setBusy(false);
    }
  };
  const expired = quote !== null && Date.parse(quote.expiresAt) <= serverNow().getTime();
  const sent = step !== null && ["reporting", "pending", "confirmed", "rejected"].includes(step.step);

  return (
    <div class="usdc-slip">
      {!wallet && (
        <p class="error-text">No browser wallet found on this page: USDC bets are sent by your wallet.</p>
      )}
      <div class="field">
        <label for={`${id}-usdc`}>Stake (USDC)</label>
        <input
          id={`${id}-usdc`}
          class="input"
          inputMode="decimal"
          value={stake}
          disabled={sent}
          aria-invalid={!valid}
          onInput={(e) => setStake(e.currentTarget.value)}
        />
      </div>
      {quote && !sent && (
        <p class="small" data-testid="usdc-quote">
          {`Price ${formatOdds(quote.odds)}, guaranteed `}
          <CountdownTo iso={quote.expiresAt} />
          {returns !== null && (
            <>
              {". Returns "}
              <Usdc amount={microToUsdc(returns)} />
              {" if it wins."}
            </>
          )}
        </p>
      )}
      {step && (
        <p
          class={step.step === "rejected" ? "error-text" : "status-line small"}
          role="status"
          data-testid="usdc-step"
        >
          {STEP_TEXT[step.step]}
          {step.step === "rejected" && step.reason ? ` ${step.reason}` : ""}
        </p>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      {sent ? (
        <RouteLink to={{ page: "bets", status: null }} onNavigate={onNavigate}>
          See my bets
        </RouteLink>
      ) : !quote || expired ? (
        <button
          type="button"
          class="button button-primary"
          disabled={busy || !valid || !wallet}
          onClick={getQuote}
        >
          {expired ? "Price expired: get a new one" : "Get a price"}
        </button>
      ) : (
        <button
          type="button"
          class="button button-primary"
          disabled={busy || !valid || !wallet}
          onClick={place}
        >
          {busy
            ? "Check your wallet…"
            : `Bet ${valid ? plainUsdc(microToUsdc(stakeMicro)) : ""} USDC at ${formatOdds(quote.odds)}`}
        </button>
      )}
    </div>
  );
}
