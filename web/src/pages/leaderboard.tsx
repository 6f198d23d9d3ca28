/**
 * LeaderboardPage: everyone ranked by all-time SP (every SP type: predictions, referrals, raffles), 50 per page,
 * with the signed-in player's row highlighted, or pinned below the page when it is elsewhere.
 */
import { useEffect } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { api } from "../api";
import { PagerNav } from "../components/pager";
import { PlayerCell } from "../components/player-cell";
import type { Navigate } from "../components/route-link";
import { RouteLink } from "../components/route-link";
import { formatNumber } from "../format";
import { PAGE_SIZE, pageOfRank, type Route } from "../routes";
import { useResource } from "../use-resource";

type LeaderboardRoute = Extract<Route, { page: "leaderboard" }>;

export function LeaderboardPage(props: { route: LeaderboardRoute; onNavigate: Navigate }) {
  const { route, onNavigate } = props;
  const { user } = useAccount();
  const pageNo = route.pageNo;
  useEffect(() => {
    document.title = "All-time leaderboard — SP Competition";
  }, []);
  const board = useResource(["alltime", pageNo], () => api.allTime((pageNo - 1) * PAGE_SIZE, PAGE_SIZE));
  const mine = usePlayerResource(["alltime-row"], api.myAllTimeRow);
  const data = board.status === "ok" ? board.data : null;
  const me = mine.status === "ok" ? mine.data : null;
  const onPage = me !== null && (data?.rows.some((r) => r.userId === me.userId) ?? false);
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE_SIZE)) : 1;

  return (
    <div class="wrap page">
      <div class="page-head">
        <h1 class="page-title">All-time leaderboard</h1>
        <p class="muted">
          Every SP ever earned: won predictions, referrals and raffles. The weekly ladders count only the
          week's predictions.
        </p>
      </div>
      <section class="card" aria-label="All-time SP">
        {board.status === "error" ? (
          <div role="alert">
            <p class="error-text">{`Couldn't load the leaderboard: ${board.error.message}`}</p>
            <button type="button" class="button" onClick={board.reload}>
              Try again
            </button>
          </div>
        ) : !data ? (
          <p class="muted" aria-busy="true">
            Loading the leaderboard…
          </p>
        ) : data.total === 0 ? (
          <p class="empty-title">Nobody has SP yet.</p>
        ) : (
          <>
            <table class="ladder-table alltime-table">
              <caption class="sr-only">{`All-time SP, positions ${data.offset + 1} to ${data.offset + data.rows.length} of ${data.total}`}</caption>
              <thead>
                <tr>
                  <th scope="col" class="col-rank">
                    Rank
                  </th>
                  <th scope="col" class="col-player">
                    Player
                  </th>
                  <th scope="col" class="num col-sp">
                    SP
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.rows.map((r) => {
                  const isMine = r.userId === user?.id;
                  return (
                    <tr key={r.userId} class={isMine ? "is-mine" : undefined} data-user-id={r.userId}>
                      <td class="col-rank">{r.rank ?? "—"}</td>
                      <PlayerCell row={r} mine={isMine} />
                      <td class="num col-sp">{formatNumber(r.totalSp)}</td>
                    </tr>
                  );
                })}
              </tbody>
              {me && !onPage && me.rank !== null && (
                <tfoot>
                  <tr class="pinned-gap">
                    <td colSpan={3}>
                      <span>Your place</span>
                      <RouteLink
                        class="small"
                        to={{ page: "leaderboard", pageNo: pageOfRank(me.rank) }}
                        onNavigate={onNavigate}
                      >
                        Go to its page
                      </RouteLink>
                    </td>
                  </tr>
                  <tr class="is-mine pinned-row" data-testid="pinned-row">
                    <td class="col-rank">{me.rank}</td>
                    <PlayerCell row={{ displayName: me.displayName, wallet: null }} mine />
                    <td class="num col-sp">{formatNumber(me.totalSp)}</td>
                  </tr>
                </tfoot>
              )}
            </table>
            {me && me.rank === null && (
              <p class="muted small">You are not on the leaderboard yet: win a prediction to earn SP.</p>
            )}
            {pages > 1 && (
              <PagerNav
                label="Leaderboard pages"
                status={`${data.offset + 1}–${data.offset + data.rows.length} of ${data.total} · Page ${pageNo} of ${pages}`}
                prev={pageNo > 1 ? { page: "leaderboard", pageNo: pageNo - 1 } : null}
                next={pageNo < pages ? { page: "leaderboard", pageNo: pageNo + 1 } : null}
                onNavigate={onNavigate}
              />
            )}
          </>
        )}
      </section>
    </div>
  );
}
