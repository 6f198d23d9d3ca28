/**
 * HowPage: the rules on a page of their own, one tap from every page (the main navigation): how SP are earned,
 * the two ladders, how to reach Champions and keep a place, and how the bet slip works.
 */
import { useEffect } from "preact/hooks";
import type { Meta } from "../api";
import { HowItWorks } from "../components/how-it-works";
import type { Navigate } from "../components/route-link";
import type { Resource } from "../use-resource";

export function HowPage(props: {
  meta: Resource<{ meta: Meta }> & { reload: () => void };
  onNavigate: Navigate;
}) {
  const { meta, onNavigate } = props;
  useEffect(() => {
    document.title = "How it works — SP Competition";
  }, []);
  return (
    <div class="wrap page">
      <h1 class="page-title">How it works</h1>
      {meta.status === "ok" ? (
        <HowItWorks meta={meta.data.meta} open onNavigate={onNavigate} />
      ) : meta.status === "error" ? (
        <div class="card page-state" role="alert">
          <p class="error-text">{`Couldn't load the rules: ${meta.error.message}`}</p>
          <button type="button" class="button" onClick={meta.reload}>
            Try again
          </button>
        </div>
      ) : (
        <p class="muted card page-state" aria-busy="true">
          Loading…
        </p>
      )}
      <section class="card how" aria-labelledby="how-slip-title">
        <h2 id="how-slip-title" class="card-title">
          The bet slip
        </h2>
        <dl class="how-list">
          <div>
            <dt>Several bets at once</dt>
            <dd>
              Tap the odds of as many outcomes as you like: each is a single bet with its own stake, placed
              together. The slip shows what each returns (stake × odds, rounded down) and the profit as you
              type, and checks the total against your balance before anything is sent.
            </dd>
          </div>
          <div>
            <dt>Prices that move</dt>
            <dd>
              If a price changes while it is in your slip, the slip shows the new one and waits for you to
              accept it: nothing is placed at a price you have not seen. Tick "Always accept better odds" to
              take a higher price without being asked.
            </dd>
          </div>
          <div>
            <dt>Odds formats</dt>
            <dd>
              Decimal (2.15), fractional (23/20) or American (+115): choose in the slip; the page remembers
              it. Times are shown in your time zone, named after each time.
            </dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
