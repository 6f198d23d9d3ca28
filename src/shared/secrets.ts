/** Constant-time secret comparison: both sides are hashed first, so neither content nor length leaks by timing. */
import { createHash, timingSafeEqual } from "node:crypto";

export function secretMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** True when an `Authorization` header is `Bearer <expected>` (scheme case-insensitive, RFC 9110 §11.1). */
export function bearerMatches(authorization: string | undefined, expected: string): boolean {
  const m = /^Bearer (.+)$/i.exec(authorization ?? "");
  return secretMatches(m?.[1], expected);
}
