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
 * - a success description, a 304 for a cacheable read (`config.cache`), its rate-limit class;
 * openapi-components.ts then names the titled entity schemas as components and adds every response's headers.
 * The test suite validates the document (two validators and `redocly lint`, no warning), checks that every
 * operation has all of this, and validates every response it receives against it (test/app.ts).
 */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance, RouteOptions } from "fastify";
import { ERROR_STATUS, type ErrorCode } from "../errors.js";
import { addHeaders, nameComponents } from "./openapi-components.js";

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
  // A cookie-bearing write from a foreign origin is refused whatever the route (auth/session.ts).
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

/** Why a request may be answered 304: it sent back the ETag of the body it holds. */
const NOT_MODIFIED = {
  "x-response-description":
    "Not Modified: the answer is still the one whose ETag the request sent in If-None-Match (no body)",
  type: "null",
};

/** The description of a success response: the status, and the entity its `data` is when it has a name. */
function successDescription(status: string, schema: unknown, summary: unknown): string {
  const verdict = status === "201" ? "Created" : status === "200" ? "OK" : `HTTP ${status}`;
  const data = (schema as { properties?: { data?: { title?: unknown } } } | null)?.properties?.data;
  if (typeof data?.title === "string") return `${verdict}: \`data\` is the ${data.title}`;
  return typeof summary === "string" ? `${verdict}: ${summary}` : verdict;
}

/**
 * The documented form of a route's schema: derived operationId, security, error responses and success
 * descriptions added; a cacheable GET (`config.cache`) also answers 304. The headers these responses carry
 * (rate limits, ETag, Cache-Control) are added to the document as a whole (`addHeaders`), from the `x-` marks
 * left here.
 */
export function documentRoute(route: RouteOptions): Record<string, unknown> {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const method = String(route.method);
  const auth = route.config?.auth;
  const success = Object.fromEntries(
    Object.entries((schema.response ?? {}) as Record<string, unknown>)
      .filter(([status]) => Number(status) < 400)
      .map(([status, response]) => {
        const r = response as Record<string, unknown>;
        const described = r.description ?? r["x-response-description"];
        return [
          status,
          described ? r : { ...r, "x-response-description": successDescription(status, r, schema.summary) },
        ];
      }),
  );
  const cache = route.config?.cache;
  const rateClass = route.url.startsWith("/api/") ? rateClassOfRoute(method, route.config?.rateClass) : null;
  return {
    ...schema,
    operationId: schema.operationId ?? operationIdOf(method, route.url),
    ...(auth ? { security: SECURITY[auth] } : {}),
    ...(cache ? { "x-cache": cache } : {}),
    ...(rateClass ? { "x-rate-limit-class": rateClass } : {}),
    response: {
      ...success,
      ...(cache ? { 304: NOT_MODIFIED } : {}),
      ...errorResponses(routeErrors({ ...route, method, schema })),
    },
  };
}

/** The rate-limit class of a route (http/rate-limit.ts's rule, from the route's declaration alone). */
function rateClassOfRoute(method: string, declared: string | undefined): string {
  return declared ?? (method === "GET" || method === "HEAD" ? "read" : "write");
}

/** The API's conventions, as the document's description (Markdown). */
const CONVENTIONS = `Weekly Qualification and Champions ladders, predictions, rewards.

**Envelope.** Every JSON answer is \`{success: true, data}\` or the \`ErrorEnvelope\` \`{success: false, error,
status, code}\`; each operation lists the codes each of its error statuses can carry.

**Sign-in.** \`GET /api/auth/nonce\`, then \`POST /api/auth/wallet\` with an EIP-4361 message signed by the wallet
(or \`POST /api/auth/oidc\` with an ID token) sets the \`session\` cookie (HttpOnly, 7 days). The typed SDK
(\`packages/sdk\`) does both in one call.

**Pagination.** Two styles, by kind of list. *Rankings* (\`/api/competition/leaderboard\`, \`/api/leaderboard\`) are
offset-paged: \`offset\` + \`limit\` in, \`total\`, \`offset\`, \`limit\` out, so a client can jump to any rank. *Feeds*
(\`/api/available-events\`, \`/api/user/predictions\`) are cursor-paged: \`limit\` + \`cursor\` in, \`nextCursor\` out
(null on the last page), so rows added while a client pages are neither skipped nor repeated. Other lists are
bounded and unpaged (\`top-points\` takes a \`limit\`).

**Caching.** Public reads carry a strong \`ETag\`; send it back in \`If-None-Match\` to get an empty 304 while the
answer is unchanged. \`Cache-Control\` says for how long: a year (\`immutable\`) for a finalized week's ladder page
and prize pool, \`public, no-cache\` (revalidate each time) for live data, \`no-store\` for every signed-in answer,
write and error.

**Compression.** Answers above 1 KB are brotli- or gzip-compressed as \`Accept-Encoding\` allows.

**CORS.** Browsers on the service's \`APP_ORIGINS\` may call it cross-origin with credentials; other origins get no
CORS headers (their preflights a 403).

**Rate limits.** Every \`/api\` answer carries \`x-ratelimit-limit\`, \`x-ratelimit-remaining\` and
\`x-ratelimit-reset\` for its class (\`x-rate-limit-class\`); a 429 adds \`retry-after\`.`;

export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "SP prediction platform API",
        description: CONVENTIONS,
        version: "1.0.0",
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      // Relative: /docs "Try it out" calls the server that serves the document, whatever its host and PORT.
      servers: [{ url: "/", description: "The server serving this document" }],
      tags: [
        { name: "ops", description: "Liveness, readiness and metrics" },
        { name: "auth", description: "Wallet and identity sign-in, the session" },
        { name: "competition", description: "The weekly Qualification and Champions ladders" },
        { name: "events", description: "Sports events and their odds" },
        { name: "predictions", description: "Bets with credits (v1) or USDC on-chain (v2), claims" },
        { name: "chain", description: "The chain of USDC bets: contracts and the odds signer" },
        { name: "leaderboard", description: "The all-time SP leaderboard" },
        { name: "profile", description: "A player's statistics" },
        { name: "rewards", description: "Referrals, the daily raffle, daily free credits" },
        { name: "admin", description: "The admin / feed API (bearer ADMIN_TOKEN)" },
        { name: "stream", description: "Live updates (Server-Sent Events)" },
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
    transformObject: (document) => {
      if (!("openapiObject" in document)) return document.swaggerObject;
      const doc = document.openapiObject as Record<string, unknown>;
      nameComponents(doc);
      addHeaders(doc);
      return document.openapiObject;
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
}
