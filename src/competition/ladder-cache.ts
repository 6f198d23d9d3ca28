/**
 * Exact in-memory ranks of the live (not finalized) weeks, fed by the database so every instance agrees:
 * a week is loaded whole on first use, then follows the rank change feed (rows changed by transactions since a
 * watermark, see rankChangesSince). A read first syncs: it waits for a feed read that started after the read
 * arrived, so it sees every write committed before it — through any instance — and concurrent reads share one
 * feed query. A finalized week is served from its snapshot instead and dropped from memory.
 */
import type { Queryable } from "../db/client.js";
import { loadWeekSp, rankChangesSince } from "./competition.repository.js";
import { RankIndex } from "./rank-index.js";

export class LadderCache {
  private readonly weeks = new Map<number, RankIndex>();
  private readonly lastUse = new Map<number, number>();
  private watermark: string | null = null;
  /** Feed reads and week loads run one at a time, in order: a load never races a feed read. */
  private chain: Promise<unknown> = Promise.resolve();
  /** The next feed read, queued but not started yet: callers arriving now can share it. */
  private nextPull: Promise<void> | null = null;

  constructor(
    private readonly q: Queryable,
    private readonly maxWeeks = 4,
  ) {}

  /** The week's index, current as of a feed read that started after this call. */
  async week(week: number): Promise<RankIndex> {
    await this.sync();
    const index = this.weeks.get(week) ?? (await this.exclusive(() => this.load(week)));
    this.lastUse.set(week, Date.now());
    return index;
  }

  /** Forgets a week (after it is finalized: its reads come from the snapshot). */
  drop(week: number): void {
    this.weeks.delete(week);
    this.lastUse.delete(week);
  }

  /** Resolves once a feed read that started after this call has been applied. */
  sync(): Promise<void> {
    if (!this.nextPull) {
      this.nextPull = this.exclusive(async () => {
        this.nextPull = null;
        const { xmin, changes } = await rankChangesSince(this.q, this.watermark);
        for (const c of changes) this.weeks.get(c.week)?.set(c.userId, c.sp);
        this.watermark = xmin;
      });
    }
    return this.nextPull;
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async load(week: number): Promise<RankIndex> {
    const loaded = this.weeks.get(week);
    if (loaded) return loaded;
    // No feed read runs meanwhile; a change after this load's snapshot comes from a transaction at or above
    // the watermark, so the next feed read re-applies it with its newest value.
    const index = RankIndex.from(await loadWeekSp(this.q, week));
    this.weeks.set(week, index);
    this.lastUse.set(week, Date.now());
    this.evict();
    return index;
  }

  private evict(): void {
    while (this.weeks.size > this.maxWeeks) {
      const oldest = [...this.lastUse].sort((a, b) => a[1] - b[1])[0];
      if (!oldest) return;
      this.drop(oldest[0]);
    }
  }
}
