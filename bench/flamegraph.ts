/**
 * `npx tsx bench/flamegraph.ts FILE.cpuprofile... [--top N]`: for each V8 CPU profile (node --cpu-prof), writes
 * FILE.svg beside it — a flame graph (root at the bottom, one box per call path, width = share of samples, the
 * name and share in the tooltip) — and prints the N functions with the most self time. No npm package in the
 * registry turns a .cpuprofile into an SVG without a browser (0x and clinic run the program themselves), so
 * this is a small renderer of its own. `npm run bench -- --profile` runs it on every profile it writes.
 */
import { readFileSync, writeFileSync } from "node:fs";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** A V8 CPU profile: `timeDeltas[i]` is the µs before sample i. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}
interface Frame {
  name: string;
  total: number;
  children: Map<string, Frame>;
}

/** A function as the flame graph names it: `name file:line` (`~` for a file under node_modules). */
export const label = (n: Pick<ProfileNode, "callFrame">) => {
  const { url } = n.callFrame;
  const nm = url.lastIndexOf("/node_modules/");
  const file = nm >= 0 ? `~${url.slice(nm + "/node_modules/".length)}` : url.replace(/^.*\//, "");
  return `${n.callFrame.functionName || "(anonymous)"} ${file}:${n.callFrame.lineNumber + 1}`;
};

/** The profile as a tree of call paths with sample counts, and the self samples per function. */
export function fold(profile: CpuProfile): { root: Frame; self: Map<string, number>; samples: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const root: Frame = { name: "all", total: 0, children: new Map() };
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const path: ProfileNode[] = [];
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) path.push(byId.get(n)!);
    path.reverse();
    const leaf = label(path[path.length - 1]!);
    self.set(leaf, (self.get(leaf) ?? 0) + 1);
    root.total++;
    let at = root;
    for (const node of path.slice(1)) {
      const name = label(node);
      let next = at.children.get(name);
      if (!next) {
        next = { name, total: 0, children: new Map() };
        at.children.set(name, next);
      }
      next.total++;
      at = next;
    }
  }
  return { root, self, samples: profile.samples.length };
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** An SVG flame graph of the folded tree, `width` pixels wide. */
export function svg(root: Frame, title: string, width = 1600): string {
  const rowH = 16;
  const boxes: string[] = [];
  let depthMax = 0;
  const draw = (f: Frame, x: number, depth: number) => {
    const w = (f.total / root.total) * width;
    if (w < 0.5) return;
    depthMax = Math.max(depthMax, depth);
    const hue = 20 + ((f.name.length * 37) % 40);
    const share = ((f.total / root.total) * 100).toFixed(1);
    boxes.push(
      `<g><title>${esc(f.name)} (${share} %)</title><rect x="${x.toFixed(1)}" y="{Y${depth}}" width="${w.toFixed(1)}" height="${rowH - 1}" fill="hsl(${hue},90%,60%)"/>` +
        (w > 40
          ? `<text x="${(x + 3).toFixed(1)}" y="{T${depth}}" font-size="11" font-family="monospace">${esc(f.name.slice(0, Math.floor(w / 7)))}</text>`
          : "") +
        "</g>",
    );
    let cx = x;
    for (const c of [...f.children.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      draw(c, cx, depth + 1);
      cx += (c.total / root.total) * width;
    }
  };
  draw(root, 0, 0);
  const height = (depthMax + 3) * rowH;
  const body = boxes
    .join("\n")
    .replace(/\{Y(\d+)\}/g, (_m, d) => String(height - (Number(d) + 1) * rowH))
    .replace(/\{T(\d+)\}/g, (_m, d) => String(height - (Number(d) + 1) * rowH + 11));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<text x="4" y="14" font-size="13" font-family="sans-serif">${esc(title)} — ${root.total} samples</text>
${body}
</svg>
`;
}

/** Writes FILE.svg for FILE and returns its top `top` self-time functions as text lines. */
export function flamegraph(file: string, top = 15): string[] {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const { root, self, samples } = fold(profile);
  writeFileSync(`${file.replace(/\.cpuprofile$/, "")}.svg`, svg(root, file));
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, n]) => `${((n / samples) * 100).toFixed(1).padStart(5)} %  ${name}`);
}

if (process.argv[1]?.endsWith("flamegraph.ts")) {
  const files = process.argv.slice(2).filter((a) => a.endsWith(".cpuprofile"));
  const topAt = process.argv.indexOf("--top");
  const top = topAt > 0 ? Number(process.argv[topAt + 1]) : 15;
  for (const f of files) console.log(`${f}\n${flamegraph(f, top).join("\n")}\n`);
}
