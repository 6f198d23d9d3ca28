/**
 * `npx tsx bench/heap-sites.ts FILE.heapprofile [--top N]`: the N functions that allocated the most bytes in a V8
 * sampling heap profile (bench/heap-sampler.ts), each with its share of all sampled bytes, named as the flame
 * graphs name functions (`name file:line`, `~` for a file under node_modules).
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { label } from "./flamegraph.js";

/** A node of a V8 sampling heap profile: a call path, with the bytes sampled in its own frame. */
export interface HeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapProfileNode[];
}

/** Bytes allocated per function (self, summed over every call path), largest first, with their shares. */
export function allocationSites(
  head: HeapProfileNode,
): Array<{ site: string; bytes: number; share: number }> {
  const bytes = new Map<string, number>();
  let total = 0;
  const visit = (n: HeapProfileNode) => {
    if (n.selfSize > 0) {
      const site = label(n);
      bytes.set(site, (bytes.get(site) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) visit(c);
  };
  visit(head);
  return [...bytes]
    .map(([site, b]) => ({ site, bytes: b, share: total === 0 ? 0 : b / total }))
    .sort((a, b) => b.bytes - a.bytes || (a.site < b.site ? -1 : 1));
}

/** The top `n` sites as lines: `share %  site`. */
export function formatSites(head: HeapProfileNode, n: number): string[] {
  return allocationSites(head)
    .slice(0, n)
    .map((s) => `${(100 * s.share).toFixed(1).padStart(6)} %  ${s.site}`);
}

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { top: { type: "string", default: "20" } },
  });
  if (positionals.length === 0)
    throw new Error("usage: npx tsx bench/heap-sites.ts FILE.heapprofile [--top N]");
  for (const file of positionals) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as { head: HeapProfileNode };
    console.log(file);
    for (const line of formatSites(profile.head, Number(values.top))) console.log(line);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
