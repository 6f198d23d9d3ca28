/**
 * The typed client: openapi-fetch over the types generated from the service's OpenAPI document (api-types.ts),
 * so every path, parameter, body, answer and error code is checked by the compiler.
 *
 * The session is the `session` cookie a sign-in sets. A browser keeps and sends it by itself (the client asks for
 * `credentials: "include"`, so it also works cross-origin from an APP_ORIGINS page). Outside a browser (Node, Bun,
 * Deno) nothing keeps cookies, so the client does: it stores the cookie a sign-in sets in `sp.session`, sends it
 * with every request, and forgets it when the server clears it (sign-out). The same goes for the `siwe_nonce`
 * cookie that binds a sign-in nonce to the client that asked for it (GET /api/auth/nonce sets it, POST
 * /api/auth/wallet and PUT /api/me/payout-address need it back). A browser hides `set-cookie` from scripts and refuses a script-set `cookie`
 * header, so there the store stays empty and harmless.
 */
import createClient, { type Client, type ClientOptions, type Middleware } from "openapi-fetch";
import type { components, paths } from "./api-types.js";

export type { components, paths };

/** The session cookie, as sent (`session=…`), or null when signed out; and the pending sign-in nonce's cookie. */
export interface SessionStore {
  cookie: string | null;
  /** `siwe_nonce=…` of the last nonce asked for, sent back with the sign-in; null when none. */
  nonceCookie?: string | null;
}

export interface SpClient extends Client<paths> {
  /** The server, as given (absolute, or "" / relative in a page of the same origin). */
  readonly baseUrl: string;
  /** The session this client sends outside a browser (see the top of this file); set it to resume one. */
  readonly session: SessionStore;
}

export interface SpClientOptions extends Omit<ClientOptions, "baseUrl"> {
  /** The server, e.g. `http://localhost:3000`; "" (the default) in a page served by the service itself. */
  baseUrl?: string;
  /** A session cookie saved from an earlier sign-in (`sp.session.cookie`), to resume it. */
  session?: string | null;
}

const SESSION = "session";
const NONCE = "siwe_nonce";

/** The session cookie a `set-cookie` header sets, `null` when it clears it, `undefined` when it is another. */
export function sessionFromSetCookie(header: string): string | null | undefined {
  return cookieFromSetCookie(header, SESSION);
}

/** Cookie `name` as a `set-cookie` header sets it (`name=value`), `null` when cleared, `undefined` when another. */
function cookieFromSetCookie(header: string, name: string): string | null | undefined {
  const [pair = "", ...attributes] = header.split(";");
  const eq = pair.indexOf("=");
  if (eq < 0 || pair.slice(0, eq).trim() !== name) return undefined;
  const value = pair.slice(eq + 1).trim();
  const expired = attributes.some((a) => {
    const [name = "", v = ""] = a.split("=").map((x) => x.trim());
    if (name.toLowerCase() === "max-age") return Number(v) <= 0;
    if (name.toLowerCase() === "expires") return Date.parse(v) <= Date.now();
    return false;
  });
  return value === "" || expired ? null : `${name}=${value}`;
}

function sessionMiddleware(store: SessionStore): Middleware {
  return {
    onRequest({ request }) {
      const cookies = [store.cookie, store.nonceCookie].filter((c) => c != null);
      if (cookies.length > 0 && !request.headers.has("cookie"))
        request.headers.set("cookie", cookies.join("; "));
      return request;
    },
    onResponse({ response }) {
      for (const header of response.headers.getSetCookie?.() ?? []) {
        const session = sessionFromSetCookie(header);
        if (session !== undefined) store.cookie = session;
        const nonce = cookieFromSetCookie(header, NONCE);
        if (nonce !== undefined) store.nonceCookie = nonce;
      }
      return response;
    },
  };
}

/** A client of the service at `baseUrl`: `sp.GET("/api/events/{id}", { params: { path: { id } } })`, … */
export function createSpClient(options: SpClientOptions = {}): SpClient {
  const { session = null, baseUrl = "", ...rest } = options;
  const client = createClient<paths>({ credentials: "include", ...rest, baseUrl });
  const store: SessionStore = { cookie: session };
  client.use(sessionMiddleware(store));
  return Object.assign(client, { baseUrl, session: store });
}

/** The error envelope of the service (SPEC): `{success: false, error, status, code, details?}`. */
export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];
export type ErrorCode = ErrorEnvelope["code"];

function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === "object" &&
    value !== null &&
    "success" in value &&
    value.success === false &&
    "code" in value &&
    typeof value.code === "string" &&
    "error" in value &&
    typeof value.error === "string"
  );
}

/** A refused call: the envelope's code, status, message and details (or the bare HTTP status of a non-API answer). */
export class SpApiError extends Error {
  readonly status: number;
  /** The envelope's code; `HTTP_ERROR` when the answer was not the service's envelope (a proxy's page). */
  readonly code: ErrorCode | "HTTP_ERROR";
  readonly details: unknown;

  constructor(response: Response, body: unknown) {
    const envelope = isErrorEnvelope(body) ? body : null;
    super(envelope ? envelope.error : `HTTP ${response.status} ${response.statusText}`.trim());
    this.name = "SpApiError";
    this.status = response.status;
    this.code = envelope ? envelope.code : "HTTP_ERROR";
    this.details = envelope?.details;
  }
}

/**
 * The `data` of a call's success envelope, or a thrown SpApiError: `const event = await ok(sp.GET(…))`.
 * Every answer of the service is enveloped, so this is the one unwrapping a client needs.
 */
export async function ok<T>(
  call: Promise<{ data?: { success: true; data: T }; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (data === undefined) throw new SpApiError(response, error);
  return data.data;
}
