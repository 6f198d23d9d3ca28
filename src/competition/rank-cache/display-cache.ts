/**
 * What ladder rows show of a user (display name, checksummed wallet), kept in memory so that a ladder page is
 * built without a query:
 *
 * - **the store** (display-store.ts): every user of the table, packed (≈ 65 bytes a user), loaded once in the
 *   background when a page first misses display data, reading the table in storage order LOAD_PAGES pages at a
 *   time. No page waits for it: until it is ready, pages query their users as below (at 1,000,000 users the load
 *   takes 7–12 s, which the first page after a start used to wait out). A table above `maxStoredUsers` gets no
 *   store. A user the load missed (its row moved meanwhile) is loaded as one created after it.
 * - **the entries**: the users the change feed reports as created or changed since the cache started, with their
 *   new display data read by the feed itself (`learn`), so a new player's first page needs no query; and users a
 *   page queried (in one query for its missing users: all of them when there is no store, or the entries were
 *   full). At most MAX_ENTRIES: beyond, they start over rather than track recency (hot pages refill in one query).
 *
 * A learned user is marked stale in the store; one learned while the store loads is marked once the load ends (the
 * page holding that user may have been read before the change committed). A page's query that was in flight when
 * the user was learned serves its own page but is not kept (its snapshot may predate the change). Measured in
 * docs/performance.md ("The full run again, session 2", "Session 19"); decided in docs/decisions.md ("Display data
 * of every user in one packed store", "The change feed brings what ladder rows show of new and changed players").
 */
import type { JsonBytes } from "../../http/json-bytes.js";
import { displayStoreUsers } from "../../metrics/app-metrics.js";
import { type DisplayInfo, DisplayStore } from "./display-store.js";

const MAX_ENTRIES = 100_000;
/** Table pages (8 kB) read per query while loading the store: ≈ 60,000 users when the table is dense. */
const LOAD_PAGES = 1024;
/** Above this many users (≈ 130 MB of store), the store is not loaded: pages query their missing users. */
export const MAX_STORED_USERS = 2_000_000;
/** After a failed load, the next attempt waits this long (pages query their users meanwhile). */
const RETRY_MS = 60_000;

/** Where display data comes from (the users capability's queries). */
export interface DisplaySource {
  /** The display data of `ids`, in one query. */
  of(ids: string[]): Promise<Map<string, DisplayInfo>>;
  /** The users stored in table pages [fromPage, toPage) (to the end when toPage is null), in any order. */
  inPages(fromPage: number, toPage: number | null): Promise<Array<{ id: number } & DisplayInfo>>;
  /** About how many users there are, and the table's pages. */
  extent(): Promise<{ users: number; pages: number }>;
}

export class DisplayCache {
  /** By numeric id: a number hashes without reading a string's characters. */
  private readonly entries = new Map<number, DisplayInfo>();
  private store: DisplayStore | null = null;
  private storeLoad: Promise<void> | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;
  /** Users learned while the store loads (null when no load runs): its pages may hold them as they were. */
  private learnedWhileLoading: number[] | null = null;
  /** The users each page's query in flight may keep once it lands (`learn` takes out those changed meanwhile). */
  private readonly queriesInFlight = new Set<Set<number>>();

  constructor(private readonly maxStoredUsers = MAX_STORED_USERS) {}

  async displayOf(ids: string[], source: DisplaySource): Promise<Map<string, DisplayInfo>> {
    const { store, found } = await this.resolve(ids, source);
    const shown = new Map<string, DisplayInfo>();
    ids.forEach((id, i) => {
      const d = found[i];
      if (d !== undefined) shown.set(id, typeof d === "number" ? store!.infoAt(d) : d);
    });
    return shown;
  }

  /** `displayOf` for a page written as JSON: each user's data stays where it is (a store slot, or an entry). */
  async pageDisplay(ids: string[], source: DisplaySource): Promise<PageDisplay> {
    const { store, found } = await this.resolve(ids, source);
    return new PageDisplay(store, found);
  }

