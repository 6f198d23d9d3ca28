import { describe, expect, it } from "vitest";
import { allocationSites, formatSites, type HeapProfileNode } from "../bench/heap-sites.js";

const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber });
const node = (
  callFrame: HeapProfileNode["callFrame"],
  selfSize: number,
  children: HeapProfileNode[] = [],
): HeapProfileNode => ({ callFrame, selfSize, children });

describe("bench/heap-sites.ts", () => {
  // root → handler (100 B) → serialize (50 B); root → serialize again on another path (30 B); an idle frame (0 B).
  const serialize = frame("serialize", "file:///app/node_modules/fast-json-stringify/index.js", 9);
  const head = node(frame("(root)", "", -1), 0, [
    node(frame("handler", "file:///app/src/routes.ts", 41), 100, [node(serialize, 50)]),
    node(serialize, 30),
    node(frame("(idle)", "", -1), 0),
  ]);

  it("sums each function's own bytes over every call path, largest first, with shares of all sampled bytes", () => {
    expect(allocationSites(head)).toEqual([
      { site: "handler routes.ts:42", bytes: 100, share: 100 / 180 },
      { site: "serialize ~fast-json-stringify/index.js:10", bytes: 80, share: 80 / 180 },
    ]);
  });

  it("prints the top sites as percentages", () => {
    expect(formatSites(head, 1)).toEqual(["  55.6 %  handler routes.ts:42"]);
  });

  it("reports nothing for a profile without samples", () => {
    expect(allocationSites(node(frame("(root)", "", -1), 0))).toEqual([]);
  });
});
