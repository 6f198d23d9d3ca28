/**
 * The wire bytes of a shared read. A value that many requests answer with unchanged (a live ladder page: the read
 * model builds it once per rank-cache sync and hands the same object to every request until the next change) is
 * serialized by the route's response schema, hashed for its ETag and compressed once per coding, and each later
 * request answering with the same object sends those bytes. Without it every request paid the serializer, the
 * hash and the compressor again for identical bytes: what happens when every open page refetches the page a
 * change touched (docs/performance.md, "Compressed answers").
 *
 * Keyed by the value's identity (a WeakMap), so the bytes live exactly as long as the value the read model keeps;
 * a value built for one request leaves with it. http/caching.ts takes the ETag from here, and http/compression.ts
 * the encoded bytes.
 */
import { hash } from "node:crypto";
import type { FastifyReply } from "fastify";

export type Coding = "br" | "gzip";

export interface Representation {
  /** The JSON body as the route's serializer writes it. */
  readonly json: Buffer;
  /** The ETag's opaque part: a hash of `json`. */
  readonly hash: string;
  /** `json` in each coding asked for so far. */
  readonly encoded: Partial<Record<Coding, Buffer>>;
}

const ofValue = new WeakMap<object, Representation>();
const ofReply = new WeakMap<FastifyReply, Representation>();

/** The ETag's opaque part for a body: the first 32 characters of its SHA-256 in base64url. */
export function bodyHash(body: Buffer): string {
  return hash("sha256", body, "base64url").slice(0, 32);
}

/**
 * Answers with `value`'s representation; the first answer for `value` builds it from `body()` (the response, e.g.
 * the presented value in its envelope) with the route's serializer for a 200.
 */
export function sendShared(reply: FastifyReply, value: object, body: () => unknown): FastifyReply {
  return sendSharedBytes(reply, value, () => Buffer.from(reply.serialize(body()) as string));
}

/**
 * `sendShared` for a body its route writes as JSON bytes itself (`json()`: what the route's serializer would write
 * for a 200; a live ladder page written from packed memory, competition/ladder-json.ts).
 */
export function sendSharedBytes(reply: FastifyReply, value: object, json: () => Buffer): FastifyReply {
  let representation = ofValue.get(value);
  if (!representation) {
    const bytes = json();
    representation = { json: bytes, hash: bodyHash(bytes), encoded: {} };
    ofValue.set(value, representation);
  }
  ofReply.set(reply, representation);
  return reply.type("application/json; charset=utf-8").send(representation.json);
}

/** The shared representation `reply` is sending, if it sends one. */
export function representationOf(reply: FastifyReply): Representation | undefined {
  return ofReply.get(reply);
}

/** `representation` in `coding`, encoded by `encode` the first time it is asked for. */
export function encodedAs(
  representation: Representation,
  coding: Coding,
  encode: (json: Buffer) => Buffer,
): Buffer {
  const encoded = representation.encoded as Record<Coding, Buffer | undefined>;
  encoded[coding] ??= encode(representation.json);
  return encoded[coding];
}
