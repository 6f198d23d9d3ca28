/**
 * The README's configuration table and the declared schema name the same variables: a variable added to one
 * and not the other fails here.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { EnvSchema } from "./config-schema.js";

/** The variables named in the first column of the README table headed `| variable | meaning | default |`. */
function readmeVariables(): string[] {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const start = readme.indexOf("| variable | meaning | default |");
  expect(start).toBeGreaterThan(-1);
  const rows = readme.slice(start).split("\n\n")[0]!.split("\n").slice(2);
  return rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
}

it("documents every declared variable in the README table, and declares every variable the table names", () => {
  const documented = readmeVariables();
  expect(new Set(documented).size).toBe(documented.length);
  expect([...documented].sort()).toEqual(Object.keys(EnvSchema.properties).sort());
});

it("describes every variable", () => {
  for (const [name, schema] of Object.entries(EnvSchema.properties)) {
    expect((schema as { description?: string }).description, name).toMatch(/\S/);
  }
});
