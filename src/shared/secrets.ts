/** Constant-time secret comparison: both sides are hashed first, so neither content nor length leaks by timing. */
import { createHash, timingSafeEqual } from "node:crypto";

export function secretMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}
