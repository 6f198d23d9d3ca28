/**
 * Sign-in with a browser wallet (EIP-1193 `window.ethereum`): ask for the account and chain, build the EIP-4361
 * message for this page (domain = location.host, uri = location.origin, version 1, the server's single-use nonce,
 * issued now), have the wallet sign it (`personal_sign`), and post it to /api/auth/wallet, which sets the
 * session cookie.
 */
import { getAddress, toHex } from "viem";
import { createSiweMessage } from "viem/siwe";
import { api, type User } from "./api";

interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

/** A wallet-side failure, with a message meant for the player. */
export class WalletError extends Error {}

const STATEMENT = "Sign in to the SP competition to see your Qualification and Champions status.";

export function hasBrowserWallet(): boolean {
  return typeof window.ethereum?.request === "function";
}

async function ask<T>(provider: Eip1193Provider, method: string, params?: unknown[]): Promise<T> {
  try {
    return (await provider.request(params ? { method, params } : { method })) as T;
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 4001) throw new WalletError("You declined the request in your wallet.");
    const message = (err as { message?: unknown } | null)?.message;
    throw new WalletError(`Your wallet refused: ${typeof message === "string" ? message : "unknown error"}`);
  }
}

export async function signInWithBrowserWallet(): Promise<User> {
  const provider = window.ethereum;
  if (!provider || typeof provider.request !== "function") {
    throw new WalletError("No browser wallet found. Install a wallet extension to sign in.");
  }
  const accounts = await ask<string[]>(provider, "eth_requestAccounts");
  const account = accounts?.[0];
  if (!account) throw new WalletError("Your wallet did not share an account.");
  const address = getAddress(account);
  const chainHex = await ask<string>(provider, "eth_chainId");
  const chainId = Number.parseInt(String(chainHex), 16);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new WalletError("Your wallet reported no chain.");

  const { nonce } = await api.nonce();
  const message = createSiweMessage({
    domain: location.host,
    address,
    statement: STATEMENT,
    uri: location.origin,
    version: "1",
    chainId,
    nonce,
    issuedAt: new Date(),
  });
  const signature = await ask<string>(provider, "personal_sign", [toHex(message), address]);
  const { user } = await api.signInWithWallet(message, signature);
  rememberSignedIn(true);
  return user;
}

export async function signOut(): Promise<void> {
  await api.logout();
  rememberSignedIn(false);
}

// The session cookie is HttpOnly, so the page cannot see it. A flag in localStorage says whether to ask
// /api/auth/session at all: a signed-out visitor then never triggers a 401 (which browsers log as an error).
const HINT = "sp-competition.signed-in";

export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(HINT, "1");
    else localStorage.removeItem(HINT);
  } catch {
    // Storage disabled: the page just forgets the session on reload.
  }
}

export function probablySignedIn(): boolean {
  try {
    return localStorage.getItem(HINT) === "1";
  } catch {
    return false;
  }
}
