/**
 * Ladder: one page of the Qualification or Champions ladder of a week, with the cutoff line drawn between the
 * last row inside the cutoff (top 25 / top 10 plus ties, `withinCutoff`) and the first row outside it, prizes on
 * paid Champions rows, the provisional/final mark, the signed-in player's row highlighted, and paging.
 */
import { type ComponentChildren, Fragment } from "preact";
import type { LadderRow, LadderType, Leaderboard, RailWeek } from "../api";
import { formatNumber, shortWallet } from "../format";
import type { Resource } from "../use-resource";
import { PAGE_SIZE } from "../view-state";
import { type Navigate, ViewLink } from "./view-link";

/** A ladder page plus the row just above it (from the previous page), so a cutoff at a page edge is drawn. */
export interface LadderPage extends Leaderboard {
  before: LadderRow | null;
}

const TYPE_LABEL: Record<LadderType, string> = { qualification: "Qualification", champions: "Champions" };

export function LadderTabs(props: { week: number; type: LadderType; onNavigate: Navigate }) {
  const { week, type, onNavigate } = props;
  return (
    <nav class="tabs" aria-label="Ladders">
      {(["qualification", "champions"] as const).map((t) => (
        <ViewLink
          key={t}
          class={`tab${t === type ? " is-selected" : ""}`}
          view={{ week, type: t, page: 1 }}
          onNavigate={onNavigate}
          aria-current={t === type ? "page" : undefined}
        >
          {TYPE_LABEL[t]}
        </ViewLink>
      ))}
    </nav>
  );
}

function cutoffText(type: LadderType, cutoffRank: number, nextLabel: string): string {
  return type === "qualification"
    ? `Cutoff: top ${cutoffRank} plus ties qualify for ${nextLabel} Champions`
    : `Cutoff: top ${cutoffRank} plus ties keep their Champions place for ${nextLabel}`;
}

const weekName = (weeks: RailWeek[], week: number) =>
  weeks.find((w) => w.week === week)?.label ?? `Week ${week}`;

export function Ladder(props: {
  ladder: Resource<LadderPage> & { reload: () => void };
  week: number;
  type: LadderType;
  page: number;
  weeks: RailWeek[];
  myUserId: string | null;
  onNavigate: Navigate;
}) {
  const { ladder, week, type, page, weeks, myUserId, onNavigate } = props;
  const label = weekName(weeks, week);
  const nextLabel = weekName(weeks, week + 1);

  let body: ComponentChildren;
  let badge: ComponentChildren = null;
  let summary: string | null = null;
  if (ladder.status === "loading" || ladder.status === "idle") {
    body = (
      <div class="ladder-state" aria-busy="true">
        <p class="muted">Loading the ladder…</p>
        <div class="skeleton" aria-hidden="true">
          {Array.from({ length: 8 }, (_, i) => (
            <span key={i} />
          ))}
        </div>
      </div>
    );
  } else if (ladder.status === "error") {
    body = (
      <div class="ladder-state" role="alert">
        <p class="error-text">{`Couldn't load the ladder: ${ladder.error.message}`}</p>
        <button type="button" class="button" onClick={ladder.reload}>
          Try again
        </button>
      </div>
    );
  } else {
    const data = ladder.data;
    badge = data.provisional ? (
      <span
        class="badge badge-provisional"
        title="Live standings: they can change until the week is finalized"
      >
        Provisional
      </span>
    ) : (
      <span class="badge badge-final" title="The week is finalized: these standings are final">
        Final
      </span>
    );
    const noChampions = type === "champions" && !data.championsEnabled;
    if (noChampions) {
      body = (
        <div class="ladder-state empty">
          <p class="empty-title">Champions starts in Week 1</p>
          <p class="muted">
            The opening week has a Qualification ladder only: its top 25 (plus ties) play Champions in Week 1.
          </p>
          <p class="state-links">
            <ViewLink view={{ week, type: "qualification", page: 1 }} onNavigate={onNavigate}>
              See the {label} Qualification ladder
            </ViewLink>
            {weeks.some((w) => w.week === 1) && (
              <ViewLink view={{ week: 1, type: "champions", page: 1 }} onNavigate={onNavigate}>
                Go to Week 1 Champions
              </ViewLink>
            )}
          </p>
        </div>
      );
    } else if (data.total === 0) {
      body = (
        <div class="ladder-state empty">
          <p class="empty-title">No ranked players yet</p>
          <p class="muted">
            {type === "qualification"
              ? `Players appear here once they earn competitive SP on events kicking off in ${label}.`
              : `Players eligible for ${label} Champions appear here once they earn competitive SP.`}
          </p>
        </div>
      );
    } else if (data.rows.length === 0) {
      body = (
        <div class="ladder-state empty">
          <p class="empty-title">{`There is no page ${page}`}</p>
          <p>
            <ViewLink view={{ week, type, page: 1 }} onNavigate={onNavigate}>
              Back to page 1
            </ViewLink>
          </p>
        </div>
      );
    } else {
      summary = `${data.total} ranked player${data.total === 1 ? "" : "s"}`;
      body = <LadderTable data={data} type={type} label={label} nextLabel={nextLabel} myUserId={myUserId} />;
    }
    if (!noChampions && data.total > 0) {
      body = (
        <>
          {body}
          <Pager data={data} week={week} type={type} page={page} onNavigate={onNavigate} />
        </>
      );
    }
  }

  return (
    <section id="ladder" class="card ladder" aria-labelledby="ladder-title" tabIndex={-1}>
      <div class="ladder-head">
        <h2 id="ladder-title" class="card-title">
          {`${label} · ${TYPE_LABEL[type]}`}
        </h2>
        {badge}
        {ladder.status === "ok" && ladder.refreshing && <span class="muted small">Updating…</span>}
      </div>
      <LadderTabs week={week} type={type} onNavigate={onNavigate} />
      {!(type === "champions" && weeks.find((w) => w.week === week)?.championsEnabled === false) && (
        <p class="muted small ladder-rule">
          {type === "qualification"
            ? `Everyone with competitive SP in ${label}. The top 25 (plus ties) play ${nextLabel} Champions.`
            : `Only players who earned a place. Ranks 1–5 share the prize pool; the top 10 (plus ties) stay for ${nextLabel}.`}
          {summary && ` ${summary}.`}
        </p>
      )}
      {body}
    </section>
  );
}

