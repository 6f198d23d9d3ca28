/**
 * Values derived from changing state, each computed once per version of that state: every reader of the same
 * version shares one computation, and `bump()` (a change) makes the next reader compute it again. A failed
 * computation is forgotten. At most MAX_DERIVED keys (keys may include page offsets a client chooses): beyond,
 * it starts over.
 */
const MAX_DERIVED = 1_000;

export class DerivedMemo {
  private version = 0;
  private readonly values = new Map<string, { version: number; value: Promise<unknown> }>();

  /** The state changed: every value computed so far is stale. */
  bump(): void {
    this.version++;
  }

  derive<T>(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.values.get(key);
    if (hit && hit.version === this.version) return hit.value as Promise<T>;
    if (this.values.size >= MAX_DERIVED) this.values.clear();
    const value = make();
    this.values.set(key, { version: this.version, value });
    value.catch(() => {
      if (this.values.get(key)?.value === value) this.values.delete(key);
    });
    return value;
  }
}
