/**
 * Sign-in with the identity provider (OIDC implicit flow, `response_type=id_token`): the page sends the player to
 * the provider's authorization endpoint with a random `state` and `nonce` kept in sessionStorage; the provider
 * sends them back to `<origin>/#id_token=…&state=…`; the page checks the state and the token's nonce, and posts the
 * ID token to /api/auth/oidc (which checks issuer, audience, expiry and signature).
 */
import type { OidcProvider } from "../api";
import { randomKey } from "../random";

const KEY = "sp-competition.identity-sign-in";

interface Pending {
  state: string;
  nonce: string;
  returnTo: string;
  referralCode?: string;
}

export type IdentityResponse =
  | { kind: "none" }
  | { kind: "error"; message: string }
  | { kind: "token"; idToken: string; referralCode?: string };

/** Leaves the page for the identity provider. */
export function startIdentitySignIn(oidc: OidcProvider, referralCode?: string): void {
  if (!oidc.authorizationUrl) return;
  const pending: Pending = {
    state: randomKey(),
    nonce: randomKey(),
    returnTo: `${location.pathname}${location.search}`,
    referralCode,
  };
  sessionStorage.setItem(KEY, JSON.stringify(pending));
  const url = new URL(oidc.authorizationUrl);
  url.searchParams.set("response_type", "id_token");
  url.searchParams.set("response_mode", "fragment");
  url.searchParams.set("client_id", oidc.clientId);
  url.searchParams.set("scope", oidc.scope);
  url.searchParams.set("redirect_uri", `${location.origin}/`);
  url.searchParams.set("state", pending.state);
  url.searchParams.set("nonce", pending.nonce);
  location.assign(url.toString());
}

function readPending(): Pending | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const p = raw ? (JSON.parse(raw) as Partial<Pending>) : null;
    return p && typeof p.state === "string" && typeof p.nonce === "string" && typeof p.returnTo === "string"
      ? (p as Pending)
      : null;
  } catch {
    return null;
  }
}

/** The `nonce` claim of a JWT (unverified: the server verifies the token; this only binds it to this tab). */
function nonceOf(idToken: string): unknown {
  try {
    const part = idToken.split(".")[1] ?? "";
    const json = atob(
      part
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(part.length / 4) * 4, "="),
    );
    return (JSON.parse(json) as { nonce?: unknown }).nonce;
  } catch {
    return undefined;
  }
}

/**
 * The identity provider's answer in the URL fragment, once: the fragment is removed and the page returns to where
 * the player started. `none` when the page was not opened by the provider.
 */
export function takeIdentityResponse(): IdentityResponse {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (!fragment.has("id_token") && !fragment.has("error")) return { kind: "none" };
  const pending = readPending();
  const back = pending?.returnTo ?? "/";
  history.replaceState(null, "", back.startsWith("/") && !back.startsWith("//") ? back : "/");
  if (!pending || fragment.get("state") !== pending.state) {
    return { kind: "error", message: "That sign-in answer was not for this page. Please sign in again." };
  }
  const error = fragment.get("error");
  if (error) {
    return {
      kind: "error",
      message:
        error === "access_denied"
          ? "Identity sign-in was cancelled."
          : `The identity provider refused: ${fragment.get("error_description") ?? error}`,
    };
  }
  const idToken = fragment.get("id_token") ?? "";
  if (nonceOf(idToken) !== pending.nonce) {
    return { kind: "error", message: "That sign-in answer was not for this page. Please sign in again." };
  }
  return { kind: "token", idToken, referralCode: pending.referralCode };
}
