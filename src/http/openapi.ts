/**
 * OpenAPI 3.1 generated from the route schemas, served at /docs (UI) and /docs/json.
 *
 * A route declares, beside its schema's `summary` and `tags`, who may call it (`config.auth`) and the error codes
 * its use case throws (`config.errors`). `documentRoute` derives the rest of its operation, so a route added later
 * is documented by those declarations alone:
 * - `operationId` from the method and the path (`GET /api/events/:id` → `getEventsById`), unless the schema
 *   names one;
 * - `security` from `auth`;
 * - every error status the route can answer: the codes any route of its kind can answer (`routeErrors`) plus its
 *   own, each status one response of the named `ErrorEnvelope` schema with `status` and `code` narrowed to it.
 * The test suite validates the document (two validators and redocly), checks that every operation has all of
 * this, and validates every response it receives against it (test/app.ts).
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, RouteOptions } from "fastify";
import { ERROR_STATUS, type ErrorCode } from "../errors.js";

/** Who may call a route: the security requirement its operation declares. */
export type RouteAuth = keyof typeof SECURITY;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Who may call the route (`SECURITY`); every documented route declares it. */
    auth?: RouteAuth;
    /** Error codes the route's use case throws, beyond those every route of its kind answers (`routeErrors`). */
    errors?: readonly ErrorCode[];
  }
}

const SECURITY = {
  /** Anyone. */
  public: [],
  /** A signed-in player (the `session` cookie); 401 without it. */
  session: [{ session: [] }],
  /** Anyone; a signed-in player gets more (their own row, a linked account). */
  "session-optional": [{}, { session: [] }],
  /** The admin / feed bearer token; 401 without it. */
  admin: [{ admin: [] }],
  /** The finalize secret header; 401 without it. */
  finalize: [{ finalizeSecret: [] }],
} as const;

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Every error code a route can answer: the ones of its kind, then its own (`config.errors`). */
export function routeErrors(route: {
  method: string;
  url: string;
  schema?: Record<string, unknown>;
  config?: { auth?: RouteAuth; errors?: readonly ErrorCode[] };
}): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  const hasBody = BODY_METHODS.has(route.method);
  const s = route.schema ?? {};
  if (hasBody || s.querystring || s.params || s.headers || s.body) codes.add("VALIDATION_FAILED");
  const auth = route.config?.auth;
  if (auth === "session" || auth === "admin" || auth === "finalize") codes.add("UNAUTHENTICATED");
  // A cookie-bearing write from a foreign origin is refused whatever the route (http/session.ts).
  if (hasBody) codes.add("FORBIDDEN");
  for (const code of route.config?.errors ?? []) codes.add(code);
  if (hasBody) {
    codes.add("PAYLOAD_TOO_LARGE");
    codes.add("UNSUPPORTED_MEDIA_TYPE");
  }
  // Every /api route is rate limited (http/rate-limit.ts).
  if (route.url.startsWith("/api/")) codes.add("RATE_LIMITED");
  // Any route answers 503 while the server shuts down (http/shutdown.ts) or a dependency is down or stalled.
  codes.add("SERVICE_UNAVAILABLE");
  codes.add("INTERNAL");
  return [...codes];
}

/** `GET /api/events/:id/odds` → `getEventsByIdOdds`: unique per method and path. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, "/")
    .split("/")
    .filter(Boolean)
    .flatMap((segment) =>
      segment.startsWith(":") ? ["by", segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/),
    );
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return method.toLowerCase() + words.filter(Boolean).map(capital).join("");
}

/** Error responses of a route: one per status, the ErrorEnvelope narrowed to that status and its codes. */
function errorResponses(codes: ErrorCode[]): Record<number, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      status,
      {
        description: `Error envelope: ${statusCodes.join(", ")}`,
        allOf: [
          { $ref: "ErrorEnvelope#" },
          {
            type: "object",
            required: ["status", "code"],
            properties: {
              status: { type: "integer", enum: [status] },
              code: { type: "string", enum: statusCodes },
            },
          },
        ],
      },
    ]),
  );
}

/** The documented form of a route's schema: derived operationId, security and error responses added. */
export function documentRoute(route: RouteOptions): Record<string, unknown> {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const method = String(route.method);
  const auth = route.config?.auth;
  const response = Object.fromEntries(
    Object.entries((schema.response ?? {}) as Record<string, unknown>).filter(
      ([status]) => Number(status) < 400,
    ),
  );
  return {
    ...schema,
    operationId: schema.operationId ?? operationIdOf(method, route.url),
    ...(auth ? { security: SECURITY[auth] } : {}),
    response: { ...response, ...errorResponses(routeErrors({ ...route, method, schema })) },
  };
}

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "SP prediction platform API",
        description:
          "Weekly Qualification and Champions ladders, predictions, rewards. Every response is enveloped: " +
          "`{success: true, data}` or the `ErrorEnvelope` `{success: false, error, status, code}`.",
        version: "1.0.0",
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      servers: [{ url: "http://127.0.0.1:3000", description: "A local instance (PORT, HOST)" }],
      tags: [
        { name: "ops", description: "Liveness and readiness" },
        { name: "auth", description: "Wallet and identity sign-in, the session" },
        { name: "competition", description: "The weekly Qualification and Champions ladders" },
        { name: "events", description: "Sports events and their odds" },
        { name: "predictions", description: "Bets with credits (v1) or USDC on-chain (v2), claims" },
        { name: "chain", description: "The chain of USDC bets: contracts and the odds signer" },
        { name: "leaderboard", description: "The all-time SP leaderboard" },
        { name: "profile", description: "A player's statistics" },
        { name: "rewards", description: "Referrals, the daily raffle, daily free credits" },
        { name: "admin", description: "The admin / feed API (bearer ADMIN_TOKEN)" },
      ],
      components: {
        securitySchemes: {
          session: {
            type: "apiKey",
            in: "cookie",
            name: "session",
            description: "The session cookie set by a sign-in (HttpOnly, 7 days)",
          },
          admin: { type: "http", scheme: "bearer", description: "ADMIN_TOKEN" },
          finalizeSecret: {
            type: "apiKey",
            in: "header",
            name: "x-competition-finalize-secret",
            description: "FINALIZE_SECRET",
          },
        },
      },
    },
    // Shared schemas are components named by their $id (ErrorEnvelope), not def-N.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }) => ({
      schema: documentRoute({ ...route, schema } as RouteOptions) as typeof schema,
      url,
    }),
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
}
