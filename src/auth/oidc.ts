/**
 * Third-party identity login: verifies an OIDC ID token against the issuer's JWKS (issuer, audience, expiry,
 * signature, asymmetric algorithms only — `alg: none` and HMAC tokens are refused).
 */
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";
import { AppError } from "../errors.js";

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

/** How far in the future a token's `iat` may lie (clock skew between the provider and this service). */
const IAT_SKEW_MS = 60_000;

export interface OidcIdentity {
  issuer: string;
  subject: string;
  name: string | null;
}

export type OidcVerifier = (idToken: string, now: Date) => Promise<OidcIdentity | null>;

/** Whether `err` of jwtVerify means the key set could not be had, rather than a token that is not valid. */
function keySetUnavailable(err: unknown): boolean {
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return true;
  // Not one of jose's own errors: the fetch itself failed (connection refused, reset, DNS). A generic one is
  // jose's "Expected 200 OK from the JSON Web Key Set HTTP response".
  return !(err instanceof errors.JOSEError) || err.code === "ERR_JOSE_GENERIC";
}

/**
 * A verifier bound to one issuer, audience and JWKS URL; null result for any invalid token, SERVICE_UNAVAILABLE when
 * the key set cannot be fetched.
 */
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
    } catch (err) {
      // The provider's key set out of reach (a timeout, a refused connection, an answer that is not a key set) says
      // nothing about the token: 503, as for any dependency that is down (SPEC §9), not "invalid token".
      if (keySetUnavailable(err)) {
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          "The identity provider's signing keys could not be fetched; try again shortly",
        );
      }
      return null;
    }
    // Issued in the future (beyond a minute of clock skew, as for SIWE): jose checks `iat` only with a maximum
    // token age, so such a token passed (a provider's clock far ahead, or a token minted to last beyond its exp).
    if (typeof payload.iat !== "number" || payload.iat * 1000 > now.getTime() + IAT_SKEW_MS) return null;
    if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 255) return null;
    const name = typeof payload.name === "string" ? payload.name.slice(0, 100) : null;
    return { issuer: config.issuer, subject: payload.sub, name };
  };
}
