/**
 * HowItWorks: SP, how to earn it, and the two ladders — what Qualification and Champions mean and how a player
 * gets into Champions and stays there — with the numbers from the competition's constants.
 */
import type { Meta } from "../api";
import { type Navigate, RouteLink } from "./route-link";

export function HowItWorks(props: { meta: Meta; open: boolean; onNavigate: Navigate }) {
  const { qualificationCutoff, championsCutoff, paidRanks, prizeSplitPct, weekLengthDays } =
    props.meta.constants;
  return (
    <section class="card how" aria-labelledby="how-title">
      <h2 id="how-title" class="card-title">
        How it works
      </h2>
      <details class="how-details" open={props.open}>
        <summary>SP, Qualification and Champions in one minute</summary>
        <dl class="how-list">
          <div>
            <dt>Earn SP</dt>
            <dd>
              Predict match results on the{" "}
              <RouteLink to={{ page: "play", sport: null, league: null }} onNavigate={props.onNavigate}>
                Play
              </RouteLink>{" "}
              page. A won free-credit bet earns stake × odds SP (100 credits at 2.15 earn 215 SP); a won USDC
              bet earns more. Lost bets earn nothing. Free credits come back every day on the Rewards page.
            </dd>
          </div>
          <div>
            <dt>Your week's SP</dt>
            <dd>
              {`A week lasts ${weekLengthDays} days (UTC). Its ladders count the SP of predictions on events that kick off in that week. Referral and raffle SP count for the all-time leaderboard only.`}
            </dd>
          </div>
          <div>
            <dt>Qualification</dt>
            <dd>
              {`Everyone who earned SP in the week, ranked. The top ${qualificationCutoff} (plus ties) play Champions the week after.`}
            </dd>
          </div>
          <div>
            <dt>Champions</dt>
            <dd>
              {`Only players who earned a place. Ranks 1–${paidRanks} share the week's USDC prize pool (${prizeSplitPct.join(" / ")} %). To keep your place for the next week, finish in the Champions top ${championsCutoff} — or in the Qualification top ${qualificationCutoff} again.`}
            </dd>
          </div>
        </dl>
      </details>
    </section>
  );
}
