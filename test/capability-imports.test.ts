/**
 * The capability boundary (STYLE.md): a capability (a folder under src/) reaches another only through its use
 * cases or a small public module, never through its `*.repository.ts`; routes are registered by src/app.ts alone.
 * Reads every non-test source file's import and export-from specifiers (tests may inspect any table they check).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "migrations" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Relative module specifiers of `import … from`, `export … from`, `import(…)` and side-effect imports. */
function importsOf(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\b[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*\(?\s*["']([^"']+)["']/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]!);
  return found.filter((s) => s.startsWith("."));
}

/** The capability of a file under src/: its first folder, or "(root)" for src/*.ts. */
const capabilityOf = (file: string) => {
  const parts = relative(src, file).split("/");
  return parts.length > 1 ? parts[0]! : "(root)";
};

/** Every import of another capability's repository, or of another capability's routes outside src/app.ts. */
function boundaryViolations(files: ReadonlyArray<{ path: string; code: string }>): string[] {
  const violations: string[] = [];
  for (const { path, code } of files) {
    for (const specifier of importsOf(code)) {
      const target = resolve(dirname(path), specifier.replace(/\.js$/, ".ts"));
      if (!target.startsWith(`${src}/`) || capabilityOf(target) === capabilityOf(path)) continue;
      const name = target.split("/").at(-1)!;
      const isRoutes = name === "routes.ts" && relative(src, path) !== "app.ts";
      if (name.endsWith(".repository.ts") || isRoutes) {
        violations.push(`${relative(root, path)} imports ${relative(root, target)}`);
      }
    }
  }
  return violations;
}

describe("capability boundaries", () => {
  it("finds a repository import across capabilities, and lets one inside a capability pass", () => {
    const files = [
      {
        path: join(src, "rewards/referrals.ts"),
        code: 'import { appendSpEntry } from "../ledger/ledger.repository.js";',
      },
      { path: join(src, "rewards/daily.ts"), code: 'import type { X } from "./rewards.repository.js";' },
      {
        path: join(src, "http/rate-limit.ts"),
        code: 'import {\n  hasAdminToken,\n} from "../admin/routes.js";',
      },
      { path: join(src, "app.ts"), code: 'import { adminRoutes } from "./admin/routes.js";' },
      { path: join(src, "cli/x.ts"), code: 'const m = await import("../events/events.repository.js");' },
    ];
    expect(boundaryViolations(files)).toEqual([
      "src/rewards/referrals.ts imports src/ledger/ledger.repository.ts",
      "src/http/rate-limit.ts imports src/admin/routes.ts",
      "src/cli/x.ts imports src/events/events.repository.ts",
    ]);
  });

  it("holds for every source file", () => {
    const files = sourceFiles(src).map((path) => ({ path, code: readFileSync(path, "utf8") }));
    expect(files.length).toBeGreaterThan(50);
    expect(boundaryViolations(files)).toEqual([]);
  });
});
