/**
 * Sign-in use cases: nonce issue, wallet sign-in with an EIP-4361 message, session resolution and sign-out.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { verifyMessage } from "viem";
import { parseSiweMessage, validateSiweMessage } from "viem/siwe";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { ensureWalletUser, grantWelcomeCredits } from "../ledger/register-user.js";
import {
  findOrCreateOidcUser,
  findUserById,
  findUserByOidc,
  findUserByReferralCode,
  findUserByWallet,
  linkOidc,
  linkWallet,
  type UserRow,
} from "../users/users.js";
import {
  consumeNonce,
  findActiveSessionUser,
  insertNonce,
  insertSession,
  revokeSession,
} from "./auth.repository.js";
import type { OidcVerifier } from "./oidc.js";
import type { SignInOrigins } from "./origins.js";
import { activeSessionUserId, type SessionCache } from "./session-cache.js";
import { SESSION_COOKIE, signSessionToken, verifySessionToken } from "./session-token.js";

export const NONCE_TTL_MS = 10 * 60 * 1000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  /** Active sessions remembered, kept exact by the session change feed (`resolveSessionUserId`); null: off. */
  sessions?: SessionCache | null;
  jwtKey: Uint8Array;
  /** The accepted SIWE domains and app origins: a message's `uri` must be one of the origins (or on its domain). */
  origins: SignInOrigins;
  siweChainIds: number[];
  welcomeCredits: number;
  /** Verifies OIDC ID tokens; null when identity login is not configured. */
  oidc: OidcVerifier | null;
}

/** The signed-in user, when a sign-in happens inside an existing session (links the new login to it). */
export type CurrentUser = { userId: bigint } | null;

/**
 * The cookie that binds a nonce to the client that asked for it: `HMAC-SHA256(JWT_SECRET, nonce)`, set by
 * GET /api/auth/nonce (HttpOnly, SameSite=Strict, path /api, the nonce's 10 minutes) and required by
 * POST /api/auth/wallet and PUT /api/me/payout-address. Another client that learns the nonce (a leaked or observed message) cannot use it, nor
 * burn it, without this cookie, which only the server can compute. One per browser: the latest nonce asked wins.
 */
export const NONCE_COOKIE = "siwe_nonce";
/** Sent with every API call (the two routes that read it are under /api/auth and /api/me). */
export const NONCE_COOKIE_PATH = "/api";

export function nonceBinding(jwtKey: Uint8Array, nonce: string): string {
  return createHmac("sha256", jwtKey).update(`siwe-nonce\n${nonce}`).digest("base64url");
}

function isNonceBinding(jwtKey: Uint8Array, nonce: string, binding: string | undefined): boolean {
  if (!binding) return false;
  const expected = Buffer.from(nonceBinding(jwtKey, nonce));
  const given = Buffer.from(binding);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A sign-in nonce: 128 bits from the system's CSPRNG as 32 hex characters (EIP-4361 wants at least 8
 * alphanumeric characters). viem's generateSiweNonce, used before, derived each nonce from the previous one
 * (shifted by one character): the next nonce could be predicted and another player's sign-in sniped.
 */
export async function issueNonce(
  deps: AuthDeps,
): Promise<{ nonce: string; expiresAt: Date; binding: string }> {
  const now = deps.clock.now();
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  await insertNonce(deps.db, nonce, expiresAt, now);
  return { nonce, expiresAt, binding: nonceBinding(deps.jwtKey, nonce) };
}

/** How far in the future a message's issuedAt may lie (clock skew between wallet and server). */
export const ISSUED_AT_SKEW_MS = 60_000;

/** The origin and host of an http(s) `uri`; null for anything else (`foo://bar` has the origin "null"). */
function webOriginOf(uri: string): { origin: string; host: string } | null {
  try {
    const url = new URL(uri);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return { origin: url.origin, host: url.host };
  } catch {
    return null;
  }
}

const unauthenticated = (why: string) => new AppError("UNAUTHENTICATED", `Sign-in refused: ${why}`);

/** A signed EIP-4361 message as posted, with the value of the client's NONCE_COOKIE. */
export interface SignedMessage {
  message: string;
  signature: `0x${string}`;
  nonceBinding?: string;
}

/**
 * Verifies an EIP-4361 message (domain, chain id, time window, signature, the nonce's binding to this client —
 * `nonceBinding`, the value of its NONCE_COOKIE — then the single-use nonce, consumed) and returns the lower-case
 * address that signed it. Refusals are 401 UNAUTHENTICATED prefixed with `refusal` ("Sign-in refused", …).
 */
