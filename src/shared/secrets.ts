/** Constant-time secret comparison: both sides are hashed first, so neither content nor length leaks by timing. */
import { hash, timingSafeEqual } from "node:crypto";

/** The digests of the expected secrets (a few configured values, each checked on every request that names one). */
const expectedDigests = new Map<string, Buffer>();
const MAX_EXPECTED = 64;

function digestOfExpected(expected: string): Buffer {
  let digest = expectedDigests.get(expected);
  if (!digest) {
    if (expectedDigests.size >= MAX_EXPECTED) expectedDigests.clear();
    digest = hash("sha256", expected, "buffer");
    expectedDigests.set(expected, digest);
  }
  return digest;
}

export function secretMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(hash("sha256", given, "buffer"), digestOfExpected(expected));
}

/** True when an `Authorization` header is `Bearer <expected>` (scheme case-insensitive, RFC 9110 §11.1). */
export function bearerMatches(authorization: string | undefined, expected: string): boolean {
  const m = /^Bearer (.+)$/i.exec(authorization ?? "");
  return secretMatches(m?.[1], expected);
}
