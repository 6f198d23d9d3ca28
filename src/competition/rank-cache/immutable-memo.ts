/** Values that never change once they exist (e.g. a finalized week's stored rows): loaded once per key, kept; a
 * failed load is forgotten so the next reader tries again. */
export class ImmutableMemo {
  private readonly values = new Map<string, Promise<unknown>>();

  remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.values.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.values.set(key, p);
      p.catch(() => this.values.delete(key));
    }
    return p;
  }
}