export async function verifySignedMessage(
  deps: AuthDeps,
  input: SignedMessage,
  refusal = "Sign-in refused",
): Promise<string> {
  const now = deps.clock.now();
  const unauthenticated = (why: string) => new AppError("UNAUTHENTICATED", `${refusal}: ${why}`);
  const parsed = parseSiweMessage(input.message);
  if (
    !parsed.address ||
    !parsed.domain ||
    !parsed.nonce ||
    !parsed.chainId ||
    !parsed.uri ||
    // Required by EIP-4361, as an RFC 3339 time: one that does not parse would skip the check below.
    !parsed.issuedAt ||
    Number.isNaN(parsed.issuedAt.getTime()) ||
    parsed.version !== "1"
  ) {
    throw new AppError("VALIDATION_FAILED", "body.message is not a complete EIP-4361 message", [
      { field: "body.message", message: "must be a Sign-In with Ethereum message" },
    ]);
  }
  if (!deps.origins.acceptsDomain(parsed.domain)) {
    throw unauthenticated(`domain must be one of ${deps.origins.domains().join(", ")}`);
  }
  if (!deps.siweChainIds.includes(parsed.chainId))
    throw unauthenticated(`chain id ${parsed.chainId} is not accepted`);
  const web = webOriginOf(parsed.uri);
  // The uri is an app origin, or an http(s) origin on the (accepted) domain the message names.
  if (!web || !(deps.origins.origins().includes(web.origin) || web.host === parsed.domain.toLowerCase())) {
    throw unauthenticated(`uri ${parsed.uri} is not an origin of this service`);
  }
  if (parsed.issuedAt.getTime() > now.getTime() + ISSUED_AT_SKEW_MS) {
    throw unauthenticated("message issued in the future");
  }
  if (!validateSiweMessage({ message: parsed, domain: parsed.domain, time: now })) {
    throw unauthenticated("message expired or not yet valid");
  }
  let valid = false;
  try {
    valid = await verifyMessage({
      address: parsed.address,
      message: input.message,
      signature: input.signature,
    });
  } catch {
    valid = false;
  }
  if (!valid) throw unauthenticated("signature does not match the address");
  // Before the nonce is consumed: a client without the binding must not be able to burn another's nonce.
  if (!isNonceBinding(deps.jwtKey, parsed.nonce, input.nonceBinding)) {
    throw unauthenticated(
      `nonce not issued to this client (the ${NONCE_COOKIE} cookie of GET /api/auth/nonce)`,
    );
  }
  if (!(await consumeNonce(deps.db, parsed.nonce, now)))
    throw unauthenticated("nonce unknown, expired or already used");
  return parsed.address.toLowerCase();
}

/**
 * Verifies an EIP-4361 message (`verifySignedMessage`), finds or creates the wallet's user (linking a valid referral
 * code on creation) and opens a session.
 */
export async function signInWithWallet(
  deps: AuthDeps,
  input: SignedMessage & { referralCode?: string },
  current: CurrentUser = null,
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const walletLower = await verifySignedMessage(deps, input);
  const user = await deps.db.transaction(async (tx) => {
    const existing = await findUserByWallet(tx, walletLower);
    if (existing) return existing;
    if (current && (await linkWallet(tx, current.userId, walletLower)))
      return (await findUserById(tx, current.userId))!;
    const referrer = input.referralCode ? await findUserByReferralCode(tx, input.referralCode) : null;
    // Self-referral is impossible here: the referrer exists before this wallet's user does.
    const created = await ensureWalletUser(tx, {
      walletLower,
      welcomeCredits: deps.welcomeCredits,
      referredBy: referrer?.id ?? null,
    });
    return created.user;
  });
  return { user, ...(await openSession(deps, user, now)) };
}

/**
 * Verifies an OIDC ID token and signs its identity in: the (iss, sub) user, created on first sign-in (with an
 * optional referrer), or linked to the signed-in account when that one has no identity yet.
 */
export async function signInWithOidc(
  deps: AuthDeps,
  input: { idToken: string; referralCode?: string },
  current: CurrentUser = null,
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  if (!deps.oidc) throw new AppError("NOT_FOUND", "Identity login is not configured");
  const now = deps.clock.now();
  const identity = await deps.oidc(input.idToken, now);
  if (!identity) throw unauthenticated("ID token invalid, expired, or not for this service");
  const user = await deps.db.transaction(async (tx) => {
    const existing = await findUserByOidc(tx, identity.issuer, identity.subject);
    if (existing) return existing;
    if (current && (await linkOidc(tx, current.userId, identity.issuer, identity.subject))) {
      return (await findUserById(tx, current.userId))!;
    }
    const referrer = input.referralCode ? await findUserByReferralCode(tx, input.referralCode) : null;
    const created = await findOrCreateOidcUser(tx, {
      issuer: identity.issuer,
      subject: identity.subject,
      displayName:
        identity.name ?? `Player ${createHash("sha256").update(identity.subject).digest("hex").slice(0, 6)}`,
      referredBy: referrer?.id ?? null,
    });
    if (created.created) await grantWelcomeCredits(tx, created.user, deps.welcomeCredits);
    return created.user;
  });
  return { user, ...(await openSession(deps, user, now)) };
}

async function openSession(deps: AuthDeps, user: UserRow, now: Date) {
  const { token, claims } = await signSessionToken(deps.jwtKey, String(user.id), now);
  await insertSession(deps.db, claims.sessionId, user.id, claims.expiresAt);
  return { token, expiresAt: claims.expiresAt };
}

/** The signed-in user of a session token, or null when the token is missing, invalid, expired or revoked. */
export async function resolveSession(
  deps: AuthDeps,
  token: string | undefined,
): Promise<{ user: UserRow; sessionId: string } | null> {
  if (!token) return null;
  const now = deps.clock.now();
  const claims = await verifySessionToken(deps.jwtKey, token, now);
  if (!claims) return null;
  const user = await findActiveSessionUser(deps.db, claims.sessionId, BigInt(claims.userId), now);
  return user ? { user, sessionId: claims.sessionId } : null;
}

/**
 * The signed-in user's id only (same rules as `resolveSession`), from the session cache when it is on: no query
 * per request, for routes that need nothing of the user but the id.
 */
export async function resolveSessionUserId(
  deps: AuthDeps,
  token: string | undefined,
): Promise<{ userId: string; sessionId: string } | null> {
  if (!token) return null;
  const now = deps.clock.now();
  const claims = await verifySessionToken(deps.jwtKey, token, now);
  if (!claims) return null;
  const userId = await activeSessionUserId(deps.db, deps.sessions ?? null, claims, now);
  return userId === null ? null : { userId, sessionId: claims.sessionId };
}

export async function signOut(deps: AuthDeps, sessionId: string): Promise<void> {
  await revokeSession(deps.db, sessionId, deps.clock.now());
}

export { SESSION_COOKIE };