function LadderTable(props: {
  data: LadderPage;
  type: LadderType;
  label: string;
  nextLabel: string;
  myUserId: string | null;
}) {
  const { data, type, label, nextLabel, myUserId } = props;
  const champions = type === "champions";
  const columns = champions ? 4 : 3;
  const first = data.offset + 1;
  const last = data.offset + data.rows.length;
  return (
    <div class="table-wrap">
      <table class="ladder-table">
        <caption class="sr-only">{`${label} ${TYPE_LABEL[type]} ladder, positions ${first} to ${last} of ${data.total}`}</caption>
        <thead>
          <tr>
            <th scope="col" class="col-rank">
              Rank
            </th>
            <th scope="col">Player</th>
            <th scope="col" class="num">
              <span class="wide-only">Competitive </span>SP
            </th>
            {champions && (
              <th scope="col" class="num">
                {data.provisional ? "Projected prize (USDC)" : "Prize (USDC)"}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((row, i) => {
            const above = i === 0 ? data.before : data.rows[i - 1];
            const line = above?.withinCutoff === true && !row.withinCutoff;
            const mine = row.userId === myUserId;
            const classes = [row.withinCutoff ? "is-within" : "", mine ? "is-mine" : ""].filter(Boolean);
            return (
              <Fragment key={row.userId}>
                {line && (
                  <tr class="cutoff-line">
                    <td colSpan={columns}>
                      <span>{cutoffText(type, data.cutoffRank, nextLabel)}</span>
                    </td>
                  </tr>
                )}
                <tr class={classes.join(" ") || undefined} data-user-id={row.userId}>
                  <td class="col-rank">{row.rank}</td>
                  <td class="col-player">
                    <span class="player-name" title={row.wallet ?? undefined}>
                      {row.displayName}
                    </span>
                    {mine && <span class="you-tag">You</span>}
                    {row.wallet && row.displayName !== shortWallet(row.wallet) && (
                      <span class="player-wallet">{shortWallet(row.wallet)}</span>
                    )}
                  </td>
                  <td class="num">{formatNumber(row.competitiveSp)}</td>
                  {champions && <td class="num prize-cell">{row.prizeUsdc ?? "—"}</td>}
                </tr>
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Pager(props: {
  data: LadderPage;
  week: number;
  type: LadderType;
  page: number;
  onNavigate: Navigate;
}) {
  const { data, week, type, page, onNavigate } = props;
  const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE));
  if (pages === 1) return null;
  const first = data.offset + 1;
  const last = data.offset + data.rows.length;
  return (
    <nav class="pager" aria-label="Ladder pages">
      {page > 1 ? (
        <ViewLink class="button" view={{ week, type, page: page - 1 }} onNavigate={onNavigate} rel="prev">
          ← Previous
        </ViewLink>
      ) : (
        <span class="button" aria-disabled="true">
          ← Previous
        </span>
      )}
      <span class="pager-status">
        {data.rows.length > 0 ? `${first}–${last} of ${data.total}` : ""} · Page {page} of {pages}
      </span>
      {page < pages ? (
        <ViewLink class="button" view={{ week, type, page: page + 1 }} onNavigate={onNavigate} rel="next">
          Next →
        </ViewLink>
      ) : (
        <span class="button" aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
