/**
 * HTTP caching of API reads: a strong ETag, `If-None-Match` → 304, and a Cache-Control that says how long.
 *
 * A route opts in with `config.cache`:
 * - `"revalidate"`: public data that changes (events, odds, live ladders, the prize tree whose `claimed` flags
 *   follow the chain): `Cache-Control: public, no-cache`, so a browser or a CDN may keep it but asks every time,
 *   and gets an empty 304 when nothing changed;
 * - `"immutable-once-final"`: a read of a week that never changes once the week is finalized; the handler calls
 *   `cacheFinal(reply, finalized)`: `public, max-age=31536000, immutable` when finalized, else as `"revalidate"`.
 * Every other /api answer (signed-in reads, writes, errors) gets `Cache-Control: no-store`: nothing private or
 * transient is ever kept by a shared cache. Only 200 answers to GET/HEAD carry an ETag.
 *
 * The ETag is a hash of the JSON body as serialized, so it is strong (byte-identical bodies, identical tags). The
 * compressed forms of a body are other representations with other bytes: after @fastify/compress encoded one, the
 * tag gains the coding (`"<hash>-br"`, `"<hash>-gzip"`), and `If-None-Match` compares the hash alone, so a tag held
 * in either form revalidates (RFC 9110 §8.8.3; the way Apache's mod_deflate does it). Register `registerCaching`
 * before the compression plugin and `tagEncodedBodies` after it (the order of their hooks is the point).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isApiRequest } from "./api-path.js";
import { addRouteOnSend } from "./route-hooks.js";
import { bodyHash, representationOf } from "./shared-representation.js";

export type CacheConfig = "revalidate" | "immutable-once-final";

declare module "fastify" {
  interface FastifyContextConfig {
    /** How a 200 answer of this GET route may be cached (http/caching.ts); absent: `no-store`. */
    cache?: CacheConfig;
  }
}

export const CACHE_CONTROL = {
  immutable: "public, max-age=31536000, immutable",
  revalidate: "public, no-cache",
  private: "no-store",
} as const;

const finalAnswers = new WeakSet<FastifyReply>();

/** For an `"immutable-once-final"` route: this answer reads a finalized week (cacheable for a year) or not. */
export function cacheFinal(reply: FastifyReply, finalized: boolean): void {
  if (finalized) finalAnswers.add(reply);
}

/** The opaque part of each entity tag of an If-None-Match list, weak or strong, without a coding suffix. */
function hashesOf(ifNoneMatch: string): Set<string> | "*" {
  if (ifNoneMatch.trim() === "*") return "*";
  const hashes = new Set<string>();
  for (const m of ifNoneMatch.matchAll(/(?:W\/)?"([^"]*)"/g)) hashes.add(m[1]!.replace(/-(br|gzip)$/, ""));
  return hashes;
}

function policyOf(request: FastifyRequest, reply: FastifyReply): string {
  const config = request.routeOptions.config?.cache;
  if (config === undefined || reply.statusCode !== 200) return CACHE_CONTROL.private;
  if (config === "immutable-once-final" && finalAnswers.has(reply)) return CACHE_CONTROL.immutable;
  return CACHE_CONTROL.revalidate;
}

export function registerCaching(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    if (!isApiRequest(request) || reply.hasHeader("cache-control")) return payload;
    const cacheControl = policyOf(request, reply);
    reply.header("cache-control", cacheControl);
    const read = request.method === "GET" || request.method === "HEAD";
    // A shared representation (http/shared-representation.ts) comes with its bytes and hash.
    const shared = representationOf(reply);
    if (cacheControl === CACHE_CONTROL.private || !read || (typeof payload !== "string" && !shared))
      return payload;

    // Encoded once: the hash reads these bytes and the socket writes them (hashing the string, then writing it,
    // encoded a ladder page's 8.8 kB twice).
    const body = shared ? shared.json : Buffer.from(payload as string);
    const hash = shared ? shared.hash : bodyHash(body);
    reply.header("etag", `"${hash}"`);
    const given = request.headers["if-none-match"];
    const held = given ? hashesOf(given) : null;
    if (held === "*" || held?.has(hash)) {
      // The tag the client holds (with its coding) names the representation it already has.
      const coding = /"[^"]*-(br|gzip)"/.exec(given ?? "")?.[1];
      reply.header("etag", coding ? `"${hash}-${coding}"` : `"${hash}"`);
      reply.code(304).removeHeader("content-type").removeHeader("content-length");
      // No body, and (null rather than "") no content-length either: RFC 9110 §15.4.5.
      return null;
    }
    return body;
  });
}

/** After @fastify/compress: an encoded body's ETag names its coding (see the top of this file). */
export function tagEncodedBodies(app: FastifyInstance): void {
  addRouteOnSend(app, async (_request, reply, payload) => {
    const etag = reply.getHeader("etag");
    const coding = reply.getHeader("content-encoding");
    if (typeof etag === "string" && (coding === "br" || coding === "gzip") && !etag.startsWith("W/")) {
      reply.header("etag", `${etag.slice(0, -1)}-${coding}"`);
    }
    return payload;
  });
}
