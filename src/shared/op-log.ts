/**
 * The logger a use case or background job writes its one outcome line to (a pino logger fits: the request's, the
 * app's, or a job's child with `{job}`). Optional in use cases: the CLI and tests run them without one.
 */
export interface OpLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Milliseconds since `startedAt` (a `performance.now()` reading), rounded to 0.1 ms. */
export function elapsedMs(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 10) / 10;
}
