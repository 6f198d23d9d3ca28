/**
 * The signed-in player as every page sees it (a Preact context provided by the app): the session, the server's
 * clock, what sign-in and betting the service offers, and a change counter that pages watch to refresh the
 * player's data after any write (a bet, a claim, a reclaim, a redemption).
 */
import { createContext } from "preact";
import { useContext, useEffect, useRef } from "preact/hooks";
import type { ChainInfo, Providers, User } from "./api";
import { type Resource, useResource } from "./use-resource";

export type Session =
  | { status: "checking" }
  | { status: "signed-out"; error: string | null }
  | { status: "signing-in"; method: string }
  | { status: "signed-in"; user: User; error: string | null }
  | { status: "signing-out"; user: User };

export interface Account {
  session: Session;
  /** The signed-in user (also while signing out), else null. */
  user: User | null;
  /** The signed-in player's free-credit balance, when known. */
  balance: number | null;
  /** Increases after every write that changes the player's data. */
  changes: number;
  /** Call after a write: pages showing the player's data refresh it. */
  changed(): void;
  /** Opens the sign-in panel (and moves the focus to it). */
  openSignIn(): void;
  /** The server's current time (its clock may be pinned or differ from this device's). */
  serverNow(): Date;
  providers: Providers | null;
  /** The chain of version-2 (USDC) bets; null hides USDC betting. */
  chain: ChainInfo | null;
}

export const AccountContext = createContext<Account | null>(null);

export function useAccount(): Account {
  const account = useContext(AccountContext);
  if (!account) throw new Error("useAccount outside AccountContext");
  return account;
}

/**
 * A resource of the signed-in player's (null key while signed out, so nothing is asked): refreshed in place,
 * without a loading flash, whenever `changes` moves.
 */
export function usePlayerResource<T>(
  key: string | null,
  load: () => Promise<T>,
): Resource<T> & { reload: () => void; refresh: () => void } {
  const { user, changes } = useAccount();
  const resource = useResource(user && key !== null ? `${user.id}/${key}` : null, load);
  const seen = useRef(changes);
  const { refresh } = resource;
  useEffect(() => {
    if (seen.current === changes) return;
    seen.current = changes;
    refresh();
  }, [changes, refresh]);
  return resource;
}
