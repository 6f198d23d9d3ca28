/**
 * What ladder rows show of a user (display name, wallet), kept in memory: the missing ones are loaded in one
 * query, and an entry is forgotten when the change feed reports that profile changed. At most
 * MAX_DISPLAY_ENTRIES: beyond, it starts over rather than track recency (hot pages refill in one query).
 */
const MAX_DISPLAY_ENTRIES = 200_000;

export interface DisplayInfo {
  displayName: string;
  wallet: string | null;
}

export class DisplayCache {
  private readonly entries = new Map<string, DisplayInfo>();

  async displayOf(
    ids: string[],
    load: (missing: string[]) => Promise<Map<string, DisplayInfo>>,
  ): Promise<Map<string, DisplayInfo>> {
    const missing = ids.filter((id) => !this.entries.has(id));
    if (missing.length > 0) {
      const loaded = await load(missing);
      if (this.entries.size + loaded.size > MAX_DISPLAY_ENTRIES) this.entries.clear();
      for (const [id, d] of loaded) this.entries.set(id, d);
    }
    return new Map(ids.flatMap((id) => (this.entries.has(id) ? [[id, this.entries.get(id)!] as const] : [])));
  }

  /** The profiles of `ids` changed: load them again when next shown. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) this.entries.delete(id);
  }
}
