/**
 * Rate limits on every /api route (SPEC §6): reads per IP, writes per signed-in user (per IP when signed out),
 * sign-in and finalize per IP with tight limits. Requests bearing the valid admin token are not limited. The check
 * runs before any route's own hooks, so requests those hooks refuse (wrong secret or admin token) count too.
 * Counters live in Redis when REDIS_URL is set (shared by every instance), in memory otherwise. Responses carry
 * x-ratelimit-limit / -remaining / -reset; a 429 adds retry-after and the error envelope.
 */
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "../config.js";
import { AppError } from "../errors.js";
import { hasAdminToken } from "./admin-token.js";
import { isApiRequest } from "./api-path.js";

export type RateClass = "read" | "write" | "auth" | "finalize";

export function rateClassOf(request: FastifyRequest): RateClass {
  const declared = request.routeOptions.config?.rateClass;
  if (declared) return declared;
  return request.method === "GET" || request.method === "HEAD" ? "read" : "write";
}

export async function registerRateLimit(
  app: FastifyInstance,
  opts: {
    config: Config;
    redis: Redis | null;
    /** The signed-in user's id from the request's session cookie (verified, no query), or null. */
    writerOf: (request: FastifyRequest) => Promise<string | null>;
  },
): Promise<void> {
  const { config } = opts;
  const limits: Record<RateClass, number> = {
    read: config.rateLimits.readPerMin,
    write: config.rateLimits.writePerMin,
    auth: config.rateLimits.authPerMin,
    finalize: config.rateLimits.finalizePerMin,
  };
  await app.register(rateLimit, {
    // Not per route: the plugin would append its check after a route's own onRequest hooks, so a wrong finalize
    // secret or admin token (rejected by those hooks) would never be counted. One root hook, below, runs first.
    global: false,
    timeWindow: 60_000,
    redis: opts.redis ?? undefined,
    nameSpace: "sp-rl:",
    // A Redis outage must not take the API down with it: requests pass unlimited and the error is logged.
    skipOnError: true,
    allowList: (request) =>
      !isApiRequest(request) || hasAdminToken(request.headers.authorization, config.adminToken),
    keyGenerator: async (request) => {
      const cls = rateClassOf(request);
      if (cls === "write") {
        const userId = await opts.writerOf(request);
        if (userId !== null) return `write:user:${userId}`;
      }
      return `${cls}:ip:${request.ip}`;
    },
    max: async (request) => limits[rateClassOf(request)],
    errorResponseBuilder: (_request, context) =>
      new AppError("RATE_LIMITED", `Too many requests; retry in ${context.after}`),
  });
  app.addHook("onRequest", app.rateLimit());
}
