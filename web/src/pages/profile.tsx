/**
 * ProfilePage: the player's statistics (SP, bets won and lost, win rate, streaks, credits, USDC staked and won,
 * all-time rank, this week) and their past weeks: each week's Qualification and Champions result and prize, read
 * from /api/competition/me per week (the latest six first, earlier ones on request).
 */
import { useEffect, useState } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { api, type Meta, type MyStatus } from "../api";
import type { Navigate } from "../components/route-link";
import { RouteLink } from "../components/route-link";
import { SignInPrompt } from "../components/sign-in-prompt";
import { Usdc } from "../components/values";
import { formatCredits, formatNumber, formatSp, ordinal } from "../format";
import { weekly } from "../routes";
import type { Resource } from "../use-resource";

const RECENT_WEEKS = 6;

const SP_TYPE_TEXT: Record<string, string> = {
  PREDICTION: "Predictions",
  WARMUP_PREDICTION: "Warm-up predictions",
  ONCHAIN_PREDICTION: "USDC predictions",
  ONCHAIN_SP: "On-chain SP",
  REFERRAL: "Referrals",
  RAFFLE: "Raffles",
  ADJUSTMENT: "Adjustments",
};

type MetaResource = Resource<{ meta: Meta }>;

export function ProfilePage(props: { meta: MetaResource; onNavigate: Navigate }) {
  const { user } = useAccount();
  useEffect(() => {
    document.title = "Profile — SP Competition";
  }, []);
  return (
    <div class="wrap page">
      <div class="page-head">
        <h1 class="page-title">Profile</h1>
        {user && (
          <p class="muted wallet-full">
            {user.wallet ? `${user.displayName} · ${user.wallet}` : user.displayName}
          </p>
        )}
      </div>
      {user ? (
        <div class="grid-cards">
          <Stats />
          {props.meta.status === "ok" && (
            <PastWeeks meta={props.meta.data.meta} onNavigate={props.onNavigate} />
          )}
        </div>
      ) : (
        <SignInPrompt what="see your statistics and past weeks" />
      )}
    </div>
  );
}

