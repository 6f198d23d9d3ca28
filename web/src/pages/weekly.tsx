/**
 * WeeklyPage: the competition. The week rail, the live week's countdown, the player's status (with what it takes
 * to reach each line), the Qualification or Champions ladder of the selected week, its prize pool, and how it all
 * works. Data: competition meta (from the app), leaderboard, prize-pool-estimate and me.
 */
import { useCallback, useEffect, useState } from "preact/hooks";
import { useAccount, usePlayerResource } from "../account";
import { api, type LadderType, type Meta } from "../api";
import { Countdown } from "../components/countdown";
import { HowItWorks } from "../components/how-it-works";
import { Ladder, type LadderPage, type MyPlace, TYPE_LABEL } from "../components/ladder";
import { type Lines, MyStatusCard } from "../components/my-status";
import { PrizeCard } from "../components/prize-card";
import { PrizePayout } from "../components/prize-payout";
import type { Navigate } from "../components/route-link";
import { WeekRail } from "../components/week-rail";
import { PAGE_SIZE, type Route } from "../routes";
import { spAtPosition } from "../standing";
import { type Resource, useResource } from "../use-resource";

/** How often a live week's ladder, pool and status are refreshed in the background. */
const LIVE_REFRESH_MS = 60_000;

type MetaResource = Resource<{ meta: Meta; offsetMs: number; loadedAt: number }> & {
  reload: () => void;
  refresh: () => void;
};

/** One ladder page, fetched with the row just above it so a cutoff at the top edge of the page is still drawn. */
async function loadLadderPage(week: number, type: LadderType, page: number): Promise<LadderPage> {
  const offset = (page - 1) * PAGE_SIZE;
  const peek = offset > 0 ? 1 : 0;
  const data = await api.leaderboard({ week, type, offset: offset - peek, limit: PAGE_SIZE + peek });
  const before = peek === 1 ? (data.rows[0] ?? null) : null;
  return { ...data, offset, limit: PAGE_SIZE, rows: data.rows.slice(peek), before };
}

/** The SP at the top-25 line, the top-10 line and the last paid rank of a week. */
async function loadLines(week: number, meta: Meta): Promise<Lines> {
  const paid = meta.constants.paidRanks;
  const [q, c] = await Promise.all([
    api.leaderboard({ week, type: "qualification", offset: 0, limit: 1 }),
    api.leaderboard({ week, type: "champions", offset: 0, limit: paid }),
  ]);
  return {
    qualificationSp: q.cutoffSp,
    championsSp: c.championsEnabled ? c.cutoffSp : null,
    paidSp: c.championsEnabled ? spAtPosition(c.rows, paid) : null,
  };
}

export function WeeklyPage(props: {
  route: Extract<Route, { page: "weekly" }>;
  meta: MetaResource;
  onNavigate: Navigate;
  onReplace: (route: Route) => void;
}) {
  const { route, meta, onNavigate, onReplace } = props;
  const { user } = useAccount();
  const m = meta.status === "ok" ? meta.data.meta : null;
  const weeks = m?.weeks ?? [];
  const known = route.week !== null && weeks.some((w) => w.week === route.week);
  const week = m ? (known ? route.week : m.currentWeek) : null;

  // A week that is not on the calendar (a stale or mistyped link) falls back to the current week.
  useEffect(() => {
    if (m && route.week !== null && !known) onReplace({ ...route, week: null, pageNo: 1 });
  }, [m, known, route, onReplace]);

  // "Show in ladder" (a link ending in #me): scroll to the player's row once the page is there.
  const [focusMine, setFocusMine] = useState(() => (location.hash === "#me" ? 1 : 0));
  const navigate: Navigate = useCallback(
    (to, hash) => {
      onNavigate(to, hash);
      if (hash === "#me") setFocusMine((n) => n + 1);
    },
    [onNavigate],
  );

  const ladder = useResource(week === null ? null : ["ladder", week, route.type, route.pageNo], () =>
    loadLadderPage(week!, route.type, route.pageNo),
  );
  const pool = useResource(week === null ? null : ["pool", week], () => api.prizePool(week!));
  const me = usePlayerResource(week === null ? null : ["me", week], () => api.me(week!));
  const previous = usePlayerResource(week === null || week === 0 ? null : ["me", week - 1], () =>
    api.me(week! - 1),
  );
  const selected = weeks.find((w) => w.week === week);
  const lines = usePlayerResource(week === null || selected?.status !== "live" ? null : ["lines", week], () =>
    loadLines(week!, m!),
  );

  const { refresh: refreshLadder } = ladder;
  const { refresh: refreshPool } = pool;
  const { refresh: refreshMe } = me;
  useEffect(() => {
    if (selected?.status !== "live") return;
    const id = setInterval(() => {
      refreshLadder();
      refreshPool();
      refreshMe();
    }, LIVE_REFRESH_MS);
    return () => clearInterval(id);
  }, [selected?.status, refreshLadder, refreshPool, refreshMe]);

  useEffect(() => {
    document.title = selected
      ? `${selected.label} ${TYPE_LABEL[route.type]} — SP Competition`
      : "SP Competition — Qualification & Champions";
  }, [selected?.label, route.type]);

  if (!m || week === null) {
    return (
      <div class="wrap">
        {meta.status === "error" ? (
          <section class="card page-state" role="alert">
            <h1 class="card-title">The competition could not be loaded</h1>
            <p class="error-text">{meta.error.message}</p>
            <button type="button" class="button button-primary" onClick={meta.reload}>
              Try again
            </button>
          </section>
        ) : (
          <section class="card page-state" aria-busy="true">
            <p class="muted">Loading the competition…</p>
          </section>
        )}
      </div>
    );
  }

  let mine: MyPlace | null = null;
  if (user && me.status === "ok") {
    const place = route.type === "champions" ? me.data.champions : me.data.qualification;
    if (place.rank !== null) {
      mine = {
        userId: user.id,
        displayName: user.displayName,
        rank: place.rank,
        competitiveSp: place.competitiveSp,
        prizeUsdc: route.type === "champions" ? me.data.champions.prizeUsdc : null,
      };
    }
  }

  return (
    <>
      <h1 class="sr-only">Weekly competition</h1>
      <div class="wrap">
        <WeekRail weeks={weeks} selectedWeek={week} type={route.type} onNavigate={navigate} />
      </div>
      <div class="wrap layout">
        <div class="area-countdown">
          <Countdown
            key={m.countdown.endsAt}
            meta={m}
            loadedAt={meta.status === "ok" ? meta.data.loadedAt : 0}
            onElapsed={meta.refresh}
          />
        </div>
        <div class="area-prize">
          <PrizeCard pool={pool} week={week} meta={m}>
            {selected?.status === "finalized" && week > 0 && <PrizePayout week={week} me={me} />}
          </PrizeCard>
        </div>
        <div class="area-me">
          <MyStatusCard me={me} previous={previous} lines={lines} meta={m} onNavigate={navigate} />
        </div>
        <div class="area-ladder">
          <Ladder
            ladder={ladder}
            week={week}
            type={route.type}
            page={route.pageNo}
            weeks={weeks}
            mine={mine}
            focusMine={focusMine}
            onNavigate={navigate}
          />
        </div>
        <div class="area-how">
          <HowItWorks meta={m} open={!user} onNavigate={navigate} />
        </div>
      </div>
    </>
  );
}
