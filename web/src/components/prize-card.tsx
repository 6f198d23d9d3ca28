/**
 * PrizeCard: the selected week's estimated Champions pool and where it comes from: the protocol fees of the
 * previous week (the funding week) plus the protocol incentive. Amounts are the API's strings, unchanged.
 */
import type { ComponentChildren } from "preact";
import type { Meta, PrizePool } from "../api";
import { formatInstant, formatUsdc } from "../format";
import type { Resource } from "../use-resource";

export function PrizeCard(props: {
  pool: Resource<PrizePool> & { reload: () => void };
  week: number;
  meta: Meta;
}) {
  const { pool, week, meta } = props;
  const label = meta.weeks.find((w) => w.week === week)?.label ?? `Week ${week}`;
  const split = `${meta.constants.prizeSplitPct.join("/")}\u00a0%`;

  let body: ComponentChildren;
  if (pool.status === "loading" || pool.status === "idle") {
    body = (
      <p class="muted" aria-busy="true">
        Loading the prize pool…
      </p>
    );
  } else if (pool.status === "error") {
    body = (
      <div role="alert">
        <p class="error-text">{`Couldn't load the prize pool: ${pool.error.message}`}</p>
        <button type="button" class="button" onClick={pool.reload}>
          Try again
        </button>
      </div>
    );
  } else {
    const p = pool.data;
    const funding =
      p.fundingWeekIndex === null ? null : meta.weeks.find((w) => w.week === p.fundingWeekIndex);
    const fundingLabel =
      funding?.label ?? (p.fundingWeekIndex === null ? null : `Week ${p.fundingWeekIndex}`);
    body = (
      <>
        <p class="pool-amount" data-testid="pool-estimate">
          {p.estimatedUsdc}
          <span class="pool-unit">USDC</span>
        </p>
        <p class="muted small">
          {week === 0
            ? "No Champions in the opening week: nothing is paid out."
            : `Split ${split} among Champions ranks 1–${meta.constants.paidRanks}.`}
          {funding?.status === "live" && ` Grows with ${funding.label}'s fees until it ends.`}
        </p>
        <dl class="sources">
          <div>
            <dt>{fundingLabel ? `Protocol fees of ${fundingLabel}` : "Protocol fees"}</dt>
            <dd data-testid="pool-fees">{formatUsdc(p.sources.protocolFeesWeek)}</dd>
          </div>
          <div>
            <dt>Protocol incentive</dt>
            <dd data-testid="pool-incentive">{formatUsdc(p.sources.protocolIncentiveUsdc)}</dd>
          </div>
        </dl>
        <p class="muted small">
          {p.feeWindowStart && p.feeWindowEnd
            ? `Fees counted from ${formatInstant(p.feeWindowStart)} to ${formatInstant(p.feeWindowEnd)}.`
            : "No previous week: the pool is the protocol incentive alone."}
        </p>
      </>
    );
  }
  return (
    <section class="card prize" aria-labelledby="prize-title">
      <h2 id="prize-title" class="card-title">
        {`${label} prize pool`}
      </h2>
      {body}
    </section>
  );
}
