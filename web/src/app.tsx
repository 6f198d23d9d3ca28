/**
 * App: the player's app. It owns the route (the URL, through preact-iso's LocationProvider: it handles the
 * history and every same-origin link click; `routes.ts` reads the URL into a typed route), the session (wallet or
 * identity sign-in), the server's clock, what the service offers (sign-in providers, the chain of USDC bets), the
 * bet slip, the data cache (use-resource.ts) and the live stream that keeps it current (live/), and renders the
 * page the route names: the weekly competition, play, my bets, rewards, the all-time leaderboard, the profile
 * or how it works.
 */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { LocationProvider, useLocation } from "preact-iso";
import { type Account, AccountContext, type Session } from "./account";
import { ApiError, api } from "./api";
import { SlipContext, useSlipState } from "./betting/slip-store";
import { SignInPanel } from "./components/sign-in-panel";
import { SiteHeader } from "./components/site-header";
import { LiveProvider } from "./live/live-provider";
import { BetsPage } from "./pages/bets";
import { HowPage } from "./pages/how";
import { LeaderboardPage } from "./pages/leaderboard";
import { PlayPage } from "./pages/play";
import { ProfilePage } from "./pages/profile";
import { RewardsPage } from "./pages/rewards";
import { WeeklyPage } from "./pages/weekly";
import { type Route, readRoute, routeHref } from "./routes";
import { startIdentitySignIn, takeIdentityResponse } from "./session/identity-sign-in";
import {
  probablySignedIn,
  rememberInviteCode,
  rememberSignedIn,
  rememberWalletId,
  takeInviteFromUrl,
} from "./session/stored";
import { signInWithWallet } from "./session/wallet-sign-in";
import { type BrowserWallet, useBrowserWallets } from "./session/wallets";
import { forget, invalidate, useResource } from "./use-resource";

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Read once at start: an invite link's code, and the identity provider's answer when it sent the player back. */
takeInviteFromUrl();
const identityResponse = takeIdentityResponse();

export function App() {
  return (
    <LocationProvider>
      <PlayerApp />
    </LocationProvider>
  );
}

