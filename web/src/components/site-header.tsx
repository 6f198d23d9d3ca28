/**
 * SiteHeader: the brand, the player's account (credits balance, name, sign out — or the sign-in button) and the
 * main navigation between the app's pages; the live stream's notices (offline banner, toasts) hang from it.
 */
import { useAccount } from "../account";
import { formatCredits, shortWallet } from "../format";
import type { PageName, Route } from "../routes";
import { LiveNotices } from "./live-notices";
import { type Navigate, RouteLink } from "./route-link";

const NAV: { page: PageName; label: string; to: Route }[] = [
  { page: "weekly", label: "Weekly", to: { page: "weekly", week: null, type: "qualification", pageNo: 1 } },
  { page: "play", label: "Play", to: { page: "play", sport: null, league: null } },
  { page: "bets", label: "My bets", to: { page: "bets", status: null } },
  { page: "rewards", label: "Rewards", to: { page: "rewards" } },
  { page: "leaderboard", label: "Leaderboard", to: { page: "leaderboard", pageNo: 1 } },
  { page: "profile", label: "Profile", to: { page: "profile" } },
  { page: "how", label: "How it works", to: { page: "how" } },
];

export function SiteHeader(props: {
  current: PageName;
  balance: number | null;
  signInOpen: boolean;
  onSignOut: () => void;
  onNavigate: Navigate;
}) {
  const { current, balance, signInOpen, onSignOut, onNavigate } = props;
  const { session, user, openSignIn } = useAccount();
  return (
    <header class="site-header">
      <div class="wrap header-row">
        <p class="brand">
          <RouteLink to={NAV[0]!.to} onNavigate={onNavigate}>
            <span class="brand-mark" aria-hidden="true">
              SP
            </span>
            <span class="brand-name">Competition</span>
          </RouteLink>
        </p>
        <div class="account">
          {user ? (
            <>
              {balance !== null && (
                <RouteLink
                  class="chip"
                  to={{ page: "rewards" }}
                  onNavigate={onNavigate}
                  aria-label={`${formatCredits(balance)}: your free-credit balance`}
                >
                  {formatCredits(balance)}
                </RouteLink>
              )}
              <span class="account-name" title={user.wallet ?? undefined}>
                {user.wallet ? shortWallet(user.wallet) : user.displayName}
              </span>
              <button
                type="button"
                class="button button-small button-on-dark"
                onClick={onSignOut}
                disabled={session.status === "signing-out"}
              >
                {session.status === "signing-out" ? "Signing out…" : "Sign out"}
              </button>
            </>
          ) : session.status === "checking" ? (
            <span class="account-name">Checking…</span>
          ) : (
            <button
              type="button"
              class="button button-small button-on-dark"
              aria-expanded={signInOpen}
              onClick={openSignIn}
            >
              Sign in
            </button>
          )}
        </div>
      </div>
      <nav class="wrap main-nav" aria-label="Main">
        {NAV.map((item) => (
          <RouteLink
            key={item.page}
            class={`nav-link${item.page === current ? " is-selected" : ""}`}
            to={item.to}
            onNavigate={onNavigate}
            aria-current={item.page === current ? "page" : undefined}
          >
            {item.label}
          </RouteLink>
        ))}
      </nav>
      {/* The live stream's notices: under the header on a phone, where it stays on screen. */}
      <LiveNotices onNavigate={onNavigate} />
    </header>
  );
}
