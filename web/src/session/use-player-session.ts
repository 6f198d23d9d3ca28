/**
 * The player's session as the app holds it: at load it finishes an identity sign-in (the provider sent the player
 * back) or checks the stored session; it signs in with a browser wallet or an identity provider, signs out, keeps
 * the last known free-credit balance, and falls back to signed out when the server ends the session (a 401).
 * Also whether the sign-in panel is open.
 */
import { useCallback, useEffect, useState } from "preact/hooks";
import type { Session } from "../account";
import { ApiError, api, type Providers, type User } from "../api";
import { fetchesSettled, forget, type Resource, useResource } from "../use-resource";
import { startIdentitySignIn, takeIdentityResponse } from "./identity-sign-in";
import {
  probablySignedIn,
  rememberInviteCode,
  rememberSignedIn,
  rememberWalletId,
  takeInviteFromUrl,
} from "./stored";
import { signInWithWallet } from "./wallet-sign-in";
import type { BrowserWallet } from "./wallets";

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Read once at start: an invite link's code, and the identity provider's answer when it sent the player back. */
takeInviteFromUrl();
const identityResponse = takeIdentityResponse();

function initialSession(): Session {
  if (identityResponse.kind === "token") return { status: "signing-in", method: "identity" };
  if (identityResponse.kind === "error") return { status: "signed-out", error: identityResponse.message };
  return probablySignedIn() ? { status: "checking" } : { status: "signed-out", error: null };
}

export function usePlayerSession(deps: {
  providers: Resource<Providers>;
  /** The server's time, for the sign-in message's `issuedAt` (useServerMeta's `serverTime`). */
  serverTime: () => Promise<Date>;
  /** Invalidates what a sign-in changes (the player's data, the ladders). */
  changed: () => void;
}) {
  const { providers, serverTime, changed } = deps;
  const [session, setSession] = useState<Session>(initialSession);
  const [signInOpen, setSignInOpen] = useState(identityResponse.kind === "error");

  const signedIn = (user: User) => {
    rememberSignedIn(true);
    rememberInviteCode(null);
    setSession({ status: "signed-in", user, error: null });
    setSignInOpen(false);
    changed();
  };

  useSessionAtLoad(session, setSession, setSignInOpen, signedIn);

  const user = session.status === "signed-in" || session.status === "signing-out" ? session.user : null;
  const lastBalance = useLastBalance(user, () => {
    rememberSignedIn(false);
    setSession({ status: "signed-out", error: "Your session has ended. Sign in again." });
  });

  const onWallet = async (wallet: BrowserWallet, inviteCode: string | undefined) => {
    setSession({ status: "signing-in", method: wallet.id });
    try {
      const chainIds = providers.status === "ok" ? providers.data.wallet.chainIds : [];
      const u = await signInWithWallet(wallet.provider, {
        chainIds,
        referralCode: inviteCode,
        now: await serverTime(),
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
      // A read of the player's already on its way is answered first (the player's reads ask nothing new while
      // signing out): one reaching the server after the session ended would be refused.
      await fetchesSettled(["player"]);
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

  return {
    session,
    user,
    lastBalance,
    signInOpen,
    setSignInOpen,
    openSignIn,
    onWallet,
    onIdentity,
    onSignOut,
  };
}

/** At load: finish an identity sign-in (the provider sent the player back), or check the stored session. */
function useSessionAtLoad(
  session: Session,
  setSession: (s: Session) => void,
  setSignInOpen: (open: boolean) => void,
  signedIn: (user: User) => void,
): void {
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
}

/**
 * The signed-in player's free-credit balance as last read (kept while it is read again); `sessionLost` runs when
 * the read answers 401 (the session expired or was revoked elsewhere).
 */
function useLastBalance(user: User | null, sessionLost: () => void): number | null {
  const balance = useResource(user ? ["player", user.id, "balance"] : null, api.reclaimInfo);
  const [lastBalance, setLastBalance] = useState<number | null>(null);
  useEffect(() => {
    if (balance.status === "ok") setLastBalance(balance.data.balance);
    if (!user) setLastBalance(null);
  }, [balance, user]);
  const lost = useCallback(sessionLost, []);
  useEffect(() => {
    if (balance.status === "error" && balance.error instanceof ApiError && balance.error.status === 401) {
      lost();
    }
  }, [balance, lost]);
  return lastBalance;
}
