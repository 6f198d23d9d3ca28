/**
 * Session auth for routes: reads the `session` cookie once per request, and rejects cookie-authenticated
 * writes whose Origin is not one of the app origins (APP_ORIGINS or its defaults, src/auth/origins.ts): 403.
 */
import cookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Clock } from "../clock.js";
import { AppError } from "../errors.js";
import type { UserRow } from "../users/users.js";
import { SESSION_TTL_SECONDS, verifySessionToken } from "./session-token.js";
import { type AuthDeps, resolveSession, resolveSessionUserId, SESSION_COOKIE } from "./sign-in.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user and session id, or null; resolved at most once per request. */
    session(): Promise<{ user: UserRow; sessionId: string } | null>;
    /** The signed-in user's id only (no user row: cached sessions, no query), or null. */
    sessionUserId(): Promise<{ userId: string; sessionId: string } | null>;
  }
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function registerSession(
  app: FastifyInstance,
  opts: { auth: AuthDeps; secureCookie: boolean },
): Promise<void> {
  await app.register(cookie);
  const cache = new WeakMap<FastifyRequest, Promise<{ user: UserRow; sessionId: string } | null>>();
  app.decorateRequest("session", function (this: FastifyRequest) {
    let p = cache.get(this);
    if (!p) {
      p = resolveSession(opts.auth, this.cookies[SESSION_COOKIE]).then((s) => {
        if (s) this.knownUserId = String(s.user.id);
        return s;
      });
      cache.set(this, p);
    }
    return p;
  });
  const ids = new WeakMap<FastifyRequest, Promise<{ userId: string; sessionId: string } | null>>();
  app.decorateRequest("sessionUserId", function (this: FastifyRequest) {
    let p = ids.get(this);
    if (!p) {
      p = resolveSessionUserId(opts.auth, this.cookies[SESSION_COOKIE]).then((s) => {
        if (s) this.knownUserId = s.userId;
        return s;
      });
      ids.set(this, p);
    }
    return p;
  });

  app.addHook("onRequest", async (request) => {
    if (!WRITE_METHODS.has(request.method) || !request.cookies?.[SESSION_COOKIE]) return;
    const origin = request.headers.origin;
    // Browsers send Origin on cross-site writes; a cookie-bearing write from a foreign origin is refused.
    if (origin !== undefined && !opts.auth.origins.origins().includes(origin)) {
      throw new AppError("FORBIDDEN", `Origin ${origin} may not send cookie-authenticated writes`);
    }
    // A browser that sends no Origin still says where the request comes from (Fetch Metadata).
    if (origin === undefined && request.headers["sec-fetch-site"] === "cross-site") {
      throw new AppError("FORBIDDEN", "Cross-site cookie-authenticated writes are refused");
    }
  });
}

/** The signed-in user, or a 401 UNAUTHENTICATED. */
export async function requireUser(request: FastifyRequest): Promise<{ user: UserRow; sessionId: string }> {
  const s = await request.session();
  if (!s) throw new AppError("UNAUTHENTICATED", "Sign in first");
  return s;
}

/** The signed-in user's id, or a 401 UNAUTHENTICATED (for routes that need only the id). */
export async function requireUserId(request: FastifyRequest): Promise<{ userId: string; sessionId: string }> {
  const s = await request.sessionUserId();
  if (!s) throw new AppError("UNAUTHENTICATED", "Sign in first");
  return s;
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: SESSION_TTL_SECONDS,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure });
}

/** The user id a request's session cookie names, when its signature and expiry hold (no query; the rate limiter's key). */
export function sessionCookieUserId(jwtKey: Uint8Array, clock: Clock) {
  return async (request: FastifyRequest): Promise<string | null> => {
    const token = request.cookies?.[SESSION_COOKIE];
    const claims = token ? await verifySessionToken(jwtKey, token, clock.now()) : null;
    return claims ? claims.userId : null;
  };
}
