/**
 * UsdcSlip: a version-2 (USDC) bet on one selection, when the service has a chain and the player a wallet: stake,
 * a signed quote with its expiry, the wallet's approve and placeBet transactions, then pending → confirmed.
 */
import { useId, useMemo, useRef, useState } from "preact/hooks";
import { useAccount } from "../account";
import type { SignedQuote, SportEvent } from "../api";
import { usdcWinningsOf } from "../betting/odds";
import { type OnchainStep, placeOnchainBet, requestQuote } from "../betting/onchain-bet";
import { useOddsText } from "../betting/use-odds-text";
import { microToUsdc, parseUsdcInput } from "../format";
import { randomKey } from "../random";
import { storedWalletId } from "../session/stored";
import { useBrowserWallets } from "../session/wallets";
import { type Navigate, RouteLink } from "./route-link";
import { CountdownTo, Usdc, useTick } from "./values";

/** `"10.000000"` → `10`, `"10.500000"` → `10.5`: a stake as the player typed it. */
const plainUsdc = (amount: string) => amount.replace(/\.0+$/, "").replace(/(\.\d*?)0+$/, "$1");

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
export function UsdcSlip(props: {
  event: SportEvent;
  market: string;
  outcome: string;
  onNavigate: Navigate;
}) {
  const { event, market, outcome, onNavigate } = props;
  const { user, chain, changed, serverNow } = useAccount();
  const oddsText = useOddsText();
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
          {`Price ${oddsText(quote.odds)}, guaranteed `}
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
            : `Bet ${valid ? plainUsdc(microToUsdc(stakeMicro)) : ""} USDC at ${oddsText(quote.odds)}`}
        </button>
      )}
    </div>
  );
}
