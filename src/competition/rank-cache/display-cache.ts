/**
 * What ladder rows show of a user (display name, checksummed wallet), kept in memory: the missing ones are loaded
 * in one query, and an entry is forgotten when the change feed reports that profile changed. At most
 * MAX_DISPLAY_ENTRIES: beyond, it starts over rather than track recency (hot pages refill in one query).
 *
 * A caller may give `neighbours`, asked for only on a miss, to load with the missing ones (the users around a
 * ladder page): one query then
 * fills the cache for the next pages too. A page built from memory costs microseconds, a query for its rows on the
 * embedded database ≈ 1–2 ms of the one thread (and a keccak per wallet to checksum it): measured in
 * docs/performance.md, "Round three, reads".
 */
const MAX_DISPLAY_ENTRIES = 200_000;
/** Ladders up to this size are loaded whole with a page's missing rows (≈ 25 MB at this size). */
export const PREFETCH_MAX_LADDER = MAX_DISPLAY_ENTRIES / 2;

export interface DisplayInfo {
  displayName: string;
  wallet: string | null;
}

export class DisplayCache {
  private readonly entries = new Map<string, DisplayInfo>();

  async displayOf(
    ids: string[],
    load: (missing: string[]) => Promise<Map<string, DisplayInfo>>,
    neighbours?: () => Promise<readonly string[]>,
  ): Promise<Map<string, DisplayInfo>> {
    // Taken before any await: an entry another request forgets or clears meanwhile (the cache full) still serves
    // this page, as it was when the page's read began.
    const held = new Map<string, DisplayInfo>();
    for (const id of ids) {
      const d = this.entries.get(id);
      if (d) held.set(id, d);
    }
    const missing = ids.filter((id) => !held.has(id));
    let loaded = new Map<string, DisplayInfo>();
    if (missing.length > 0) {
      const asked = new Set(missing);
      // Only when the cache is cold for these users (most of them missing): a few users new to a warm ladder are
      // loaded alone, without walking the ladder.
      if (neighbours && 2 * missing.length > ids.length)
        for (const id of await neighbours()) if (!this.entries.has(id)) asked.add(id);
      loaded = await load([...asked]);
      if (this.entries.size + loaded.size > MAX_DISPLAY_ENTRIES) this.entries.clear();
      for (const [id, d] of loaded) this.entries.set(id, d);
    }
    return new Map(
      ids.flatMap((id) => {
        const d = held.get(id) ?? loaded.get(id);
        return d ? [[id, d] as const] : [];
      }),
    );
  }

  /** The profiles of `ids` changed: load them again when next shown. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) this.entries.delete(id);
  }
}
