/**
 * RewardsPage: the daily free credits (claim, or the countdown to the next claim), referrals (my code, the invite
 * link that fills the code in at a friend's sign-up, my referees, redeeming their rewards) and the daily raffle.
 */
import { useEffect, useId, useState } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { ApiError, api, type ReclaimInfo } from "../api";
import type { Navigate } from "../components/route-link";
import { SignInPrompt } from "../components/sign-in-prompt";
import { CountdownTo, useSecondsUntil, When } from "../components/values";
import { formatCredits, formatNumber, formatSp } from "../format";
import { useResource } from "../use-resource";

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function RewardsPage(_props: { onNavigate: Navigate }) {
  const { user } = useAccount();
  useEffect(() => {
    document.title = "Rewards — SP Competition";
  }, []);
  return (
    <div class="wrap page">
      <div class="page-head">
        <h1 class="page-title">Rewards</h1>
        <p class="muted">Free credits every day, SP for inviting friends, and a daily raffle.</p>
      </div>
      <div class="grid-cards">
        {user ? <DailyCredits /> : <SignInPrompt what="claim your daily free credits" />}
        {user && <ReferralsCard />}
        <RaffleCard />
      </div>
    </div>
  );
}

function DailyCredits() {
  const { changed } = useAccount();
  const info = usePlayerResource(["reclaim"], api.reclaimInfo);
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: string | null }>({
    busy: false,
    message: null,
    error: null,
  });
  const claim = async () => {
    setState({ busy: true, message: null, error: null });
    try {
      const r = await api.reclaim();
      setState({
        busy: false,
        message: `+${formatCredits(r.amount)}. Your balance is ${formatCredits(r.balance)}.`,
        error: null,
      });
      changed();
    } catch (err) {
      setState({
        busy: false,
        message: null,
        error:
          err instanceof ApiError && err.code === "ALREADY_CLAIMED"
            ? "Today's credits were already claimed."
            : messageOf(err),
      });
      changed();
    }
  };
  return (
    <section class="card" aria-labelledby="daily-title">
      <h2 id="daily-title" class="card-title">
        Daily free credits
      </h2>
      {info.status === "ok" ? (
        <>
          <p class="big-figure" data-testid="credits-balance">
            {formatCredits(info.data.balance)}
          </p>
          <ClaimState info={info.data} busy={state.busy} onClaim={claim} onDue={info.refresh} />
        </>
      ) : info.status === "error" ? (
        <p class="error-text" role="alert">{`Couldn't load your credits: ${info.error.message}`}</p>
      ) : (
        <p class="muted" aria-busy="true">
          Loading…
        </p>
      )}
      {state.message && (
        <p class="status-good" role="status">
          {state.message}
        </p>
      )}
      {state.error && (
        <p class="error-text" role="alert">
          {state.error}
        </p>
      )}
    </section>
  );
}

function ClaimState(props: { info: ReclaimInfo; busy: boolean; onClaim: () => void; onDue: () => void }) {
  const { info, busy, onClaim, onDue } = props;
  const seconds = useSecondsUntil(info.nextClaimAt);
  useEffect(() => {
    if (!info.claimable && seconds === 0) onDue();
  }, [info.claimable, seconds, onDue]);
  if (info.claimable) {
    return (
      <>
        <p class="muted small">{`Claim ${formatCredits(info.amount)} once per day (days are UTC).`}</p>
        <button type="button" class="button button-primary" onClick={onClaim} disabled={busy}>
          {busy ? "Claiming…" : `Claim ${formatCredits(info.amount)}`}
        </button>
      </>
    );
  }
  return (
    <p class="muted" data-testid="next-claim">
      {`Claimed today. The next ${formatCredits(info.amount)} `}
      <CountdownTo iso={info.nextClaimAt} />
      {" ("}
      <When iso={info.nextClaimAt} />
      {")."}
    </p>
  );
}

