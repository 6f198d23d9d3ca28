/**
 * Exact in-memory ranks of the live (not finalized) weeks, fed by the database so every instance agrees:
 * a week is loaded whole on first use, then follows the rank change feed (rows changed by transactions since a
 * watermark, see rankChangesSince). A read first syncs: it waits for a feed read that started after the read
 * arrived, so it sees every write committed before it — through any instance — and concurrent reads share one
 * feed query. The same query reports which weeks are finalized: such a week is served from its snapshot and
 * dropped from memory.
 *
 * This file is the change-feed sync; what it keeps up to date lives beside it: the loaded weeks
 * (week-index-lru.ts), values derived from them (derived-memo.ts), facts that never change once written
 * (immutable-memo.ts) and what ladder rows show of a user (display-cache.ts).
 */
import type { Queryable } from "../../db/client.js";
import type { LiveLadder } from "../live-ladder.js";
import { DerivedMemo } from "./derived-memo.js";
import { DisplayCache, type DisplaySource, type PageDisplay } from "./display-cache.js";
import type { DisplayInfo } from "./display-store.js";
import { ImmutableMemo } from "./immutable-memo.js";
import { loadWeekSp, rankChangesSince } from "./rank-feed.repository.js";
import { cachedLadder } from "./rank-index.js";
import { WeekIndexLru } from "./week-index-lru.js";

export class RankCache {
  /**
   * Values derived from the live ranks, the finalized weeks and the displayed profiles; made stale whenever the
   * cached state may have changed: a feed read reporting any changed rank row (even one seen before), a changed
   * profile or a change in the finalized weeks, a week loaded or dropped.
   */
  private readonly derived = new DerivedMemo();
  private readonly weeks: WeekIndexLru;
  private readonly immutable = new ImmutableMemo();
  private readonly display = new DisplayCache();
  private watermark: string | null = null;
  private finalized = new Set<number>();
  /** Feed reads and week loads run one at a time, in order: a load never races a feed read. */
  private chain: Promise<unknown> = Promise.resolve();
  /** The next feed read, queued but not started yet: callers arriving now can share it. */
  private nextPull: Promise<void> | null = null;
  /** The feed read in flight, numbered in start order. */
  private current: { index: number; done: Promise<void> } | null = null;
  /** Feed reads started, and the number of the last one applied (they apply in start order). */
  private started = 0;
  private applied = 0;

  /** The database's write counter when the last feed read started (embedded database only). */
  private seenChanges = -1;

  /**
   * `changeCount` (embedded database only) counts completed writes: when it has not moved since the last feed
   * read, nothing changed and a sync needs no query. A week's first load (a million rows) runs on `bulkQ`
   * (Database.bulkDb: its statement bound is made for work of that size); feed reads run on `q`.
   */
  constructor(
    private readonly q: Queryable,
    private readonly changeCount?: () => number,
    private readonly bulkQ: Queryable = q,
    maxWeeks = 4,
  ) {
    this.weeks = new WeekIndexLru(maxWeeks, this.derived);
  }

  /**
   * The week's ladder (the live-ladder port) as of the last sync (call `sync()` first): loaded on first use when
   * `load`, else only when the week is loaded already (null when not).
   */
  async ladder(week: number, load: boolean): Promise<LiveLadder | null> {
    // Loads run one at a time with feed reads (`exclusive`): no feed read runs meanwhile, and a change after this
    // load's snapshot comes from a transaction at or above the watermark, so the next feed read re-applies it with
    // its newest value. A load queued behind another load of the same week finds it loaded.
    const index = !load
      ? this.weeks.peek(week)
      : (this.weeks.use(week) ??
        (await this.exclusive(
          async () => this.weeks.use(week) ?? this.weeks.add(week, await loadWeekSp(this.bulkQ, week)),
        )));
    return index ? cachedLadder(index) : null;
  }

  /**
   * A value derived from the live ranks and the finalized weeks (e.g. next week's eligibility), computed once
   * per version of the cache: every request served after the same sync shares it, and any change the feed
   * reports makes the next request compute it again. (A value may include changes applied while it was being
   * computed: newer, never older, than the sync its callers waited for.)
   */
  derive<T>(key: string, make: () => Promise<T>): Promise<T> {
    return this.derived.derive(key, make);
  }

  /** A value that never changes once it exists (e.g. a finalized week's stored rows), loaded once. */
  remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.immutable.remember(key, load);
  }

  /**
   * Display data of users (as of the last sync): from memory (display-cache.ts: a store of every user, loaded
   * once, and the users loaded since), the missing ones in one query of `source`.
   */
  displayOf(ids: string[], source: DisplaySource): Promise<Map<string, DisplayInfo>> {
    return this.display.displayOf(ids, source);
  }

  /** `displayOf` for a page written as JSON straight from memory (display-cache.ts `PageDisplay`). */
  pageDisplay(ids: string[], source: DisplaySource): Promise<PageDisplay> {
    return this.display.pageDisplay(ids, source);
  }

  /** Forgets a week (after it is finalized: its reads come from the snapshot). */
  drop(week: number): void {
    this.weeks.drop(week);
  }

  /**
   * A mark of "now" for `sync`: the number of feed reads started so far. Taken when a request arrives, it lets a
   * later `sync(ticket)` share a feed read that started after the arrival, even one already applied.
   */
  ticket(): number {
    return this.started;
  }

  /**
   * Resolves once a feed read that started after `ticket` (default: after this call) has been applied, so the
   * cache holds every write committed before the ticket was taken; to the finalized weeks as of then (a set the
   * next sync replaces, never changes in place: a reader may keep it).
   */
  async sync(ticket: number = this.started): Promise<ReadonlySet<number>> {
    await this.pull(ticket);
    return this.finalized;
  }

  /** The feed read `sync` waits for: none when nothing can have changed, else a shared one started after `ticket`. */
  private pull(ticket: number): Promise<void> {
    if (this.changeCount && this.changeCount() === this.seenChanges && !this.nextPull)
      return Promise.resolve();
    if (this.applied > ticket) return Promise.resolve();
    if (this.current && this.current.index > ticket) return this.current.done;
    if (!this.nextPull) {
      this.nextPull = this.exclusive(async () => {
        const index = ++this.started;
        const done = this.nextPull!;
        this.nextPull = null;
        this.current = { index, done };
        const writesSeen = this.changeCount?.() ?? -1;
        try {
          const { xmin, finalized, changes, profiles } = await rankChangesSince(this.q, this.watermark);
          const sameFinalized =
            finalized.length === this.finalized.size && finalized.every((w) => this.finalized.has(w));
          this.weeks.apply(changes, finalized);
          this.display.learn(profiles);
          this.watermark = xmin;
          if (changes.length > 0 || profiles.length > 0 || !sameFinalized) this.derived.bump();
          this.finalized = new Set(finalized);
          this.seenChanges = writesSeen;
          this.applied = index;
        } finally {
          if (this.current?.index === index) this.current = null;
        }
      });
    }
    return this.nextPull;
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task, task);
    this.chain = run.catch(() => undefined);
    return run;
  }
}
