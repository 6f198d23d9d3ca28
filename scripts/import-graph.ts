/**
 * `npx tsx scripts/import-graph.ts [--json] [--root DIR]`: the house drawn from the imports (issue 22). Rooms are the folders
 * directly under src/ and src/'s own files (`config.ts` → room `config`); an arrow joins two rooms when a
 * non-test file of one imports (or re-exports from) a file of the other, weighted by how many such imports there
 * are. Figures printed:
 * - floors: the longest-path layering of the room graph once the arrows back up are set aside (floor 1 imports no
 *   other room);
 * - arrows back up: the arrows that close a circle of rooms. A circle is broken at its lightest arrow (fewest
 *   imports, then by name), repeatedly, until no circle is left; an arrow set aside that closes no circle any more
 *   is put back. These are the arrows that run against the layering;
 * - import circles: circles of files (strongly connected files) in src/ and in web/src/, each listed.
 * Pure functions are exported for test/import-graph.test.ts; `main` reads the working tree.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface SourceFile {
  /** Path relative to the repository root, e.g. `src/chain/tx-bets.ts`. */
  readonly path: string;
  readonly code: string;
}

/** An arrow between rooms: `from` imports `to`, `weight` times. */
export interface Arrow {
  readonly from: string;
  readonly to: string;
  readonly weight: number;
}

export interface HouseFigures {
  readonly rooms: string[];
  /** Room → floor (1 = the bottom). */
  readonly floorOf: Record<string, number>;
  readonly floors: number;
  readonly arrows: Arrow[];
  readonly arrowsBackUp: Arrow[];
  /** Each circle of files, as its sorted file paths. */
  readonly circles: string[][];
}

/** Relative module specifiers of `import … from`, `export … from`, `import(…)` and side-effect imports. */
export function importsOf(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*\(?\s*["']([^"']+)["']/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]!);
  return [...new Set(found.filter((s) => s.startsWith(".")))];
}

/** The file a relative specifier names (`./x.js` → `x.ts` or `x.tsx`), or undefined when it is not a known file. */
export function resolveImport(
  from: string,
  specifier: string,
  known: ReadonlySet<string>,
): string | undefined {
  const base = join(dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, join(base, "index.ts"), join(base, "index.tsx")];
  return candidates.find((candidate) => known.has(candidate));
}

/** The room of a path under `srcDir`: its first folder, or a root file's name without extension. */
export function roomOf(path: string, srcDir = "src"): string {
  const parts = relative(srcDir, path).split("/");
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.tsx?$/, "");
}

/** File → the files it imports (only files in `files`). */
export function fileGraph(files: readonly SourceFile[]): Map<string, string[]> {
  const known = new Set(files.map((f) => f.path));
  const graph = new Map<string, string[]>();
  for (const { path, code } of files) {
    const targets = importsOf(code)
      .map((s) => resolveImport(path, s, known))
      .filter((t): t is string => t !== undefined && t !== path);
    graph.set(path, [...new Set(targets)].sort());
  }
  return graph;
}

/** Strongly connected components (Tarjan), each sorted, listed in a stable order. */
export function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The circles of files: components of more than one file. */
export function importCircles(files: readonly SourceFile[]): string[][] {
  return stronglyConnected(fileGraph(files)).filter((component) => component.length > 1);
}

