/**
 * A group commit: items submitted while a commit is in flight are committed together in the next transaction
 * (one transaction for many items instead of one each), and each submitter is answered with its own result once
 * that transaction has committed. When a grouped commit fails (e.g. one item is invalid), each item of the group
 * is committed again alone, so every submitter gets the answer it would have had alone.
 *
 * While items arrive densely (the last group started less than `denseMs` ago), the next group starts `delayMs`
 * later rather than at the next turn of the event loop, so that the items of the next few milliseconds share its
 * transaction, as PostgreSQL's `commit_delay` does. An item after a quiet spell starts at once; so do the groups of
 * the NO_WAIT_MS after USELESS_WAITS waits in a row that gathered no other item (one writer sending one item at a
 * time, whose next item only comes once the last is answered, would otherwise wait on every item). On the embedded
 * engine other writers cannot be seen while a group commits (its SQL runs on this thread), so the wait is tried,
 * not inferred. Measured in docs/performance.md ("Session 19": at 500 rows a second, 14–17 % less CPU a row on
 * PGlite and 0.18 commits a row instead of 0.30 on PostgreSQL; 10 % more rows a second saturated on PostgreSQL).
 *
 * One instance per owner (the app builds one per use case that groups); nothing is kept in module state.
 */
import type { Db, Tx } from "./client.js";

export interface GroupCommitOptions {
  /** Items in one transaction at most. */
  maxItems: number;
  /** Grouped commits running at once: an item waits for at most this many before its own. */
  maxInFlight: number;
  /** How long a group waits for more items while items arrive densely (default COMMIT_DELAY_MS). */
  delayMs?: number;
  /** Items arrive densely while the last group started less than this long ago (default DENSE_MS). */
  denseMs?: number;
}

/** A group's wait for more items while items arrive densely. */
export const COMMIT_DELAY_MS = 2;
/** Within this long of the last group's start, items count as arriving densely. */
export const DENSE_MS = 10;
/** Waits in a row that gathered no other item, after which groups start without waiting for NO_WAIT_MS. */
export const USELESS_WAITS = 3;
/** How long groups start without waiting after USELESS_WAITS useless waits. */
export const NO_WAIT_MS = 100;

type Waiting<I, R> = { input: I; resolve: (r: R) => void; reject: (err: unknown) => void };

export class GroupCommit<I, R> {
  private waiting: Waiting<I, R>[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** When the last group started (performance.now()). */
  private lastStart = Number.NEGATIVE_INFINITY;
  /** The next group was put off by COMMIT_DELAY_MS to gather company. */
  private waited = false;
  /** Waits in a row that gathered no company. */
  private uselessWaits = 0;
  /** Until then (performance.now()), groups start without waiting: the last waits gathered no company. */
  private noWaitUntil = Number.NEGATIVE_INFINITY;

  /** `commit` writes the items in `tx` and answers one result per item, in order. */
  constructor(
    private readonly db: Db,
    private readonly commit: (tx: Tx, inputs: I[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Commits `input` (grouped with the items submitted meanwhile); resolves once its transaction committed. */
  submit(input: I): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (this.scheduled || this.inFlight >= this.options.maxInFlight) return;
      // Start after this turn of the event loop, so that the requests read in the same turn share the group (the
      // embedded database would otherwise finish each commit before the next request is read); while items arrive
      // densely, a few milliseconds later, so that more of them share it.
      this.scheduled = true;
      const start = () => {
        this.scheduled = false;
        void this.drain();
      };
      const now = performance.now();
      this.waited = now - this.lastStart < (this.options.denseMs ?? DENSE_MS) && now >= this.noWaitUntil;
      if (this.waited) setTimeout(start, this.options.delayMs ?? COMMIT_DELAY_MS);
      else setImmediate(start);
    });
  }

  /** Commits one item in its own transaction. */
  alone(input: I): Promise<R> {
    return this.db.transaction(async (tx) => (await this.commit(tx, [input]))[0]!);
  }

  private async drain(): Promise<void> {
    this.inFlight++;
    try {
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, this.options.maxItems);
        this.lastStart = performance.now();
        // Waits that gathered no company, USELESS_WAITS in a row (one writer sending one item at a time): no more
        // waits for a while.
        if (this.waited) this.uselessWaits = group.length === 1 ? this.uselessWaits + 1 : 0;
        if (this.uselessWaits >= USELESS_WAITS) {
          this.noWaitUntil = this.lastStart + NO_WAIT_MS;
          this.uselessWaits = 0;
        }
        this.waited = false;
        if (group.length === 1) {
          await this.alone(group[0]!.input).then(group[0]!.resolve, group[0]!.reject);
          continue;
        }
        const results = await this.db
          .transaction((tx) =>
            this.commit(
              tx,
              group.map((w) => w.input),
            ),
          )
          .catch(() => null);
        if (results) {
          group.forEach((w, i) => {
            w.resolve(results[i]!);
          });
        } else {
          for (const w of group) await this.alone(w.input).then(w.resolve, w.reject);
        }
      }
    } finally {
      this.inFlight--;
    }
  }
}
