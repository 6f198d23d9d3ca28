/**
 * App: the player's app. It owns the route (kept in the URL), the session (wallet or identity sign-in), the
 * server's clock and what the service offers (sign-in providers, the chain of USDC bets), and renders the page the
 * route names: the weekly competition, play, my bets, rewards, the all-time leaderboard or the profile.
 */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type Account, AccountContext, type Session } from "./account";
import { ApiError, api } from "./api";
import { SignInPanel } from "./components/sign-in-panel";
import { SiteHeader } from "./components/site-header";
import { BetsPage } from "./pages/bets";
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
import { useResource } from "./use-resource";

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Read once at start: an invite link's code, and the identity provider's answer when it sent the player back. */
takeInviteFromUrl();
const identityResponse = takeIdentityResponse();

export function App() {
  const [route, setRoute] = useState<Route>(() => readRoute(location.pathname, location.search));
  useEffect(() => {
    const onPop = () => setRoute(readRoute(location.pathname, location.search));
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);
  const navigate = useCallback((next: Route, hash = "") => {
    const href = routeHref(next, hash);
    history.pushState(null, "", href);
    setRoute(next);
    if (!hash) scrollTo(0, 0);
  }, []);
  const replaceRoute = useCallback((next: Route) => {
    history.replaceState(null, "", routeHref(next));
    setRoute(next);
  }, []);

  const meta = useResource("meta", async () => {
    const m = await api.meta();
    return { meta: m, offsetMs: Date.parse(m.now) - Date.now(), loadedAt: performance.now() };
  });
  const offsetMs = meta.status === "ok" ? meta.data.offsetMs : 0;
  const serverNow = useCallback(() => new Date(Date.now() + offsetMs), [offsetMs]);
  const providers = useResource("providers", api.providers);
  const chain = useResource("chain", api.chainInfo);

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
  const [changes, setChanges] = useState(0);
  const changed = useCallback(() => setChanges((n) => n + 1), []);

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
  const balance = useResource(user ? `${user.id}/balance/${changes}` : null, api.reclaimInfo);
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
      changed();
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
      changes,
      changed,
      openSignIn,
      serverNow,
      providers: providers.status === "ok" ? providers.data : null,
      chain: chain.status === "ok" ? chain.data : null,
    }),
    [session, user, lastBalance, changes, changed, openSignIn, serverNow, providers, chain],
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
    default:
      page = <WeeklyPage route={route} meta={meta} onNavigate={navigate} onReplace={replaceRoute} />;
  }

  return (
    <AccountContext.Provider value={account}>
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
      <main id="main" tabIndex={-1}>
        {page}
      </main>
    </AccountContext.Provider>
  );
}
