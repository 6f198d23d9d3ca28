/**
 * What ladder rows show of every user (display name, checksummed wallet), packed for a table of a million users
 * and more: ≈ 66 bytes a user (a sort key, the wallet's 42 ASCII bytes, the name's UTF-8 bytes and where they end,
 * whether JSON writes the name as it is) instead of ≈ 200 for a map of strings and objects. Users are appended in
 * any order (the table's storage order), then `seal` sorts the keys once; a user is found by binary search. A user
 * whose profile changed is marked stale and read no more (its caller loads it again). A ladder page's JSON can be
 * written straight from the stored bytes (`writeNameJson`, `writeWalletJson`). Pure data structure: no I/O.
 *
 * A key is `id · 2^21 + slot` in a float64 (exact below 2^53), so one native sort of a Float64Array orders the ids
 * and carries each one's slot: ids up to 2^32 − 1, at most 2^21 (2,097,152) users; a user beyond either is not
 * stored (its caller loads it). When the ids are dense (as a serial key's are: their span at most twice the users),
 * `seal` replaces the keys by a table of slots indexed by id − the least id (4 bytes an id of the span), so a
 * ladder row's lookup is one array read instead of a binary search over the keys (≈ 150 ns of cache misses at
 * 100,000 users, more at a million).
 */
import { type JsonBytes, needsJsonEscape } from "../../http/json-bytes.js";

/** What a ladder row shows of a user. */
export interface DisplayInfo {
  displayName: string;
  wallet: string | null;
}

/** "0x" and 40 hex digits, as stored checksummed. */
const WALLET_BYTES = 42;
const SLOT_BITS = 2 ** 21;
const MAX_STORE_SLOTS = SLOT_BITS;
const MAX_ID = 2 ** 32 - 1;
/** The slot table is used when the ids' span is at most this many times the users (plus a little). */
const DENSE_SPAN = 2;

export class DisplayStore {
  private keys: Float64Array;
  /** Where each slot's name ends in `names` (it starts where the previous slot's ended). */
  private nameEnds: Uint32Array;
  private names: Buffer;
  /** WALLET_BYTES a slot; a first byte of 0 is a user without a wallet. */
  private wallets: Buffer;
  /** 1 when the slot's name needs no escaping in JSON (its UTF-8 bytes go between quotes as they are). */
  private plainNames: Uint8Array;
  private count = 0;
  private sealed = false;
  /** Dense ids, once sealed: the slot of id `leastId + i` at `i` (−1: not stored); null: binary search of `keys`. */
  private slotById: Int32Array | null = null;
  private leastId = 0;
  private readonly stale = new Set<number>();

  /** Sized for `users` users with `nameBytes` bytes of names in all (it grows past them when it must). */
  constructor(users: number, nameBytes: number) {
    const n = Math.min(MAX_STORE_SLOTS, Math.max(16, users));
    this.keys = new Float64Array(n);
    this.nameEnds = new Uint32Array(n);
    this.names = Buffer.alloc(Math.max(64, nameBytes));
    this.wallets = Buffer.alloc(n * WALLET_BYTES);
    this.plainNames = new Uint8Array(n);
  }

  get size(): number {
    return this.count;
  }

  /**
   * Appends users in any order, before `seal`. A user met twice (a row moved while the table was read) keeps
   * either copy. A wallet that is not 42 characters is not stored: the user is marked stale instead.
   */
  append(users: ReadonlyArray<{ id: number } & DisplayInfo>): void {
    if (this.sealed) throw new Error("DisplayStore: append after seal");
    for (const u of users) {
      if (!Number.isSafeInteger(u.id) || u.id < 0 || u.id > MAX_ID) continue;
      const nameLength = Buffer.byteLength(u.displayName, "utf8");
      if (!this.reserve(nameLength)) return;
      const slot = this.count++;
      const nameStart = this.nameStart(slot);
      this.keys[slot] = u.id * SLOT_BITS + slot;
      this.nameEnds[slot] = nameStart + this.names.write(u.displayName, nameStart, "utf8");
      this.plainNames[slot] = needsJsonEscape(u.displayName) ? 0 : 1;
      if (u.wallet !== null && u.wallet.length === WALLET_BYTES)
        this.wallets.write(u.wallet, slot * WALLET_BYTES, "latin1");
      else {
        this.wallets[slot * WALLET_BYTES] = 0;
        if (u.wallet !== null) this.stale.add(u.id);
      }
    }
  }

