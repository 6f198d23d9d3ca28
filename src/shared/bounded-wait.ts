/**
 * Waits with a bound. Each clears its timer as soon as the wait ends, either way: a timer left running holds a
 * process that ends on its own (the CLI) until it fires (docs/decisions.md, session 17).
 */

/** `p`'s value, or null when `ms` pass first (for a `p` that never resolves to null). */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** `p`'s value; rejects with `new Error(message)` when `ms` pass first, and with `p`'s error when it fails. */
export async function withTimeout<T>(p: Promise<T>, ms: number, message = "timeout"): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
