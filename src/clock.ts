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
