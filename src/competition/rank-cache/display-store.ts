/**
 * What ladder rows show of every user (display name, checksummed wallet), packed for a table of a million users
 * and more: ≈ 60–70 bytes a user (the id as a float64, the wallet as its 42 ASCII bytes, the name's UTF-8 bytes and
 * where they end) instead of ≈ 200 for a map of strings and objects. Users are appended in ascending id order (the
 * load's keyset pages) and found by binary search; a user whose profile changed is marked stale and read no more
 * (its caller loads it again). Pure data structure: no I/O.
 */
import type { DisplayInfo } from "./display-cache.js";

/** "0x" and 40 hex digits, as stored checksummed. */
const WALLET_BYTES = 42;

export class DisplayStore {
  private ids: Float64Array;
  /** Where each user's name ends in `names` (it starts where the previous one ended). */
  private nameEnds: Uint32Array;
  private names: Buffer;
  /** WALLET_BYTES a user; a first byte of 0 is a user without a wallet. */
  private wallets: Buffer;
  private count = 0;
  private readonly stale = new Set<number>();

  /** Sized for `users` users with `nameBytes` bytes of names in all (it grows past them when it must). */
  constructor(users: number, nameBytes: number) {
    const n = Math.max(16, users);
    this.ids = new Float64Array(n);
    this.nameEnds = new Uint32Array(n);
    this.names = Buffer.alloc(Math.max(64, nameBytes));
    this.wallets = Buffer.alloc(n * WALLET_BYTES);
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held, for the scaling figures. */
  get bytes(): number {
    return this.ids.byteLength + this.nameEnds.byteLength + this.names.length + this.wallets.length;
  }

  /**
   * Appends users of ascending ids, each above the last one stored (a user at or below it is skipped: a page
   * read twice). A wallet that is not 42 characters is not stored: the user is marked stale instead.
   */
  append(users: ReadonlyArray<{ id: number } & DisplayInfo>): void {
    for (const u of users) {
      if (this.count > 0 && u.id <= this.ids[this.count - 1]!) continue;
      const nameLength = Buffer.byteLength(u.displayName, "utf8");
      this.reserve(nameLength);
      const slot = this.count++;
      const nameStart = slot === 0 ? 0 : this.nameEnds[slot - 1]!;
      this.ids[slot] = u.id;
      this.nameEnds[slot] = nameStart + this.names.write(u.displayName, nameStart, "utf8");
      if (u.wallet !== null && u.wallet.length === WALLET_BYTES)
        this.wallets.write(u.wallet, slot * WALLET_BYTES, "latin1");
      else {
        this.wallets[slot * WALLET_BYTES] = 0;
        if (u.wallet !== null) this.stale.add(u.id);
      }
    }
  }

  /** The user's display data, or undefined when not stored or stale. */
  get(id: number): DisplayInfo | undefined {
    if (this.stale.has(id)) return undefined;
    const slot = this.slotOf(id);
    if (slot < 0) return undefined;
    const at = slot * WALLET_BYTES;
    return {
      displayName: this.names.toString(
        "utf8",
        slot === 0 ? 0 : this.nameEnds[slot - 1]!,
        this.nameEnds[slot]!,
      ),
      wallet: this.wallets[at] === 0 ? null : this.wallets.toString("latin1", at, at + WALLET_BYTES),
    };
  }

  /** The user's profile changed: not answered from here any more. */
  markStale(id: number): void {
    if (this.slotOf(id) >= 0) this.stale.add(id);
  }

  private slotOf(id: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid]!;
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Room for one more user with a name of `nameLength` bytes: each array doubles when full. */
  private reserve(nameLength: number): void {
    if (this.count === this.ids.length) {
      const n = this.ids.length * 2;
      const ids = new Float64Array(n);
      ids.set(this.ids);
      this.ids = ids;
      const ends = new Uint32Array(n);
      ends.set(this.nameEnds);
      this.nameEnds = ends;
      const wallets = Buffer.alloc(n * WALLET_BYTES);
      this.wallets.copy(wallets);
      this.wallets = wallets;
    }
    const used = this.count === 0 ? 0 : this.nameEnds[this.count - 1]!;
    if (used + nameLength > this.names.length) {
      const names = Buffer.alloc(Math.max(this.names.length * 2, used + nameLength));
      this.names.copy(names, 0, 0, used);
      this.names = names;
    }
  }
}
