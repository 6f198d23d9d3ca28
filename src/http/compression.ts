/**
 * Compression of answers above 1 KB (@fastify/compress): brotli or gzip, as the client's Accept-Encoding prefers,
 * for JSON, text and the web app's scripts and styles. Brotli runs at quality 4: the default 11 costs far more CPU
 * than it saves bytes on dynamic JSON. A body of up to SYNC_COMPRESSION_MAX_BYTES is compressed in one call: the
 * plugin's default on two cores (8 KB) sent every ladder page (≈ 9 KB) through a brotli stream of its own, ≈ 1 ms
 * of CPU a page instead of ≈ 0.1 ms (docs/performance.md, "Compressed answers"). A shared representation
 * (http/shared-representation.ts) is compressed once per coding, here, before the plugin (which leaves an
 * encoded body alone). Server-Sent Events (`text/event-stream`) are never compressed: a compressor holds events
 * back until its buffer fills, and a stream must reach the client event by event.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { negotiate } from "@fastify/accept-negotiator";
import compress from "@fastify/compress";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { addRouteOnSend } from "./route-hooks.js";
import { type Coding, encodedAs, representationOf } from "./shared-representation.js";

/** Content types worth compressing; `text/event-stream` is left out on purpose (see above). */
export const COMPRESSIBLE_TYPES =
  /^(?:application\/(?:[\w.+-]+\+)?json|application\/(?:javascript|manifest\+json|xml)|image\/svg\+xml|text\/(?!event-stream)[\w.+-]+)(?:;|$)/;

export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Compressed in one call up to this size (100-row pages are a fraction of it); streamed above. */
export const SYNC_COMPRESSION_MAX_BYTES = 65_536;

const CODINGS: Coding[] = ["br", "gzip"];
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const ENCODERS: Record<Coding, (json: Buffer) => Buffer> = {
  br: (json) => brotliCompressSync(json, BROTLI_OPTIONS),
  gzip: (json) => gzipSync(json),
};

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Route-level like the plugin's own hook, and just before it: after every app-wide onSend hook (the ETag's).
  addRouteOnSend(app, encodeShared);
  await app.register(compress, {
    global: true,
    encodings: CODINGS,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
    customTypes: COMPRESSIBLE_TYPES,
    brotliOptions: BROTLI_OPTIONS,
  });
}

/**
 * A shared representation's bytes in the coding the client prefers, as the plugin would choose it (its negotiation,
 * `*` and `x-gzip` read as gzip, `x-no-compression` honoured), encoded once per representation and coding.
 */
async function encodeShared(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const shared = representationOf(reply);
  // Not the representation's bytes: not shared, or already answered otherwise (a 304 has no body).
  if (!shared || payload !== shared.json || shared.json.length < COMPRESSION_THRESHOLD_BYTES) return payload;
  const accepted = request.headers["accept-encoding"];
  if (accepted === undefined || request.headers["x-no-compression"] !== undefined) return payload;
  const coding = negotiate(accepted.toLowerCase().replace(/\*|x-gzip/gu, "gzip"), CODINGS) as Coding | null;
  if (coding !== "br" && coding !== "gzip") return payload;
  const vary = reply.getHeader("vary");
  if (vary === undefined) reply.header("vary", "accept-encoding");
  else if (!String(vary).toLowerCase().includes("accept-encoding"))
    reply.header("vary", `${vary}, accept-encoding`);
  reply.header("content-encoding", coding);
  return encodedAs(shared, coding, ENCODERS[coding]);
}