function PlayerApp() {
  const loc = useLocation();
  const route = useMemo<Route>(() => {
    const u = new URL(loc.url, location.origin);
    return readRoute(u.pathname, u.search);
  }, [loc.url]);
  const routeTo = loc.route;
  const navigate = useCallback((next: Route, hash = "") => routeTo(routeHref(next, hash)), [routeTo]);
  const replaceRoute = useCallback((next: Route) => routeTo(routeHref(next), true), [routeTo]);
  // A new page starts at the top (a link with a hash scrolls to its target instead; back and forward let the
  // browser restore the position).
  const pushed = (loc as { wasPush?: boolean }).wasPush === true;
  const lastPath = useRef(route.page);
  useEffect(() => {
    if (pushed && !loc.url.includes("#") && lastPath.current !== route.page) scrollTo(0, 0);
    lastPath.current = route.page;
  }, [loc.url]);

  const meta = useResource(["meta"], async () => {
    const m = await api.meta();
    return { meta: m, offsetMs: Date.parse(m.now) - Date.now(), loadedAt: performance.now() };
  });
  const offsetMs = meta.status === "ok" ? meta.data.offsetMs : 0;
  const serverNow = useCallback(() => new Date(Date.now() + offsetMs), [offsetMs]);
  const providers = useResource(["providers"], api.providers);
  const chain = useResource(["chain"], api.chainInfo);

  const [session, setSession] = useState<Session>(() =>
    identityResponse.kind === "token"
      ? { status: "signing-in", method: "identity" }
      : identityResponse.kind === "error"
        ? { status: "signed-out", error: identityResponse.message }
        : probablySignedIn()
          ? { status: "checking" }
          : { status: "signed-out", error: null },
  );
  const [signInOpen, setSignInOpen] = useState(identityResponse.kind === "error");
  // After a write: the player's data and what it moves (ladders, the all-time board) are read again.
  const changed = useCallback(() => {
    void invalidate(["player"]);
    void invalidate(["alltime"]);
    void invalidate(["ladder"]);
    void invalidate(["pool"]);
  }, []);

  const signedIn = (user: { id: string; displayName: string; wallet: string | null }) => {
    rememberSignedIn(true);
    rememberInviteCode(null);
    setSession({ status: "signed-in", user, error: null });
    setSignInOpen(false);
    changed();
  };

  // At load: finish an identity sign-in, or check the stored session.
  useEffect(() => {
    if (identityResponse.kind === "token") {
      api.signInWithIdentity(identityResponse.idToken, identityResponse.referralCode).then(
        ({ user }) => signedIn(user),
        (err) => {
          setSession({ status: "signed-out", error: messageOf(err) });
          setSignInOpen(true);
        },
      );
      return;
    }
    if (session.status !== "checking") return;
    api.session().then(
      ({ user }) => setSession({ status: "signed-in", user, error: null }),
      () => {
        rememberSignedIn(false);
        setSession({ status: "signed-out", error: null });
      },
    );
  }, []);

  const user = session.status === "signed-in" || session.status === "signing-out" ? session.user : null;
  const balance = useResource(user ? ["player", user.id, "balance"] : null, api.reclaimInfo);
  const [lastBalance, setLastBalance] = useState<number | null>(null);
  useEffect(() => {
    if (balance.status === "ok") setLastBalance(balance.data.balance);
    if (!user) setLastBalance(null);
  }, [balance, user]);

  /** The session ended on the server (expired or revoked elsewhere): back to signed out. */
  const sessionLost = useCallback(() => {
    rememberSignedIn(false);
    setSession({ status: "signed-out", error: "Your session has ended. Sign in again." });
  }, []);
  useEffect(() => {
    if (balance.status === "error" && balance.error instanceof ApiError && balance.error.status === 401) {
      sessionLost();
    }
  }, [balance, sessionLost]);

  const wallets = useBrowserWallets();
  const onWallet = async (wallet: BrowserWallet, inviteCode: string | undefined) => {
    setSession({ status: "signing-in", method: wallet.id });
    try {
      const chainIds = providers.status === "ok" ? providers.data.wallet.chainIds : [];
      const u = await signInWithWallet(wallet.provider, {
        chainIds,
        referralCode: inviteCode,
        now: serverNow(),
      });
      rememberWalletId(wallet.id);
      signedIn(u);
    } catch (err) {
      setSession({ status: "signed-out", error: messageOf(err) });
    }
  };
  const onIdentity = (inviteCode: string | undefined) => {
    const oidc = providers.status === "ok" ? providers.data.oidc : null;
    if (!oidc) return;
    setSession({ status: "signing-in", method: "identity" });
    startIdentitySignIn(oidc, inviteCode);
  };
  const onSignOut = async () => {
    if (session.status !== "signed-in") return;
    const u = session.user;
    setSession({ status: "signing-out", user: u });
    try {
      await api.logout();
      rememberSignedIn(false);
      rememberWalletId(null);
      setSession({ status: "signed-out", error: null });
      forget(["player"]);
    } catch (err) {
      setSession({ status: "signed-in", user: u, error: `Couldn't sign out: ${messageOf(err)}` });
    }
  };

  const openSignIn = useCallback(() => {
    setSignInOpen(true);
    setSession((s) => (s.status === "signed-out" ? { ...s, error: null } : s));
  }, []);

  const account: Account = useMemo(
    () => ({
      session,
      user,
      balance: user ? lastBalance : null,
      changed,
      openSignIn,
      serverNow,
      providers: providers.status === "ok" ? providers.data : null,
      chain: chain.status === "ok" ? chain.data : null,
    }),
    [session, user, lastBalance, changed, openSignIn, serverNow, providers, chain],
  );

  let page: ComponentChildren;
  switch (route.page) {
    case "play":
      page = <PlayPage route={route} onNavigate={navigate} onReplace={replaceRoute} />;
      break;
    case "bets":
      page = <BetsPage route={route} onNavigate={navigate} />;
      break;
    case "rewards":
      page = <RewardsPage onNavigate={navigate} />;
      break;
    case "leaderboard":
      page = <LeaderboardPage route={route} onNavigate={navigate} />;
      break;
    case "profile":
      page = <ProfilePage meta={meta} onNavigate={navigate} />;
      break;
    case "how":
      page = <HowPage meta={meta} onNavigate={navigate} />;
      break;
    default:
      page = <WeeklyPage route={route} meta={meta} onNavigate={navigate} onReplace={replaceRoute} />;
  }

  const slip = useSlipState();
  return (
    <AccountContext.Provider value={account}>
      <LiveProvider identity={session.status === "checking" ? undefined : (user?.id ?? null)}>
        <SlipContext.Provider value={slip}>
          <a class="skip-link" href="#main">
            Skip to the content
          </a>
          <SiteHeader
            current={route.page}
            balance={user ? lastBalance : null}
            signInOpen={signInOpen}
            onSignOut={onSignOut}
            onNavigate={navigate}
          />
          {signInOpen && !user && (
            <div class="wrap sign-in-wrap">
              <SignInPanel
                wallets={wallets}
                onWallet={onWallet}
                onIdentity={onIdentity}
                onClose={() => setSignInOpen(false)}
              />
            </div>
          )}
          {session.status === "signed-in" && session.error && (
            <div class="wrap">
              <p class="error-text banner" role="alert">
                {session.error}
              </p>
            </div>
          )}
          <main id="main" tabIndex={-1} class={`page-${route.page}`}>
            {page}
          </main>
        </SlipContext.Provider>
      </LiveProvider>
    </AccountContext.Provider>
  );
}
