/**
 * Third-party identity login: verifies an OIDC ID token against the issuer's JWKS (issuer, audience, expiry,
 * signature, asymmetric algorithms only — `alg: none` and HMAC tokens are refused).
 */
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";

export const OIDC_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "EdDSA",
];

export interface OidcIdentity {
  issuer: string;
  subject: string;
  name: string | null;
}

export type OidcVerifier = (idToken: string, now: Date) => Promise<OidcIdentity | null>;

/** A verifier bound to one issuer, audience and JWKS URL; null result for any invalid token. */
export function oidcVerifier(config: { issuer: string; audience: string; jwksUrl: string }): OidcVerifier {
  const jwks = createRemoteJWKSet(new URL(config.jwksUrl), {
    timeoutDuration: 5000,
    cooldownDuration: 30_000,
  });
  return async (idToken, now) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, jwks, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: OIDC_ALGORITHMS,
        currentDate: now,
        requiredClaims: ["sub", "exp", "iat"],
      }));
    } catch {
      return null;
    }
    if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 255) return null;
    const name = typeof payload.name === "string" ? payload.name.slice(0, 100) : null;
    return { issuer: config.issuer, subject: payload.sub, name };
  };
}
