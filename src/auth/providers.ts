/**
 * signInProviders(config): what a sign-in page needs to offer the sign-in methods this service accepts — the
 * chains a wallet may sign in on, and how a browser starts the identity provider's sign-in (OIDC implicit flow:
 * the page sends the player to `authorizationUrl` with `client_id`, `response_type=id_token`, `scope`,
 * `redirect_uri`, `state` and `nonce`, and posts the returned ID token to /api/auth/oidc). Public configuration
 * only: no secret is read here.
 */
import type { Config } from "../config.js";

/** The scope the page asks the identity provider for: `profile` carries the name shown on the ladders. */
export const OIDC_SCOPE = "openid profile";

export interface SignInProviders {
  wallet: { chainIds: number[] };
  oidc: { issuer: string; clientId: string; authorizationUrl: string | null; scope: string } | null;
}

export function signInProviders(config: Pick<Config, "siweChainIds" | "oidc">): SignInProviders {
  const { oidc } = config;
  return {
    wallet: { chainIds: [...config.siweChainIds] },
    oidc: oidc
      ? {
          issuer: oidc.issuer,
          clientId: oidc.audience,
          authorizationUrl: oidc.authorizationUrl,
          scope: OIDC_SCOPE,
        }
      : null,
  };
}