  /** Orders the keys (once, after the last append): the store answers from now on. */
  seal(): void {
    this.keys = this.keys.slice(0, this.count).sort();
    this.sealed = true;
    if (this.count === 0) return;
    const least = Math.floor(this.keys[0]! / SLOT_BITS);
    const span = Math.floor(this.keys[this.count - 1]! / SLOT_BITS) - least + 1;
    if (span > DENSE_SPAN * this.count + 1024) return;
    const slots = new Int32Array(span).fill(-1);
    for (const key of this.keys) {
      const id = Math.floor(key / SLOT_BITS);
      slots[id - least] = key - id * SLOT_BITS;
    }
    this.slotById = slots;
    this.leastId = least;
    this.keys = new Float64Array(0);
  }

  /** The user's display data, or undefined when not stored, stale, or not sealed yet. */
  get(id: number): DisplayInfo | undefined {
    const slot = this.find(id);
    return slot < 0 ? undefined : this.infoAt(slot);
  }

  /**
   * The slot holding the user's display data (a handle for `infoAt` and the JSON writers; the data at a slot never
   * changes), or −1 when not stored, stale, or not sealed yet.
   */
  find(id: number): number {
    if (!this.sealed || this.stale.has(id)) return -1;
    return this.slotOf(id);
  }

  /** The display data at `slot` (from `find`). */
  infoAt(slot: number): DisplayInfo {
    const at = slot * WALLET_BYTES;
    return {
      displayName: this.nameAt(slot),
      wallet: this.wallets[at] === 0 ? null : this.wallets.toString("latin1", at, at + WALLET_BYTES),
    };
  }

  /** Writes the name at `slot` as a JSON string: its bytes as stored when they need no escaping. */
  writeNameJson(slot: number, out: JsonBytes): void {
    if (this.plainNames[slot] !== 1) {
      out.string(this.nameAt(slot));
      return;
    }
    out.byte(0x22);
    out.bytes(this.names, this.nameStart(slot), this.nameEnds[slot]!);
    out.byte(0x22);
  }

  /** Writes the wallet at `slot` as a JSON string (42 ASCII characters), or `null`. */
  writeWalletJson(slot: number, out: JsonBytes): void {
    const at = slot * WALLET_BYTES;
    if (this.wallets[at] === 0) {
      out.ascii("null");
      return;
    }
    out.byte(0x22);
    out.bytes(this.wallets, at, at + WALLET_BYTES);
    out.byte(0x22);
  }

  /** The user's profile changed: not answered from here any more (a slot found before keeps its data). */
  markStale(id: number): void {
    if (!this.sealed || this.slotOf(id) >= 0) this.stale.add(id);
  }

  private nameStart(slot: number): number {
    return slot === 0 ? 0 : this.nameEnds[slot - 1]!;
  }

  private nameAt(slot: number): string {
    return this.names.toString("utf8", this.nameStart(slot), this.nameEnds[slot]!);
  }

  private slotOf(id: number): number {
    if (this.slotById) {
      // Out of the table (or not an integer): undefined.
      const slot = this.slotById[id - this.leastId];
      return slot === undefined ? -1 : slot;
    }
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const key = this.keys[mid]!;
      const v = Math.floor(key / SLOT_BITS);
      if (v === id) return key - v * SLOT_BITS;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Room for one more user with a name of `nameLength` bytes (each array doubles when full); false when full. */
  private reserve(nameLength: number): boolean {
    if (this.count === this.keys.length) {
      if (this.count >= MAX_STORE_SLOTS) return false;
      const n = Math.min(MAX_STORE_SLOTS, this.keys.length * 2);
      const keys = new Float64Array(n);
      keys.set(this.keys);
      this.keys = keys;
      const ends = new Uint32Array(n);
      ends.set(this.nameEnds);
      this.nameEnds = ends;
      const wallets = Buffer.alloc(n * WALLET_BYTES);
      this.wallets.copy(wallets);
      this.wallets = wallets;
      const plain = new Uint8Array(n);
      plain.set(this.plainNames);
      this.plainNames = plain;
    }
    const used = this.count === 0 ? 0 : this.nameEnds[this.count - 1]!;
    if (used + nameLength > this.names.length) {
      const names = Buffer.alloc(Math.max(this.names.length * 2, used + nameLength));
      this.names.copy(names, 0, 0, used);
      this.names = names;
    }
    return true;
  }
}
