/**
 * Compression of answers above 1 KB (@fastify/compress): brotli or gzip, as the client's Accept-Encoding prefers,
 * for JSON, text and the web app's scripts and styles. Brotli runs at quality 4: the default 11 costs far more CPU
 * than it saves bytes on dynamic JSON. A body of up to SYNC_COMPRESSION_MAX_BYTES is compressed in one call: the
 * plugin's default on two cores (8 KB) sent every ladder page (≈ 9 KB) through a brotli stream of its own, ≈ 1 ms
 * of CPU a page instead of ≈ 0.1 ms (docs/performance.md, "Compressed answers"). Server-Sent Events (`text/event-stream`) are never compressed: a compressor
 * holds events back until its buffer fills, and a stream must reach the client event by event.
 */
import { constants } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Content types worth compressing; `text/event-stream` is left out on purpose (see above). */
export const COMPRESSIBLE_TYPES =
  /^(?:application\/(?:[\w.+-]+\+)?json|application\/(?:javascript|manifest\+json|xml)|image\/svg\+xml|text\/(?!event-stream)[\w.+-]+)(?:;|$)/;

export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Compressed in one call up to this size (the largest API answers, 100-row pages, are well under it); streamed above. */
export const SYNC_COMPRESSION_MAX_BYTES = 65_536;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ["br", "gzip"],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
    customTypes: COMPRESSIBLE_TYPES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
