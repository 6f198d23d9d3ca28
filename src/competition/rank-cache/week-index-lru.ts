/**
 * The loaded live weeks' rank indexes, at most `maxWeeks` of them: loading one more evicts the least recently
 * used. Every load and drop makes the values derived from the loaded weeks (`derived`) stale.
 */
import type { DerivedMemo } from "./derived-memo.js";
import { RankIndex } from "./rank-index.js";

export class WeekIndexLru {
  private readonly weeks = new Map<number, RankIndex>();
  private readonly lastUse = new Map<number, number>();

  constructor(
    private readonly maxWeeks: number,
    private readonly derived: DerivedMemo,
  ) {}

  /** The week's index when it is loaded, else undefined (does not count as a use). */
  peek(week: number): RankIndex | undefined {
    return this.weeks.get(week);
  }

  /** The week's index when it is loaded, marked used now (for eviction); else undefined. */
  use(week: number): RankIndex | undefined {
    const index = this.weeks.get(week);
    if (index) this.lastUse.set(week, Date.now());
    return index;
  }

  /** Stores a freshly loaded week, then evicts the least recently used weeks beyond the bound. */
  add(week: number, rows: Iterable<{ userId: number; sp: number }>): RankIndex {
    const index = RankIndex.from(rows);
    this.weeks.set(week, index);
    this.derived.bump();
    this.lastUse.set(week, Date.now());
    this.evict();
    return index;
  }

  /**
   * Applies a feed read: forgets the finalized weeks (served from their snapshots), then sets players' SP in the
   * loaded weeks (a week not loaded is left alone: its load reads the new value).
   */
  apply(changes: Iterable<{ week: number; userId: number; sp: number }>, finalized: Iterable<number>): void {
    for (const week of finalized) this.drop(week);
    for (const c of changes) this.weeks.get(c.week)?.set(c.userId, c.sp);
  }

  /** Forgets a week. */
  drop(week: number): void {
    if (this.weeks.delete(week)) this.derived.bump();
    this.lastUse.delete(week);
  }

  private evict(): void {
    while (this.weeks.size > this.maxWeeks) {
      const oldest = [...this.lastUse].sort((a, b) => a[1] - b[1])[0];
      if (!oldest) return;
      this.drop(oldest[0]);
    }
  }
}
