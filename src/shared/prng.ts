/**
 * A small seeded pseudo-random generator for demo data: the same seed and key give the same sequence on every
 * machine and run. Not for anything secret.
 *
 * Contract:
 * - `hash32` is 32-bit FNV-1a over the string's UTF-16 code units.
 * - `mulberry32(n)` returns floats in [0, 1) from a 32-bit state.
 * - `streamFor(...keys)` gives an independent stream per key path, so adding a player or a week never shifts
 *   the numbers drawn for another one.
 * - Pure: no I/O, no clock, no global state.
 */

export type Rng = () => number;

export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An independent stream for one key path, e.g. `streamFor(seed, "player", 7)`. */
export function streamFor(...keys: Array<string | number>): Rng {
  return mulberry32(hash32(keys.join("|")));
}

/** An integer in [min, max]. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** One element, uniformly. The array must not be empty. */
export function pickOne<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new RangeError("pickOne of an empty list");
  return items[Math.floor(rng() * items.length)]!;
}

/** An index drawn with probability proportional to its (non-negative) weight. */
export function pickWeighted(rng: Rng, weights: readonly number[]): number {
  const total = weights.reduce((s, w) => s + w, 0);
  if (!(total > 0)) throw new RangeError("pickWeighted needs a positive total weight");
  let x = rng() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/** A copy of `items` in random order (Fisher–Yates). */
export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A geometric-like count ≥ 0 with the given mean (exponential, floored): many small values, a long tail. */
export function longTailCount(rng: Rng, mean: number): number {
  return Math.floor(-Math.log(1 - rng()) * mean);
}
