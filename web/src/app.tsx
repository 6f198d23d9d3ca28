/**
 * App: the player's app. It owns the route (the URL, through preact-iso's LocationProvider: it handles the
 * history and every same-origin link click; `routes.ts` reads the URL into a typed route), the session (wallet or
 * identity sign-in), the server's clock, what the service offers (sign-in providers, the chain of USDC bets), the
 * bet slip, the data cache (use-resource.ts) and the live stream that keeps it current (live/), and renders the
 * page the route names: the weekly competition, play, my bets, rewards, the all-time leaderboard, the profile
 * or how it works.
 */
import { useCallback, useMemo } from "preact/hooks";
import { LocationProvider } from "preact-iso";
import { type Account, AccountContext } from "./account";
import { api } from "./api";
import { SlipContext, useSlipState } from "./betting/slip-store";
import { SessionNotices } from "./components/session-notices";
import { SiteHeader } from "./components/site-header";
import { LiveProvider } from "./live/live-provider";
import { RoutePage } from "./route-page";
import { usePlayerSession } from "./session/use-player-session";
import { useBrowserWallets } from "./session/wallets";
import { useAppRoute } from "./use-app-route";
import { invalidate, useResource } from "./use-resource";
import { useServerMeta } from "./use-server-meta";

export function App() {
  return (
    <LocationProvider>
      <PlayerApp />
    </LocationProvider>
  );
}

function PlayerApp() {
  const { route, navigate, replaceRoute } = useAppRoute();
  const { meta, serverNow, serverTime } = useServerMeta();
  const providers = useResource(["providers"], api.providers);
  const chain = useResource(["chain"], api.chainInfo);
  // After a write: the player's data and what it moves (ladders, the all-time board) are read again.
  const changed = useCallback(() => {
    void invalidate(["player"]);
    void invalidate(["alltime"]);
    void invalidate(["ladder"]);
    void invalidate(["pool"]);
  }, []);
  const s = usePlayerSession({ providers, serverTime, changed });
  const { session, user, lastBalance, openSignIn } = s;

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
  const wallets = useBrowserWallets();
  const slip = useSlipState();
  return (
    <AccountContext.Provider value={account}>
      {/* Signing out: the player's stream closes and nothing of his is read again (his session is ending). */}
      <LiveProvider
        identity={
          session.status === "checking"
            ? undefined
            : session.status === "signing-out"
              ? null
              : (user?.id ?? null)
        }
      >
        <SlipContext.Provider value={slip}>
          <a class="skip-link" href="#main">
            Skip to the content
          </a>
          <SiteHeader
            current={route.page}
            balance={user ? lastBalance : null}
            signInOpen={s.signInOpen}
            onSignOut={s.onSignOut}
            onNavigate={navigate}
          />
          <SessionNotices
            session={session}
            signInOpen={s.signInOpen}
            signedIn={user !== null}
            wallets={wallets}
            onWallet={s.onWallet}
            onIdentity={s.onIdentity}
            onClose={() => s.setSignInOpen(false)}
          />
          <main id="main" tabIndex={-1} class={`page-${route.page}`}>
            <RoutePage route={route} meta={meta} onNavigate={navigate} onReplace={replaceRoute} />
          </main>
        </SlipContext.Provider>
      </LiveProvider>
    </AccountContext.Provider>
  );
}
