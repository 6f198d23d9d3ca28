/**
 * The injectable clock. Everything that reads "now" asks a Clock; with TEST_CLOCK=1 the admin API can pin it.
 */
export interface Clock {
  now(): Date;
}

/** Real time, optionally pinned to a fixed instant (tests, TEST_CLOCK=1). */
export class AdjustableClock implements Clock {
  private pinned: Date | null;

  constructor(pinned: Date | null = null) {
    this.pinned = pinned;
  }

  now(): Date {
    return this.pinned ? new Date(this.pinned.getTime()) : new Date();
  }

  /** Pins the clock to `at`, or returns to real time with null. */
  set(at: Date | null): void {
    this.pinned = at ? new Date(at.getTime()) : null;
  }
}

/**
 * The instants the test clock may be pinned to: UTC years 2000–2100. Far instants (year 0001, 9999) made every
 * read fail downstream (week arithmetic and PostgreSQL timestamps past their ranges); no test needs them.
 */
export const TEST_CLOCK_YEARS = { min: 2000, max: 2100 } as const;

export function isTestClockInstant(at: Date): boolean {
  const year = at.getUTCFullYear();
  return !Number.isNaN(at.getTime()) && year >= TEST_CLOCK_YEARS.min && year <= TEST_CLOCK_YEARS.max;
}
