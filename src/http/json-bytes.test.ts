import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonBytes } from "./json-bytes.js";

describe("JsonBytes", () => {
  it("writes a string as JSON.stringify does, in UTF-8, whatever it holds", () => {
    const out = new JsonBytes(8); // grows as it writes
    const cases = [
      "",
      "42",
      "Player 7",
      'say "hi"',
      "a\\b",
      "tab\there",
      "\u0000\u001f",
      "del\u007f",
      "Zoë",
      "🚀",
      "\ud800",
      "x\udfffy",
      "\u2028",
    ];
    for (const s of cases) {
      out.string(s);
      expect(out.take().toString("utf8")).toBe(JSON.stringify(s));
    }
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
          maxLength: 40,
        }),
        (s) => {
          out.string(s);
          expect(out.take().equals(Buffer.from(JSON.stringify(s), "utf8"))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("appends fragments, bytes and strings in order, and starts over after take", () => {
    const out = new JsonBytes(4);
    out.ascii('{"a":');
    out.string("b");
    out.byte(0x2c);
    out.ascii('"c":');
    out.bytes(Buffer.from('x"0x12"y'), 1, 7);
    out.utf8("}");
    expect(out.take().toString()).toBe('{"a":"b","c":"0x12"}');
    out.ascii("[]");
    expect(out.take().toString()).toBe("[]");
  });
});
