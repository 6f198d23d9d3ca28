/**
 * Sign-in use cases: nonce issue, wallet sign-in with an EIP-4361 message, session resolution and sign-out.
 */
import { verifyMessage } from "viem";
import { generateSiweNonce, parseSiweMessage, validateSiweMessage } from "viem/siwe";
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { walletDisplayName } from "../users/presenters.js";
import {
  findOrCreateWalletUser,
  findUserById,
  findUserByReferralCode,
  type UserRow,
} from "../users/users.repository.js";
import {
  consumeNonce,
  insertNonce,
  insertSession,
  isSessionActive,
  revokeSession,
} from "./auth.repository.js";
import { SESSION_COOKIE, signSessionToken, verifySessionToken } from "./session-token.js";

export const NONCE_TTL_MS = 10 * 60 * 1000;

export interface AuthDeps {
  db: Db;
  clock: Clock;
  jwtKey: Uint8Array;
  siweDomain: string;
  siweChainIds: number[];
}

export async function issueNonce(deps: AuthDeps): Promise<{ nonce: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const nonce = generateSiweNonce();
  const expiresAt = new Date(now.getTime() + NONCE_TTL_MS);
  await insertNonce(deps.db, nonce, expiresAt, now);
  return { nonce, expiresAt };
}

const unauthenticated = (why: string) => new AppError("UNAUTHENTICATED", `Sign-in refused: ${why}`);

/**
 * Verifies an EIP-4361 message (domain, chain id, time window, signature, then the single-use nonce), finds or
 * creates the wallet's user (linking a valid referral code on creation) and opens a session.
 */
export async function signInWithWallet(
  deps: AuthDeps,
  input: { message: string; signature: `0x${string}`; referralCode?: string },
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const parsed = parseSiweMessage(input.message);
  if (
    !parsed.address ||
    !parsed.domain ||
    !parsed.nonce ||
    !parsed.chainId ||
    !parsed.uri ||
    parsed.version !== "1"
  ) {
    throw new AppError("VALIDATION_FAILED", "body.message is not a complete EIP-4361 message", [
      { field: "body.message", message: "must be a Sign-In with Ethereum message" },
    ]);
  }
  if (parsed.domain !== deps.siweDomain) throw unauthenticated(`domain must be ${deps.siweDomain}`);
  if (!deps.siweChainIds.includes(parsed.chainId))
    throw unauthenticated(`chain id ${parsed.chainId} is not accepted`);
  if (!validateSiweMessage({ message: parsed, domain: deps.siweDomain, time: now })) {
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
  if (!(await consumeNonce(deps.db, parsed.nonce, now)))
    throw unauthenticated("nonce unknown, expired or already used");

  const walletLower = parsed.address.toLowerCase();
  const user = await deps.db.transaction(async (tx) => {
    const referrer = input.referralCode ? await findUserByReferralCode(tx, input.referralCode) : null;
    const { user } = await findOrCreateWalletUser(tx, {
      walletLower,
      displayName: walletDisplayName(walletLower),
      // Self-referral is impossible here: the referrer exists before this wallet's user does.
      referredBy: referrer?.id ?? null,
    });
    return user;
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
  const userId = BigInt(claims.userId);
  if (!(await isSessionActive(deps.db, claims.sessionId, userId, now))) return null;
  const user = await findUserById(deps.db, userId);
  return user ? { user, sessionId: claims.sessionId } : null;
}

export async function signOut(deps: AuthDeps, sessionId: string): Promise<void> {
  await revokeSession(deps.db, sessionId, deps.clock.now());
}

export { SESSION_COOKIE };