function ReferralsCard() {
  const { changed } = useAccount();
  const id = useId();
  const refs = usePlayerResource(["referrals"], api.referrals);
  const [copied, setCopied] = useState(false);
  const [redeem, setRedeem] = useState<{ busy: boolean; message: string | null; error: string | null }>({
    busy: false,
    message: null,
    error: null,
  });
  if (refs.status !== "ok") {
    return (
      <section class="card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} class="card-title">
          Invite friends
        </h2>
        {refs.status === "error" ? (
          <p class="error-text" role="alert">{`Couldn't load your referrals: ${refs.error.message}`}</p>
        ) : (
          <p class="muted" aria-busy="true">
            Loading…
          </p>
        )}
      </section>
    );
  }
  const r = refs.data;
  const link = `${location.origin}/?ref=${encodeURIComponent(r.code)}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      (document.getElementById(`${id}-link`) as HTMLInputElement | null)?.select();
    }
  };
  const doRedeem = async () => {
    setRedeem({ busy: true, message: null, error: null });
    try {
      const done = await api.redeemReferrals();
      setRedeem({
        busy: false,
        message:
          done.redeemedCount === 0
            ? "Nothing to redeem yet."
            : `Redeemed ${formatSp(done.redeemedSp)} from ${done.redeemedCount} referral${done.redeemedCount === 1 ? "" : "s"}.`,
        error: null,
      });
      changed();
    } catch (err) {
      setRedeem({ busy: false, message: null, error: messageOf(err) });
    }
  };
  return (
    <section class="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} class="card-title">
        Invite friends
      </h2>
      <p class="muted small">
        A friend who signs up with your link is linked to you; once their first bet settles, you can redeem
        the referral's SP (it counts on the all-time leaderboard).
      </p>
      <p>
        Your code{" "}
        <strong class="code" data-testid="referral-code">
          {r.code}
        </strong>
      </p>
      <div class="field">
        <label for={`${id}-link`}>Your invite link</label>
        <div class="copy-row">
          <input id={`${id}-link`} class="input" readOnly value={link} data-testid="invite-link" />
          <button type="button" class="button" onClick={copy}>
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      </div>
      <dl class="figures">
        <div>
          <dt>Friends joined</dt>
          <dd>{formatNumber(r.referredCount)}</dd>
        </div>
        <div>
          <dt>Ready to redeem</dt>
          <dd data-testid="pending-referral-sp">{formatSp(r.pendingRewardSp)}</dd>
        </div>
        <div>
          <dt>Redeemed</dt>
          <dd>{formatSp(r.redeemedRewardSp)}</dd>
        </div>
      </dl>
      {r.referees.length > 0 && (
        <ul class="referees">
          {r.referees.map((f) => (
            <li key={f.userId}>
              <span class="referee-name">{f.displayName}</span>
              <span class="muted small">
                joined <When iso={f.joinedAt} />
              </span>
              <span class={`pill pill-${f.status}`}>
                {f.status === "waiting"
                  ? "Waiting for a settled bet"
                  : f.status === "redeemable"
                    ? "Ready"
                    : "Redeemed"}
              </span>
            </li>
          ))}
        </ul>
      )}
      {r.pendingRewardSp > 0 && (
        <button type="button" class="button button-primary" onClick={doRedeem} disabled={redeem.busy}>
          {redeem.busy ? "Redeeming…" : `Redeem ${formatSp(r.pendingRewardSp)}`}
        </button>
      )}
      {redeem.message && (
        <p class="status-good" role="status">
          {redeem.message}
        </p>
      )}
      {redeem.error && (
        <p class="error-text" role="alert">
          {redeem.error}
        </p>
      )}
    </section>
  );
}

function RaffleCard() {
  const { user } = useAccount();
  const raffle = useResource(user ? ["player", user.id, "raffle"] : ["raffle"], api.raffle);
  return (
    <section class="card" aria-labelledby="raffle-title">
      <h2 id="raffle-title" class="card-title">
        Daily raffle
      </h2>
      {raffle.status === "ok" ? (
        <>
          <p data-testid="raffle-status" class={raffle.data.eligible ? "status-good" : ""}>
            {raffle.data.eligible
              ? "You're in today's draw."
              : (raffle.data.reason ?? "You're not in today's draw.")}
          </p>
          <p class="muted small">
            {`Everyone who places a bet during the day (UTC ${raffle.data.date}) enters. The draw is `}
            <CountdownTo iso={raffle.data.drawAt} />
            {" ("}
            <When iso={raffle.data.drawAt} />
            {"); the winner gets SP."}
          </p>
        </>
      ) : raffle.status === "error" ? (
        <p class="error-text" role="alert">{`Couldn't load the raffle: ${raffle.error.message}`}</p>
      ) : (
        <p class="muted" aria-busy="true">
          Loading…
        </p>
      )}
    </section>
  );
}
