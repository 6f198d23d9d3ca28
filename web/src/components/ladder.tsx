/**
 * Ladder: one page of the Qualification or Champions ladder of a week, with the cutoff line drawn between the
 * last row inside the cutoff (top 25 / top 10 plus ties, `withinCutoff`) and the first row outside it, prizes on
 * paid Champions rows, the provisional/final mark, the signed-in player's row highlighted — or pinned below the
 * page when it is on another page — and paging. On a phone the table fits the screen: names are shortened, never
 * scrolled sideways.
 */
import { type ComponentChildren, Fragment } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { LadderRow, LadderType, Leaderboard, RailWeek } from "../api";
import { formatLocal, formatNumber, formatWeekSpan } from "../format";
import { PAGE_SIZE, pageOfRank, weekly } from "../routes";
import type { Resource } from "../use-resource";
import { PagerNav } from "./pager";
import { PlayerCell } from "./player-cell";
import { type Navigate, RouteLink } from "./route-link";
import { Usdc } from "./values";

/** A ladder page plus the row just above it (from the previous page), so a cutoff at a page edge is drawn. */
export interface LadderPage extends Leaderboard {
  before: LadderRow | null;
}

/** The signed-in player's place on this ladder (from /api/competition/me), for the pinned row. */
export interface MyPlace {
  userId: string;
  displayName: string;
  rank: number;
  competitiveSp: number;
  prizeUsdc: string | null;
}

export const TYPE_LABEL: Record<LadderType, string> = {
  qualification: "Qualification",
  champions: "Champions",
};

export function LadderTabs(props: { week: number; type: LadderType; onNavigate: Navigate }) {
  const { week, type, onNavigate } = props;
  return (
    <nav class="tabs" aria-label="Ladders">
      {(["qualification", "champions"] as const).map((t) => (
        <RouteLink
          key={t}
          class={`tab${t === type ? " is-selected" : ""}`}
          to={weekly(week, t)}
          onNavigate={onNavigate}
          aria-current={t === type ? "page" : undefined}
        >
          {TYPE_LABEL[t]}
        </RouteLink>
      ))}
    </nav>
  );
}

function cutoffText(type: LadderType, cutoffRank: number, nextLabel: string): string {
  return type === "qualification"
    ? `Cutoff: top ${cutoffRank} plus ties qualify for ${nextLabel} Champions`
    : `Cutoff: top ${cutoffRank} plus ties keep their Champions place for ${nextLabel}`;
}

export const weekName = (weeks: RailWeek[], week: number) =>
  weeks.find((w) => w.week === week)?.label ?? `Week ${week}`;

