/**
 * Session JWTs: HS256 via fast-jwt, 7 days, carrying the user id (`sub`) and a session id (`jti`). fast-jwt
 * (the JWT library of @fastify/jwt) checks an HMAC in one synchronous node:crypto call; jose goes through
 * WebCrypto's asynchronous jobs, 5–10× the CPU for each token an instance sees first (docs/decisions.md
 * "Session tokens: fast-jwt"). jose stays for the identity providers' ID tokens (oidc.ts: JWKS, RS/ES keys).
 */
import { randomUUID } from "node:crypto";
import { createSigner, createVerifier } from "fast-jwt";

export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const SESSION_COOKIE = "session";

export interface SessionClaims {
  userId: string;
  sessionId: string;
  expiresAt: Date;
}

export async function signSessionToken(
  secret: Uint8Array,
  userId: string,
  now: Date,
): Promise<{ token: string; claims: SessionClaims }> {
  const sessionId = randomUUID();
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + SESSION_TTL_SECONDS;
  const token = toolsOf(secret).sign({ sub: userId, jti: sessionId, iat, exp });
  return { token, claims: { userId, sessionId, expiresAt: new Date(exp * 1000) } };
}

/**
 * What is kept per secret, built once: the signer, the verifier, and the tokens already verified.
 * - The verifier checks the signature, the algorithm (HS256 only: `none` and other algorithms are refused) and that
 *   `sub`, `jti` and `exp` are present; the expiry is checked against the app's clock here (fast-jwt would read the
 *   machine's).
 * - Verified tokens: a token's signature and claims never change, so only its expiry is checked again (as jose
 *   does: expired once `exp` ≤ now in whole seconds). Bounded: starts over when full. Invalid tokens are not
 *   remembered.
 */
interface SecretTools {
  sign: (payload: object) => string;
  verify: (token: string) => unknown;
  verified: Map<string, SessionClaims>;
}
const tools = new WeakMap<Uint8Array, SecretTools>();
const MAX_VERIFIED = 100_000;

function toolsOf(secret: Uint8Array): SecretTools {
  let found = tools.get(secret);
  if (!found) {
    const key = Buffer.from(secret);
    found = {
      sign: createSigner({ key, algorithm: "HS256" }),
      verify: createVerifier({
        key,
        algorithms: ["HS256"],
        requiredClaims: ["sub", "jti", "exp"],
        ignoreExpiration: true,
      }),
      verified: new Map(),
    };
    tools.set(secret, found);
  }
  return found;
}

/** Verifies signature, algorithm and expiry (against `now`); null for any invalid token. */
export async function verifySessionToken(
  secret: Uint8Array,
  token: string,
  now: Date,
): Promise<SessionClaims | null> {
  const { verify, verified } = toolsOf(secret);
  const hit = verified.get(token);
  if (hit) return expired(hit.expiresAt.getTime() / 1000, now) ? null : { ...hit };
  const claims = verifyUncached(verify, token, now);
  if (claims) {
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verified.set(token, claims);
  }
  return claims;
}

function verifyUncached(verify: SecretTools["verify"], token: string, now: Date): SessionClaims | null {
  let payload: Record<string, unknown>;
  try {
    payload = verify(token) as Record<string, unknown>;
  } catch {
    return null;
  }
  const { sub, jti, exp } = payload;
  if (typeof sub !== "string" || !/^\d{1,19}$/.test(sub) || typeof jti !== "string") return null;
  if (typeof exp !== "number" || !Number.isFinite(exp) || expired(exp, now)) return null;
  return { userId: sub, sessionId: jti, expiresAt: new Date(exp * 1000) };
}

/** Expired once `exp` ≤ now in whole seconds (as jose counts). */
function expired(exp: number, now: Date): boolean {
  return exp <= Math.floor(now.getTime() / 1000);
}
