/**
 * A JSON body written as bytes, for the few answers built straight from packed data (a live ladder page's rows from
 * the display store) instead of objects serialized by a response schema: no intermediate strings or objects per
 * row. What it writes must equal what the route's serializer writes for the same values (fast-json-stringify:
 * strings as JSON.stringify writes them, integers as `String(n)`); the writers' tests compare the two byte for
 * byte. One scratch buffer per instance, grown when needed; `take()` copies the bytes out and starts over.
 */

/**
 * The characters for which a JSON string is written by JSON.stringify rather than between quotes as it is (as
 * fast-json-stringify tests for them): control characters, the quote, the backslash, and surrogates (escaped when
 * lone, kept when paired).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters JSON must escape
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** True when `s` cannot be written between quotes as it is (see NEEDS_ESCAPE). */
export function needsJsonEscape(s: string): boolean {
  return NEEDS_ESCAPE.test(s);
}

export class JsonBytes {
  private buf: Buffer;
  private at = 0;

  constructor(initialBytes = 16 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  /** Characters below U+0080 only (member names, numbers, literals, digits-only ids). */
  ascii(s: string): void {
    const n = s.length;
    this.room(n);
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) buf[at++] = s.charCodeAt(i);
    this.at = at;
  }

  /** Any text, as UTF-8 (a JSON fragment the caller built). */
  utf8(s: string): void {
    this.room(Buffer.byteLength(s, "utf8"));
    this.at += this.buf.write(s, this.at, "utf8");
  }

  /** A JSON string of `s`, as JSON.stringify writes it. */
  string(s: string): void {
    // Printable ASCII without a quote or backslash (ids, most names): written in one pass, no regex, no native call.
    const n = s.length;
    this.room(n + 2);
    const buf = this.buf;
    let at = this.at;
    buf[at++] = 0x22;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        // Beyond printable ASCII: as JSON.stringify writes it, from the start again (nothing was committed).
        this.utf8(JSON.stringify(s));
        return;
      }
      buf[at++] = c;
    }
    buf[at++] = 0x22;
    this.at = at;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  /** Bytes of `src` in [start, end), as they are. */
  bytes(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.room(n);
    const buf = this.buf;
    let at = this.at;
    // Short runs (a name, a wallet) copy faster in a loop than through a native call.
    for (let i = start; i < end; i++) buf[at++] = src[i]!;
    this.at = at;
  }

  /** The bytes written, copied out; the writer starts over. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.at));
    this.at = 0;
    return out;
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }
}
