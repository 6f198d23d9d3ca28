/** Session JWTs: HS256 via jose, 7 days, carrying the user id (`sub`) and a session id (`jti`). */
import { randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";

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
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setJti(sessionId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(secret);
  return { token, claims: { userId, sessionId, expiresAt: new Date(exp * 1000) } };
}

/**
 * Tokens whose signature checked out, per secret: a token's signature and claims never change, so only its
 * expiry is checked again (as jose does: expired once `exp` ≤ now in whole seconds). Bounded: starts over when
 * full. Invalid tokens are not remembered.
 */
const verified = new WeakMap<Uint8Array, Map<string, SessionClaims>>();
const MAX_VERIFIED = 100_000;

/** Verifies signature, algorithm and expiry (against `now`); null for any invalid token. */
export async function verifySessionToken(
  secret: Uint8Array,
  token: string,
  now: Date,
): Promise<SessionClaims | null> {
  let known = verified.get(secret);
  if (!known) {
    known = new Map();
    verified.set(secret, known);
  }
  const hit = known.get(token);
  if (hit) return hit.expiresAt.getTime() / 1000 <= Math.floor(now.getTime() / 1000) ? null : { ...hit };
  const claims = await verifyUncached(secret, token, now);
  if (claims) {
    if (known.size >= MAX_VERIFIED) known.clear();
    known.set(token, claims);
  }
  return claims;
}

/**
 * The secret as an HMAC key, imported once per secret: jose imports a raw secret again for every token, ≈ a third
 * of a first verification's cost (docs/performance.md, "Round three, reads").
 */
const hmacKeys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function hmacKeyOf(secret: Uint8Array): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    const raw = secret as Uint8Array<ArrayBuffer>;
    key = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
    hmacKeys.set(secret, key);
  }
  return key;
}

async function verifyUncached(secret: Uint8Array, token: string, now: Date): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await hmacKeyOf(secret), {
      algorithms: ["HS256"],
      currentDate: now,
      requiredClaims: ["sub", "jti", "exp"],
    });
    if (
      typeof payload.sub !== "string" ||
      !/^\d{1,19}$/.test(payload.sub) ||
      typeof payload.jti !== "string"
    ) {
      return null;
    }
    return {
      userId: payload.sub,
      sessionId: payload.jti,
      expiresAt: new Date((payload.exp as number) * 1000),
    };
  } catch {
    return null;
  }
}
