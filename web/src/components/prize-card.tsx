/**
 * PrizeCard: the selected week's Champions pool and where it comes from — the protocol fees of the previous week
 * (the funding week) plus the protocol incentive — and the split among the paid ranks. Amounts are shown as money
 * with the exact USDC on hover. The card is a frame of sections (PoolAmount, PoolSources, PoolNote) followed by
 * `children`, so a finalized week's payout section (e.g. a claim) can be added below without touching the rest.
 */
import type { ComponentChildren } from "preact";
import type { Meta, PrizePool } from "../api";
import type { Resource } from "../use-resource";
import { Usdc, When } from "./values";

export function PrizeCard(props: {
  pool: Resource<PrizePool> & { reload: () => void };
  week: number;
  meta: Meta;
  children?: ComponentChildren;
}) {
  const { pool, week, meta, children } = props;
  const label = meta.weeks.find((w) => w.week === week)?.label ?? `Week ${week}`;

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
    body = (
      <>
        <PoolAmount pool={pool.data} week={week} meta={meta} />
        <PoolSources pool={pool.data} meta={meta} />
        <PoolNote pool={pool.data} />
        {children}
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

function PoolAmount(props: { pool: PrizePool; week: number; meta: Meta }) {
  const { pool, week, meta } = props;
  const { prizeSplitPct, paidRanks } = meta.constants;
  const funding =
    pool.fundingWeekIndex === null ? null : meta.weeks.find((w) => w.week === pool.fundingWeekIndex);
  return (
    <>
      <p class="pool-amount">
        <Usdc amount={pool.estimatedUsdc} testId="pool-estimate" />
      </p>
      <p class="muted small">
        {week === 0
          ? "No Champions in the opening week: nothing is paid out."
          : `Champions ranks 1–${paidRanks} share it: ${prizeSplitPct.map((p) => `${p}\u00a0%`).join(", ")}.`}
        {funding?.status === "live" && ` Grows with ${funding.label}'s fees until it ends.`}
      </p>
    </>
  );
}

function PoolSources(props: { pool: PrizePool; meta: Meta }) {
  const { pool, meta } = props;
  const fundingLabel =
    pool.fundingWeekIndex === null
      ? null
      : (meta.weeks.find((w) => w.week === pool.fundingWeekIndex)?.label ?? `Week ${pool.fundingWeekIndex}`);
  return (
    <dl class="sources">
      <div>
        <dt>{fundingLabel ? `Protocol fees of ${fundingLabel}` : "Protocol fees"}</dt>
        <dd>
          <Usdc amount={pool.sources.protocolFeesWeek} testId="pool-fees" />
        </dd>
      </div>
      <div>
        <dt>Protocol incentive</dt>
        <dd>
          <Usdc amount={pool.sources.protocolIncentiveUsdc} testId="pool-incentive" />
        </dd>
      </div>
    </dl>
  );
}

function PoolNote(props: { pool: PrizePool }) {
  const { pool } = props;
  return (
    <p class="muted small">
      {pool.feeWindowStart && pool.feeWindowEnd ? (
        <>
          Fees counted from <When iso={pool.feeWindowStart} /> to <When iso={pool.feeWindowEnd} />.
        </>
      ) : (
        "No previous week: the pool is the protocol incentive alone."
      )}
    </p>
  );
}