function Stats() {
  const stats = usePlayerResource(["profile"], api.profile);
  if (stats.status !== "ok") {
    return (
      <section class="card" aria-label="Statistics">
        {stats.status === "error" ? (
          <p class="error-text" role="alert">{`Couldn't load your statistics: ${stats.error.message}`}</p>
        ) : (
          <p class="muted" aria-busy="true">
            Loading your statistics…
          </p>
        )}
      </section>
    );
  }
  const s = stats.data;
  const p = s.predictions;
  const byType = Object.entries(s.spByType).filter(([, sp]) => sp !== 0);
  return (
    <section class="card" aria-labelledby="stats-title">
      <h2 id="stats-title" class="card-title">
        Statistics
      </h2>
      <dl class="figures stats">
        <div>
          <dt>Total SP</dt>
          <dd data-testid="total-sp">{formatNumber(s.totalSp)}</dd>
        </div>
        <div>
          <dt>All-time rank</dt>
          <dd>{s.allTimeRank === null ? "—" : ordinal(s.allTimeRank)}</dd>
        </div>
        <div>
          <dt>Bets</dt>
          <dd data-testid="bets-summary">{`${p.won} won · ${p.lost} lost · ${p.pending} open · ${p.void} void`}</dd>
        </div>
        <div>
          <dt>Win rate</dt>
          <dd>{p.won + p.lost === 0 ? "—" : `${(s.winRate * 100).toFixed(1)} %`}</dd>
        </div>
        <div>
          <dt>Streak</dt>
          <dd>{`${s.currentStreak} now · best ${s.bestStreak}`}</dd>
        </div>
        <div>
          <dt>Credits</dt>
          <dd>{formatCredits(s.creditsBalance)}</dd>
        </div>
        <div>
          <dt>USDC staked</dt>
          <dd>
            <Usdc amount={s.usdcStaked} />
          </dd>
        </div>
        <div>
          <dt>USDC won</dt>
          <dd>
            <Usdc amount={s.usdcWon} />
          </dd>
        </div>
      </dl>
      <h3 class="subtitle">{`This week (Week ${s.week.week})`}</h3>
      <dl class="figures">
        <div>
          <dt>Competitive SP</dt>
          <dd>{formatNumber(s.week.competitiveSp)}</dd>
        </div>
        <div>
          <dt>Qualification</dt>
          <dd>{s.week.qualificationRank === null ? "—" : ordinal(s.week.qualificationRank)}</dd>
        </div>
        <div>
          <dt>Champions</dt>
          <dd>{s.week.championsRank === null ? "—" : ordinal(s.week.championsRank)}</dd>
        </div>
      </dl>
      {byType.length > 0 && (
        <>
          <h3 class="subtitle">SP by source</h3>
          <ul class="sp-types">
            {byType.map(([type, sp]) => (
              <li key={type}>
                <span>{SP_TYPE_TEXT[type] ?? type}</span>
                <span>{formatNumber(sp)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function PastWeeks(props: { meta: Meta; onNavigate: Navigate }) {
  const { meta, onNavigate } = props;
  const [all, setAll] = useState(false);
  const played = meta.weeks.filter((w) => w.status !== "upcoming").reverse();
  const shown = all ? played : played.slice(0, RECENT_WEEKS);
  const results = usePlayerResource(["weeks", shown.map((w) => w.week).join(",")], () =>
    Promise.all(shown.map((w) => api.me(w.week))),
  );
  return (
    <section class="card past-weeks" aria-labelledby="weeks-title">
      <h2 id="weeks-title" class="card-title">
        My weeks
      </h2>
      {results.status === "error" ? (
        <p class="error-text" role="alert">{`Couldn't load your weeks: ${results.error.message}`}</p>
      ) : results.status !== "ok" ? (
        <p class="muted" aria-busy="true">
          Loading your weeks…
        </p>
      ) : (
        <table class="weeks-table">
          <caption class="sr-only">Your result in each week, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">Qualification</th>
              <th scope="col">Champions</th>
              <th scope="col" class="num">
                Prize
              </th>
            </tr>
          </thead>
          <tbody>
            {results.data.map((r) => (
              <WeekRow
                key={r.week}
                r={r}
                nextLabel={
                  meta.weeks.find((w) => w.week === r.nextWeek.week)?.label ?? `Week ${r.nextWeek.week}`
                }
                onNavigate={onNavigate}
              />
            ))}
          </tbody>
        </table>
      )}
      {!all && played.length > RECENT_WEEKS && (
        <button type="button" class="button" onClick={() => setAll(true)}>
          {`Show all ${played.length} weeks`}
        </button>
      )}
    </section>
  );
}

function WeekRow(props: { r: MyStatus; nextLabel: string; onNavigate: Navigate }) {
  const { r, nextLabel, onNavigate } = props;
  const q = r.qualification;
  const c = r.champions;
  const champions = !c.enabled
    ? "—"
    : !c.eligible
      ? "Not qualified"
      : c.rank === null
        ? "Qualified, unranked"
        : ordinal(c.rank);
  return (
    <tr data-week={r.week}>
      <th scope="row">
        <RouteLink to={weekly(r.week, "qualification")} onNavigate={onNavigate}>
          {r.label}
        </RouteLink>
        <span class="muted small block">{r.provisional ? "Live" : "Final"}</span>
      </th>
      <td>
        {q.rank === null ? "—" : ordinal(q.rank)}
        <span class="muted small block">{formatSp(q.competitiveSp)}</span>
      </td>
      <td>
        {champions}
        {r.nextWeek.eligible && (
          <span class="muted small block">{`${r.provisional ? "On track for" : "Earned"} ${nextLabel}`}</span>
        )}
      </td>
      <td class="num">{c.prizeUsdc ? <Usdc amount={c.prizeUsdc} /> : "—"}</td>
    </tr>
  );
}
