/**
 * App: the competition page. The view (week, ladder, page) lives in the URL; the data comes from the
 * competition API (meta, leaderboard, prize-pool-estimate, me) and sign-in from the auth API.
 */
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError, api, type LadderType } from "./api";
import { Countdown } from "./components/countdown";
import { Ladder, type LadderPage } from "./components/ladder";
import { MyStatusCard, type Session } from "./components/my-status";
import { PrizeCard } from "./components/prize-card";
import { WeekRail } from "./components/week-rail";
import { useResource } from "./use-resource";
import { PAGE_SIZE, readView, type ViewState, viewHref } from "./view-state";
import {
  hasBrowserWallet,
  probablySignedIn,
  rememberSignedIn,
  signInWithBrowserWallet,
  signOut,
} from "./wallet-sign-in";

/** How often a live week's ladder, pool and status are refreshed in the background. */
const LIVE_REFRESH_MS = 60_000;

/** One ladder page, fetched with the row just above it so a cutoff at the top edge of the page is still drawn. */
async function loadLadderPage(week: number, type: LadderType, page: number): Promise<LadderPage> {
  const offset = (page - 1) * PAGE_SIZE;
  const peek = offset > 0 ? 1 : 0;
  const data = await api.leaderboard({ week, type, offset: offset - peek, limit: PAGE_SIZE + peek });
  const before = peek === 1 ? (data.rows[0] ?? null) : null;
  return { ...data, offset, limit: PAGE_SIZE, rows: data.rows.slice(peek), before };
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function App() {
  const [view, setView] = useState<ViewState>(() => readView(location.search));
  useEffect(() => {
    const onPop = () => setView(readView(location.search));
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  const navigate = useCallback((next: ViewState) => {
    history.pushState(null, "", viewHref(next));
    setView(next);
  }, []);

  const meta = useResource("meta", async () => ({ meta: await api.meta(), loadedAt: performance.now() }));
  const weeks = meta.status === "ok" ? meta.data.meta.weeks : [];
  const known = view.week !== null && weeks.some((w) => w.week === view.week);
  const week = meta.status === "ok" ? (known ? view.week : meta.data.meta.currentWeek) : null;

  // A week that is not on the calendar (a stale or mistyped link) falls back to the current week.
  useEffect(() => {
    if (meta.status === "ok" && view.week !== null && !known) {
      const fixed = { ...view, week: null, page: 1 };
      history.replaceState(null, "", viewHref(fixed));
      setView(fixed);
    }
  }, [meta.status, known, view]);

  const [session, setSession] = useState<Session>(() =>
    probablySignedIn() ? { status: "checking" } : { status: "signed-out", error: null },
  );
  // Checks the stored session once, at load.
  useEffect(() => {
    if (session.status !== "checking") return;
    api.session().then(
      ({ user }) => setSession({ status: "signed-in", user, error: null }),
      () => {
        rememberSignedIn(false);
        setSession({ status: "signed-out", error: null });
      },
    );
  }, []);
  const userId = session.status === "signed-in" || session.status === "signing-out" ? session.user.id : null;

  const ladder = useResource(week === null ? null : `${week}/${view.type}/${view.page}`, () =>
    loadLadderPage(week!, view.type, view.page),
  );
  const pool = useResource(week === null ? null : String(week), () => api.prizePool(week!));
  const me = useResource(week === null || userId === null ? null : `${userId}/${week}`, () => api.me(week!));

  // The session ended on the server (expired or revoked elsewhere): back to signed out.
  useEffect(() => {
    if (me.status === "error" && me.error instanceof ApiError && me.error.status === 401) {
      rememberSignedIn(false);
      setSession({ status: "signed-out", error: "Your session has ended. Sign in again." });
    }
  }, [me]);

  const selectedStatus = weeks.find((w) => w.week === week)?.status;
  const { refresh: refreshLadder } = ladder;
  const { refresh: refreshPool } = pool;
  const { refresh: refreshMe } = me;
  useEffect(() => {
    if (selectedStatus !== "live") return;
    const id = setInterval(() => {
      refreshLadder();
      refreshPool();
      refreshMe();
    }, LIVE_REFRESH_MS);
    return () => clearInterval(id);
  }, [selectedStatus, refreshLadder, refreshPool, refreshMe]);

  const selectedLabel = weeks.find((w) => w.week === week)?.label;
  useEffect(() => {
    const ladderName = view.type === "champions" ? "Champions" : "Qualification";
    document.title = selectedLabel
      ? `${selectedLabel} ${ladderName} — SP Competition`
      : "SP Competition — Qualification & Champions";
  }, [selectedLabel, view.type]);

  const onSignIn = async () => {
    setSession({ status: "signing-in" });
    try {
      const user = await signInWithBrowserWallet();
      setSession({ status: "signed-in", user, error: null });
    } catch (err) {
      const why = err instanceof ApiError ? `Sign-in failed: ${err.message}` : messageOf(err);
      setSession({ status: "signed-out", error: why });
    }
  };
  const onSignOut = async () => {
    if (session.status !== "signed-in") return;
    const user = session.user;
    setSession({ status: "signing-out", user });
    try {
      await signOut();
      setSession({ status: "signed-out", error: null });
    } catch (err) {
      setSession({ status: "signed-in", user, error: `Couldn't sign out: ${messageOf(err)}` });
    }
  };

  return (
    <>
      <a class="skip-link" href="#ladder">
        Skip to the ladder
      </a>
      <header class="site-header">
        <div class="wrap">
          <h1 class="brand">
            <span class="brand-mark" aria-hidden="true">
              SP
            </span>
            Competition
          </h1>
          <p class="tagline">Weekly Qualification and Champions ladders</p>
        </div>
      </header>
      {meta.status === "ok" && week !== null ? (
        <>
          <div class="wrap">
            <WeekRail weeks={weeks} selectedWeek={week} type={view.type} onNavigate={navigate} />
          </div>
          <main class="wrap layout">
            <div class="area-countdown">
              <Countdown
                key={meta.data.meta.countdown.endsAt}
                meta={meta.data.meta}
                loadedAt={meta.data.loadedAt}
                onElapsed={meta.refresh}
              />
            </div>
            <div class="area-me">
              <MyStatusCard
                session={session}
                me={me}
                weeks={weeks}
                walletAvailable={hasBrowserWallet()}
                onSignIn={onSignIn}
                onSignOut={onSignOut}
                onNavigate={navigate}
              />
            </div>
            <div class="area-ladder">
              <Ladder
                ladder={ladder}
                week={week}
                type={view.type}
                page={view.page}
                weeks={weeks}
                myUserId={userId}
                onNavigate={navigate}
              />
            </div>
            <div class="area-prize">
              <PrizeCard pool={pool} week={week} meta={meta.data.meta} />
            </div>
          </main>
        </>
      ) : (
        <main class="wrap">
          {meta.status === "error" ? (
            <section class="card page-state" role="alert">
              <h2 class="card-title">The competition could not be loaded</h2>
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
        </main>
      )}
    </>
  );
}