/** Room arrows from the file graph of `files` (all under `srcDir`). */
export function roomArrows(files: readonly SourceFile[], srcDir = "src"): Arrow[] {
  const weights = new Map<string, number>();
  for (const [file, targets] of fileGraph(files)) {
    for (const target of targets) {
      const from = roomOf(file, srcDir);
      const to = roomOf(target, srcDir);
      if (from === to) continue;
      const key = `${from}\u0000${to}`;
      weights.set(key, (weights.get(key) ?? 0) + 1);
    }
  }
  return [...weights]
    .map(([key, weight]) => {
      const [from, to] = key.split("\u0000") as [string, string];
      return { from, to, weight };
    })
    .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

const adjacency = (rooms: readonly string[], arrows: readonly Arrow[]) => {
  const graph = new Map<string, string[]>(rooms.map((room) => [room, []]));
  for (const { from, to } of arrows) graph.get(from)!.push(to);
  return graph;
};

/** Whether `to` reaches `from` over `arrows` (so adding from→to would close a circle). */
function closesCircle(arrow: Arrow, rooms: readonly string[], arrows: readonly Arrow[]): boolean {
  const graph = adjacency(rooms, arrows);
  const seen = new Set<string>();
  const pending = [arrow.to];
  while (pending.length > 0) {
    const room = pending.pop()!;
    if (room === arrow.from) return true;
    if (seen.has(room)) continue;
    seen.add(room);
    pending.push(...graph.get(room)!);
  }
  return false;
}

/** The arrows back up: lightest arrow of a circle set aside until none is left; those closing no circle return. */
export function arrowsBackUp(rooms: readonly string[], arrows: readonly Arrow[]): Arrow[] {
  let kept = [...arrows];
  const setAside: Arrow[] = [];
  for (;;) {
    const circle = stronglyConnected(adjacency(rooms, kept)).find((component) => component.length > 1);
    if (!circle) break;
    const members = new Set(circle);
    const inside = kept.filter((a) => members.has(a.from) && members.has(a.to));
    const lightest = inside.sort(
      (a, b) => a.weight - b.weight || a.from.localeCompare(b.from) || a.to.localeCompare(b.to),
    )[0]!;
    kept = kept.filter((a) => a !== lightest);
    setAside.push(lightest);
  }
  const back: Arrow[] = [];
  for (const arrow of setAside.sort((a, b) => b.weight - a.weight)) {
    if (closesCircle(arrow, rooms, kept)) back.push(arrow);
    else kept.push(arrow);
  }
  return back.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** Longest-path floors of the rooms over the arrows that are not back up (floor 1 imports no other room). */
export function floorsOf(rooms: readonly string[], arrows: readonly Arrow[]): Record<string, number> {
  const graph = adjacency(rooms, arrows);
  const floor: Record<string, number> = {};
  const place = (room: string): number => {
    if (floor[room] !== undefined) return floor[room]!;
    const below = graph.get(room)!.map(place);
    floor[room] = 1 + Math.max(0, ...below);
    return floor[room]!;
  };
  for (const room of rooms) place(room);
  return floor;
}

/** Every figure of the house from the server's files (under `srcDir`) and the web app's (for circles only). */
export function houseFigures(
  server: readonly SourceFile[],
  web: readonly SourceFile[],
  srcDir = "src",
): HouseFigures {
  const rooms = [...new Set(server.map((f) => roomOf(f.path, srcDir)))].sort();
  const arrows = roomArrows(server, srcDir);
  const back = arrowsBackUp(rooms, arrows);
  const upward = arrows.filter((a) => !back.includes(a));
  const floorOf = floorsOf(rooms, upward);
  return {
    rooms,
    floorOf,
    floors: Math.max(0, ...Object.values(floorOf)),
    arrows,
    arrowsBackUp: back,
    circles: [...importCircles(server), ...importCircles(web)],
  };
}

/** The non-test TypeScript files under `dir` (relative to `root`), migrations left out. */
export function sourceFilesUnder(root: string, dir: string): SourceFile[] {
  const walk = (absolute: string): string[] =>
    readdirSync(absolute).flatMap((name) => {
      const path = join(absolute, name);
      if (statSync(path).isDirectory()) return name === "migrations" ? [] : walk(path);
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
    });
  return walk(join(root, dir))
    .sort()
    .map((path) => ({ path: relative(root, path), code: readFileSync(path, "utf8") }));
}

function report(figures: HouseFigures): string {
  const lines = [
    `rooms: ${figures.rooms.length}`,
    `floors: ${figures.floors}`,
    `arrows back up: ${figures.arrowsBackUp.length}${figures.arrowsBackUp.length ? ":" : ""} ${figures.arrowsBackUp
      .map((a) => `${a.from}→${a.to} (${a.weight})`)
      .join(", ")}`,
    `import circles (src, web/src): ${figures.circles.length}${figures.circles.length ? ":" : ""} ${figures.circles
      .map((c) => c.join(" ↔ "))
      .join("; ")}`,
    "",
    "floor  rooms",
  ];
  for (let floor = figures.floors; floor >= 1; floor--) {
    const rooms = figures.rooms.filter((room) => figures.floorOf[room] === floor);
    lines.push(`${String(floor).padStart(5)}  ${rooms.join(" ")}`);
  }
  return lines.join("\n");
}

function main(): void {
  const at = process.argv.indexOf("--root");
  const root =
    at > 0 ? resolve(process.argv[at + 1]!) : resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const figures = houseFigures(sourceFilesUnder(root, "src"), sourceFilesUnder(root, "web/src"));
  console.log(process.argv.includes("--json") ? JSON.stringify(figures, null, 2) : report(figures));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