  /**
   * Each of `ids`' display data: a slot of `store` (the store as it was when the read began), an entry, or one
   * loaded from `source` with the others missing (undefined: an unknown user).
   */
  private async resolve(
    ids: string[],
    source: DisplaySource,
  ): Promise<{ store: DisplayStore | null; found: Array<number | DisplayInfo | undefined> }> {
    // Taken before any await: an entry another request replaces or clears meanwhile (the entries full) still serves
    // this page, as it was when the page's read began; so does a store slot (its data never changes).
    // The store first: it answers nothing for a user whose profile changed since its load (stale), so what it
    // answers is current; the entries hold the users it lacks (created after the load, or stale).
    const entries = this.entries.size > 0 ? this.entries : null;
    const store = this.store;
    const found: Array<number | DisplayInfo | undefined> = new Array(ids.length);
    let missing = 0;
    for (let i = 0; i < ids.length; i++) {
      const n = Number(ids[i]);
      const slot = store ? store.find(n) : -1;
      const d = slot >= 0 ? slot : entries?.get(n);
      found[i] = d;
      if (d === undefined) missing++;
    }
    if (missing > 0 && !this.store) this.startStoreLoad(source);
    // Every user held (the store loaded): no query.
    if (missing === 0) return { store, found };
    const wanted = ids.filter((_, i) => found[i] === undefined);
    // What the query read is kept for later pages only for the users whose profile the feed has not reported as
    // changed meanwhile (`learn`): the query's snapshot may predate the change.
    const keep = new Set(wanted.map(Number));
    this.queriesInFlight.add(keep);
    let loaded: Map<string, DisplayInfo>;
    try {
      loaded = await source.of(wanted);
    } finally {
      this.queriesInFlight.delete(keep);
    }
    if (this.entries.size + loaded.size > MAX_ENTRIES) this.entries.clear();
    for (const [id, d] of loaded) if (keep.has(Number(id))) this.entries.set(Number(id), d);
    ids.forEach((id, i) => {
      found[i] ??= loaded.get(id);
    });
    return { store, found };
  }

  /**
   * Users the change feed reports as created or changed, with what their rows show now: held from now on (no page
   * queries them), and no longer answered from the store. Beyond MAX_ENTRIES the entries start over; a user left
   * out is queried by the next page that shows him.
   */
  learn(users: ReadonlyArray<{ id: number } & DisplayInfo>): void {
    for (const u of users) {
      if (this.entries.size >= MAX_ENTRIES && !this.entries.has(u.id)) this.entries.clear();
      this.entries.set(u.id, { displayName: u.displayName, wallet: u.wallet });
      this.store?.markStale(u.id);
      this.learnedWhileLoading?.push(u.id);
      for (const keep of this.queriesInFlight) keep.delete(u.id);
    }
  }

  /** Users held by the store (0 until it is loaded): the figure `loadStore` gives the gauge `app_display_store_users`. */
  get storedUsers(): number {
    return this.store?.size ?? 0;
  }

  /** Resolves when the store's load in progress (if any) has ended, loaded or failed. */
  async settled(): Promise<void> {
    await this.storeLoad;
  }

  /** Starts the store's load in the background unless it runs, is done, or failed less than RETRY_MS ago. */
  private startStoreLoad(source: DisplaySource): void {
    if (this.storeLoad || performance.now() - this.failedAt < RETRY_MS) return;
    this.storeLoad = this.loadStore(source).catch(() => {
      this.learnedWhileLoading = null;
      this.failedAt = performance.now();
      this.storeLoad = null;
    });
  }

  private async loadStore(source: DisplaySource): Promise<void> {
    this.learnedWhileLoading = [];
    const { users, pages } = await source.extent();
    if (users > this.maxStoredUsers) {
      this.learnedWhileLoading = null;
      return;
    }
    // A little room for the users created while it loads; names of ≈ 16 bytes (the store grows when it must).
    const store = new DisplayStore(Math.ceil(users * 1.01) + 16, 16 * users + 256);
    for (let from = 0; ; from += LOAD_PAGES) {
      // The last read runs to the end: pages added while it loads are read too.
      const last = from + LOAD_PAGES >= pages;
      store.append(await source.inPages(from, last ? null : from + LOAD_PAGES));
      if (last) break;
    }
    store.seal();
    for (const id of this.learnedWhileLoading) store.markStale(id);
    this.learnedWhileLoading = null;
    this.store = store;
    displayStoreUsers.set(store.size);
  }
}

/** A page's display data (`DisplayCache.pageDisplay`), written as JSON values by the user's position on the page. */
export class PageDisplay {
  constructor(
    private readonly store: DisplayStore | null,
    private readonly found: ReadonlyArray<number | DisplayInfo | undefined>,
  ) {}

  /** False for a user with no display data (not a user). */
  has(i: number): boolean {
    return this.found[i] !== undefined;
  }

  /** The display name of the page's i-th user as a JSON string. */
  writeName(i: number, out: JsonBytes): void {
    const d = this.found[i]!;
    if (typeof d === "number") this.store!.writeNameJson(d, out);
    else out.string(d.displayName);
  }

  /** The wallet of the page's i-th user as a JSON string, or `null`. */
  writeWallet(i: number, out: JsonBytes): void {
    const d = this.found[i]!;
    if (typeof d === "number") this.store!.writeWalletJson(d, out);
    else if (d.wallet === null) out.ascii("null");
    else out.string(d.wallet);
  }
}
