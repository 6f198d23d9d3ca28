/**
 * The signed-in player as every page sees it (a Preact context provided by the app): the session, the server's
 * clock, what sign-in and betting the service offers, and `changed()`, which invalidates the player's cached data after
 * any write (a bet, a claim, a reclaim, a redemption).
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { ChainInfo, Providers, User } from "./api";
import { type Resource, type ResourceKey, type ResourceOptions, useResource } from "./use-resource";

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
  /** Call after a write: the player's data, the ladders and the all-time board are invalidated (refetched). */
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
 * A resource of the signed-in player's (null key while signed out, so nothing is asked), under
 * `["player", userId, …key]`: `changed()` (or the live stream) invalidates them all at once. While signing out it
 * asks nothing new (what is shown stays): the session is about to end, and a read reaching the server after it would
 * be refused.
 */
export function usePlayerResource<T>(
  key: ResourceKey | null,
  load: () => Promise<T>,
  opts: ResourceOptions = {},
): Resource<T> & { reload: () => void; refresh: () => void } {
  const { user, session } = useAccount();
  return useResource(user && key !== null ? ["player", user.id, ...key] : null, load, {
    ...opts,
    paused: opts.paused || session.status === "signing-out",
  });
}
