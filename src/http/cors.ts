/**
 * Cross-origin requests (@fastify/cors): only the origins of APP_ORIGINS may read answers from a browser, with
 * credentials (the session cookie). A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from
 * one of them answers 204 with the allowed methods and headers; from any other origin it answers the 403 envelope,
 * and a plain request from another origin gets no CORS header at all (the browser withholds the answer). An
 * `OPTIONS` that is not a preflight is a 404 like any unknown route.
 *
 * The same list already guards cookie-authenticated writes (auth/session.ts: 403 from a foreign Origin), so an
 * origin may read exactly where it may write. Register it before the rate limit: a preflight carries no cookie
 * and would otherwise spend the caller's quota.
 */
import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors.js";

/** Request headers a browser on an allowed origin may send (beyond the CORS-safelisted ones). */
export const CORS_ALLOWED_HEADERS = [
  "content-type",
  "authorization",
  "idempotency-key",
  "if-none-match",
  "last-event-id",
  "x-competition-finalize-secret",
];
/** Response headers its scripts may read (beyond the safelisted ones). */
export const CORS_EXPOSED_HEADERS = [
  "etag",
  "retry-after",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
];
export const CORS_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE"];
/** How long a browser may reuse a preflight answer (seconds). */
export const CORS_MAX_AGE = 600;

/** `allowedOrigins` answers the current APP_ORIGINS (they may follow the port listened on: auth/origins.ts). */
export async function registerCors(
  app: FastifyInstance,
  opts: { allowedOrigins: () => readonly string[] },
): Promise<void> {
  const isAllowed = (origin: string) => opts.allowedOrigins().includes(origin);
  app.addHook("onRequest", async (request) => {
    const origin = request.headers.origin;
    if (
      request.method === "OPTIONS" &&
      origin !== undefined &&
      request.headers["access-control-request-method"] !== undefined &&
      !isAllowed(origin)
    ) {
      throw new AppError("FORBIDDEN", `Origin ${origin} is not one of APP_ORIGINS`);
    }
  });
  await app.register(cors, {
    // Per request only the origin is decided: itself when allowed (CORS headers, with credentials), else false
    // (none). The rest is fixed, so the plugin prepares it once instead of per request (a delegator's options are
    // normalized again for every request: 3 % of a `/me`'s CPU, docs/performance.md "Session 8").
    origin: (origin, callback) => callback(null, origin !== undefined && isAllowed(origin) ? origin : false),
    credentials: true,
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: CORS_MAX_AGE,
    // An OPTIONS from an allowed origin without Access-Control-Request-Method still gets 204 and the headers,
    // rather than the plugin's plain-text 400.
    strictPreflight: false,
  });
}
