/**
 * The loaded live weeks' rank indexes, at most `maxWeeks` of them: loading one more evicts the least recently
 * used. Reports every load and drop to `onChange` (values derived from the loaded weeks go stale).
 */
import { RankIndex } from "./rank-index.js";

export class WeekIndexLru {
  private readonly weeks = new Map<number, RankIndex>();
  private readonly lastUse = new Map<number, number>();

  constructor(
    private readonly maxWeeks: number,
    private readonly onChange: () => void,
  ) {}

  /** The week's index when it is loaded, else undefined (does not count as a use). */
  peek(week: number): RankIndex | undefined {
    return this.weeks.get(week);
  }

  /** Marks the week used now (for eviction). */
  touch(week: number): void {
    this.lastUse.set(week, Date.now());
  }

  /** Stores a freshly loaded week, then evicts the least recently used weeks beyond the bound. */
  add(week: number, rows: Iterable<{ userId: number; sp: number }>): RankIndex {
    const index = RankIndex.from(rows);
    this.weeks.set(week, index);
    this.onChange();
    this.touch(week);
    this.evict();
    return index;
  }

  /** Sets a player's SP in a loaded week (a week not loaded is left alone: its load reads the new value). */
  apply(week: number, userId: number, sp: number): void {
    this.weeks.get(week)?.set(userId, sp);
  }

  /** Forgets a week. */
  drop(week: number): void {
    if (this.weeks.delete(week)) this.onChange();
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
