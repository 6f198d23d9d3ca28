/**
 * scripts/import-graph.ts on hand-drawn houses: which arrows run back up, how many floors, which files circle.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { houseFigures, importsOf, type SourceFile, sourceFilesUnder } from "../scripts/import-graph.js";

const file = (path: string, ...imports: string[]): SourceFile => ({
  path,
  code: imports.map((s, i) => `import { x${i} } from "${s}";`).join("\n"),
});

describe("import graph figures", () => {
  it("reads import, export-from, dynamic and side-effect specifiers, relative ones only", () => {
    const code = [
      'import type { A } from "./a.js";',
      'export { b } from "../b/b.js";',
      'const c = await import("./c.js");',
      'import "./d.js";',
      'import { z } from "zod";',
    ].join("\n");
    expect(importsOf(code).sort()).toEqual(["../b/b.js", "./a.js", "./c.js", "./d.js"]);
  });

  it("layers a chain of rooms, sets aside the lighter arrow of a circle and lists file circles", () => {
    // http → auth twice, auth → http once: the circle breaks at auth → http (the lighter arrow).
    const server = [
      file("src/server.ts", "./http/a.js"),
      file("src/http/a.ts", "../auth/x.js", "../shared/s.js"),
      file("src/http/b.ts", "../auth/y.js"),
      file("src/auth/x.ts", "../http/b.js", "../shared/s.js"),
      file("src/auth/y.ts"),
      file("src/shared/s.ts"),
      file("src/users/p.ts", "./q.js"),
      file("src/users/q.ts", "./p.js"),
    ];
    const web = [file("web/src/a.ts", "./b.js"), file("web/src/b.tsx", "./a.js"), file("web/src/c.ts")];
    const figures = houseFigures(server, web);
    expect(figures.rooms).toEqual(["auth", "http", "server", "shared", "users"]);
    expect(figures.arrowsBackUp).toEqual([{ from: "auth", to: "http", weight: 1 }]);
    // server (4) → http (3) → auth (2) → shared (1); users imports no room.
    expect(figures.floorOf).toEqual({ auth: 2, http: 3, server: 4, shared: 1, users: 1 });
    expect(figures.floors).toBe(4);
    expect(figures.circles).toEqual([
      ["src/users/p.ts", "src/users/q.ts"],
      ["web/src/a.ts", "web/src/b.tsx"],
    ]);
  });

  it("breaks a circle of three rooms at its lightest arrow", () => {
    // a → b twice, b → c twice, c → a once: c → a runs back up, the rest layers c (1) < b (2) < a (3).
    const server = [
      file("src/a/x.ts", "../b/x.js"),
      file("src/a/y.ts", "../b/x.js"),
      file("src/b/x.ts", "../c/x.js"),
      file("src/b/y.ts", "../c/x.js"),
      file("src/c/x.ts", "../a/z.js"),
      file("src/a/z.ts"),
    ];
    const figures = houseFigures(server, []);
    expect(figures.arrowsBackUp).toEqual([{ from: "c", to: "a", weight: 1 }]);
    expect(figures.floorOf).toEqual({ a: 3, b: 2, c: 1 });
    expect(figures.circles).toEqual([]);
  });

  it("keeps the house at issue 22's goals: at most 13 floors, at most 3 arrows back up, no circle", () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
    const figures = houseFigures(sourceFilesUnder(root, "src"), sourceFilesUnder(root, "web/src"));
    expect(figures.circles).toEqual([]);
    expect(figures.arrowsBackUp.length).toBeLessThanOrEqual(3);
    expect(figures.floors).toBeLessThanOrEqual(13);
  });
});
