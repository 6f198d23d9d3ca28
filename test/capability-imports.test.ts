/**
 * The capability boundary (STYLE.md): a capability (a folder under src/) reaches another only through its use
 * cases or a small public module, never through its `*.repository.ts`; routes are registered by src/app.ts alone.
 * Reads every non-test source file's import and export-from specifiers (tests may inspect any table they check).
 * One owner per table (src/db/table-owners.ts): only the owner's files name a table in SQL, by its drizzle table
 * object or in a raw `sql` string, apart from the reasoned SQL_GRANTS.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "../src/db/schema.js";
import { SQL_GRANTS, TABLE_OWNERS } from "../src/db/table-owners.js";

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

/** The drizzle table objects of db/schema.ts: export name → SQL table name. */
const schemaTables = new Map(
  Object.entries(schema).flatMap(([name, value]) =>
    is(value, PgTable) ? [[name, getTableName(value)]] : [],
  ),
);

/** The tables a file names in SQL: table objects it imports (as values) from db/schema, and raw SQL strings. */
function tablesNamed(code: string, tables: ReadonlyMap<string, string>): Set<string> {
  const named = new Set<string>();
  for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'][./]*db\/schema\.js["']/g)) {
    for (const part of m[1]!.split(",").map((p) => p.trim())) {
      if (tables.has(part)) named.add(tables.get(part)!);
    }
  }
  const sqlNames = [...new Set(tables.values())];
  for (const literal of code.matchAll(/`[^`]*`/g)) {
    for (const table of sqlNames) {
      if (new RegExp(`\\b(?:from|join|into|update|table)\\s+"?${table}\\b`, "i").test(literal[0]))
        named.add(table);
    }
  }
  return named;
}

/** Every file naming in SQL a table another capability owns, unless granted. */
function ownershipViolations(
  files: ReadonlyArray<{ path: string; code: string }>,
  owners: Readonly<Record<string, string>>,
  grants: ReadonlyArray<{ capability: string; table: string }>,
): string[] {
  const violations: string[] = [];
  for (const { path, code } of files) {
    const capability = capabilityOf(path);
    if (capability === "db") continue;
    for (const table of tablesNamed(code, schemaTables)) {
      const owner = owners[table];
      if (owner === capability || grants.some((g) => g.capability === capability && g.table === table))
        continue;
      violations.push(`${relative(root, path)} names ${table} (owned by ${owner ?? "nobody"})`);
    }
  }
  return violations.sort();
}

describe("one owner per table", () => {
  it("lists an owner for every table of the schema, each a capability folder", () => {
    expect([...schemaTables.values()].sort()).toEqual(Object.keys(TABLE_OWNERS).sort());
    const folders = new Set(sourceFiles(src).map(capabilityOf));
    for (const owner of Object.values(TABLE_OWNERS)) expect(folders).toContain(owner);
  });

  it("finds another capability's table in a table object or raw SQL, and lets the owner's own SQL pass", () => {
    const files = [
      {
        path: join(src, "profile/profile.repository.ts"),
        code: 'import { sql } from "drizzle-orm";\nconst q = sql`select type, sum(amount) from sp_ledger where user_id = 1`;',
      },
      {
        path: join(src, "competition/snapshot.repository.ts"),
        code: "const q = sql`select s.rank from competition_leaderboard_snapshots s join users u on u.id = s.user_id`;",
      },
      {
        path: join(src, "rewards/rewards.repository.ts"),
        code: 'import { dailyRaffles, predictions } from "../db/schema.js";',
      },
      {
        path: join(src, "rewards/daily.ts"),
        code: '// reads the predictions through predictions.ts\nimport type { users } from "../db/schema.js";',
      },
      {
        path: join(src, "ledger/ledger.ts"),
        code: "const q = sql`insert into sp_ledger (amount) values (1)`;",
      },
    ];
    expect(ownershipViolations(files, TABLE_OWNERS, [])).toEqual([
      "src/competition/snapshot.repository.ts names users (owned by users)",
      "src/profile/profile.repository.ts names sp_ledger (owned by ledger)",
      "src/rewards/rewards.repository.ts names predictions (owned by predictions)",
    ]);
    expect(
      ownershipViolations(files, TABLE_OWNERS, [{ capability: "competition", table: "users" }]),
    ).toHaveLength(2);
  });

  it("holds for every source file", () => {
    const files = sourceFiles(src).map((path) => ({ path, code: readFileSync(path, "utf8") }));
    expect(ownershipViolations(files, TABLE_OWNERS, SQL_GRANTS)).toEqual([]);
  });

  it("is the table docs/architecture.md shows", () => {
    const doc = readFileSync(join(root, "docs/architecture.md"), "utf8");
    const shown = doc.split("<!-- table-owners:start -->\n")[1]?.split("<!-- table-owners:end -->")[0];
    const rows = Object.entries(TABLE_OWNERS)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([table, owner]) => `| \`${table}\` | ${owner} |`);
    expect(shown).toBe(["| table | owner |", "|---|---|", ...rows, ""].join("\n"));
  });
});
