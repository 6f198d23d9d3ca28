/**
 * Sign-in helpers: a wallet (Sign-In with Ethereum, EIP-4361) or an OIDC ID token, each one call that ends with the
 * session set on the client (client.ts: the browser's cookie, or `sp.session` elsewhere).
 *
 * The wallet flow: a single-use nonce (GET /api/auth/nonce), a message for the service's domain, an accepted
 * chain and the server's own time (GET /api/auth/providers, GET /api/competition/meta: a wallet's clock that runs
 * ahead, or a service whose clock is pinned for a test, cannot make the message "issued in the future"), the
 * wallet's signature, then POST /api/auth/wallet.
 */
import { createSiweMessage } from "viem/siwe";
import { ok, type SpClient } from "./client.js";
import type { User } from "./types.js";

/**
 * What signs the message: a viem account (`privateKeyToAccount(key)`, a `toAccount(…)`), or, for a browser
 * wallet, `{ address, signMessage: ({ message }) => walletClient.signMessage({ account: address, message }) }`.
 */
export interface WalletSigner {
  address: `0x${string}`;
  signMessage(args: { message: string }): Promise<`0x${string}`>;
}

export interface WalletSignInOptions {
  /** The domain to sign for; default: the one the nonce answer names, else the host of the client's baseUrl. */
  domain?: string;
  /** The origin the message names (`uri`); default: the client's baseUrl origin (or the page's). */
  uri?: string;
  /** Default: the first chain the service accepts (GET /api/auth/providers). */
  chainId?: number;
  /** A referrer's code, linked on the player's first sign-in only. */
  referralCode?: string;
  /** A line the wallet shows above the message. */
  statement?: string;
}

/** The origin of the client's server: its baseUrl, resolved against the page in a browser. */
function serverUrl(sp: SpClient): URL {
  const page = typeof location === "undefined" ? undefined : location.href;
  if (sp.baseUrl === "" && page === undefined) {
    throw new Error("The client needs an absolute baseUrl outside a browser");
  }
  return new URL(sp.baseUrl || "/", page);
}

/** Signs `wallet` in; the client then carries its session. Returns the signed-in user. */
export async function signInWithWallet(
  sp: SpClient,
  wallet: WalletSigner,
  options: WalletSignInOptions = {},
): Promise<User> {
  const server = serverUrl(sp);
  const [nonce, providers, meta] = await Promise.all([
    ok(sp.GET("/api/auth/nonce")),
    options.chainId === undefined ? ok(sp.GET("/api/auth/providers")) : null,
    ok(sp.GET("/api/competition/meta")),
  ]);
  const chainId = options.chainId ?? providers?.wallet.chainIds[0];
  if (chainId === undefined) throw new Error("The service accepts no wallet chain");
  // A service that names the domain to sign for (SPEC §12) is followed; older ones sign for their host.
  const named = "domain" in nonce && typeof nonce.domain === "string" ? nonce.domain : undefined;
  const message = createSiweMessage({
    address: wallet.address,
    chainId,
    domain: options.domain ?? named ?? server.host,
    nonce: nonce.nonce,
    uri: options.uri ?? server.origin,
    version: "1",
    issuedAt: new Date(meta.now),
    ...(options.statement === undefined ? {} : { statement: options.statement }),
  });
  const signature = await wallet.signMessage({ message });
  const body = {
    message,
    signature,
    ...(options.referralCode ? { referralCode: options.referralCode } : {}),
  };
  return (await ok(sp.POST("/api/auth/wallet", { body }))).user;
}

/** Signs in with an ID token of the service's identity provider (GET /api/auth/providers names it). */
export async function signInWithOidc(
  sp: SpClient,
  idToken: string,
  options: { referralCode?: string } = {},
): Promise<User> {
  const body = { idToken, ...(options.referralCode ? { referralCode: options.referralCode } : {}) };
  return (await ok(sp.POST("/api/auth/oidc", { body }))).user;
}

/** Signs out: the server revokes the session and the client forgets it. */
export async function signOut(sp: SpClient): Promise<void> {
  await ok(sp.POST("/api/auth/logout"));
  sp.session.cookie = null;
}