export function Ladder(props: {
  ladder: Resource<LadderPage> & { reload: () => void };
  week: number;
  type: LadderType;
  page: number;
  weeks: RailWeek[];
  mine: MyPlace | null;
  /** Increases when the player asked to be shown their row ("Show in ladder"). */
  focusMine: number;
  onNavigate: Navigate;
}) {
  const { ladder, week, type, page, weeks, mine, focusMine, onNavigate } = props;
  const label = weekName(weeks, week);
  const railWeek = weeks.find((w) => w.week === week);
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
            <RouteLink to={weekly(week, "qualification")} onNavigate={onNavigate}>
              See the {label} Qualification ladder
            </RouteLink>
            {weeks.some((w) => w.week === 1) && (
              <RouteLink to={weekly(1, "champions")} onNavigate={onNavigate}>
                Go to Week 1 Champions
              </RouteLink>
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
            <RouteLink to={weekly(week, type)} onNavigate={onNavigate}>
              Back to page 1
            </RouteLink>
          </p>
        </div>
      );
    } else {
      summary = `${data.total} ranked player${data.total === 1 ? "" : "s"}`;
      body = (
        <LadderTable
          data={data}
          type={type}
          label={label}
          nextLabel={nextLabel}
          mine={mine}
          focusMine={focusMine}
          week={week}
          onNavigate={onNavigate}
        />
      );
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
        {railWeek && (
          <p
            class="muted small week-dates"
            data-testid="week-dates"
            title={`${formatLocal(railWeek.startsAt)} to ${formatLocal(railWeek.endsAt)} your time`}
          >
            {`${formatWeekSpan(railWeek.startsAt, railWeek.endsAt)} (UTC days)`}
          </p>
        )}
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
  mine: MyPlace | null;
  focusMine: number;
  week: number;
  onNavigate: Navigate;
}) {
  const { data, type, label, nextLabel, mine, focusMine, week, onNavigate } = props;
  const champions = type === "champions";
  const columns = champions ? 4 : 3;
  const first = data.offset + 1;
  const last = data.offset + data.rows.length;
  const myRowOnPage = mine !== null && data.rows.some((r) => r.userId === mine.userId);
  const pinned = mine !== null && !myRowOnPage ? mine : null;

  // "Show in ladder": bring the player's row into view and mark it, once per request.
  const myRow = useRef<HTMLTableRowElement>(null);
  const shown = useRef(0);
  useEffect(() => {
    const row = myRow.current;
    if (!row || focusMine === 0 || shown.current === focusMine) return;
    shown.current = focusMine;
    row.scrollIntoView({ block: "center" });
    row.focus({ preventScroll: true });
    row.classList.remove("is-flash");
    void row.offsetWidth; // restart the highlight animation
    row.classList.add("is-flash");
  }, [focusMine, data]);

  return (
    <div class="table-wrap">
      <table class={`ladder-table ${champions ? "has-prize" : ""}`}>
        <caption class="sr-only">{`${label} ${TYPE_LABEL[type]} ladder, positions ${first} to ${last} of ${data.total}`}</caption>
        <thead>
          <tr>
            <th scope="col" class="col-rank">
              Rank
            </th>
            <th scope="col" class="col-player">
              Player
            </th>
            <th scope="col" class="num col-sp">
              <span class="wide-only">Competitive </span>SP
            </th>
            {champions && (
              <th scope="col" class="num col-prize">
                {data.provisional ? (
                  <>
                    <span class="wide-only">Projected </span>Prize
                  </>
                ) : (
                  "Prize"
                )}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((row, i) => {
            const above = i === 0 ? data.before : data.rows[i - 1];
            const line = above?.withinCutoff === true && !row.withinCutoff;
            const isMine = row.userId === mine?.userId;
            const classes = [row.withinCutoff ? "is-within" : "", isMine ? "is-mine" : ""].filter(Boolean);
            return (
              <Fragment key={row.userId}>
                {line && (
                  <tr class="cutoff-line">
                    <td colSpan={columns}>
                      <span>{cutoffText(type, data.cutoffRank, nextLabel)}</span>
                    </td>
                  </tr>
                )}
                <tr
                  class={classes.join(" ") || undefined}
                  data-user-id={row.userId}
                  ref={isMine ? myRow : undefined}
                  tabIndex={isMine ? -1 : undefined}
                  id={isMine ? "my-row" : undefined}
                >
                  <td class="col-rank">{row.rank}</td>
                  <PlayerCell row={row} mine={isMine} />
                  <td class="num col-sp">{formatNumber(row.competitiveSp)}</td>
                  {champions && (
                    <td class="num prize-cell col-prize">
                      {row.prizeUsdc ? <Usdc amount={row.prizeUsdc} /> : "—"}
                    </td>
                  )}
                </tr>
              </Fragment>
            );
          })}
        </tbody>
        {pinned && (
          <tfoot>
            <tr class="pinned-gap">
              <td colSpan={columns}>
                <span>Your place</span>
                <RouteLink
                  class="small"
                  to={weekly(week, type, pageOfRank(pinned.rank))}
                  hash="#me"
                  onNavigate={onNavigate}
                >
                  Show in ladder
                </RouteLink>
              </td>
            </tr>
            <tr class="is-mine pinned-row" data-user-id={pinned.userId} data-testid="pinned-row">
              <td class="col-rank">{pinned.rank}</td>
              <PlayerCell row={{ displayName: pinned.displayName, wallet: null }} mine />
              <td class="num col-sp">{formatNumber(pinned.competitiveSp)}</td>
              {champions && (
                <td class="num prize-cell col-prize">
                  {pinned.prizeUsdc ? <Usdc amount={pinned.prizeUsdc} /> : "—"}
                </td>
              )}
            </tr>
          </tfoot>
        )}
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
    <PagerNav
      label="Ladder pages"
      status={`${data.rows.length > 0 ? `${first}–${last} of ${data.total}` : ""} · Page ${page} of ${pages}`}
      prev={page > 1 ? weekly(week, type, page - 1) : null}
      next={page < pages ? weekly(week, type, page + 1) : null}
      onNavigate={onNavigate}
    />
  );
}
