/**
 * Migrated template databases for the storage tests: migrating a fresh database costs seconds (on PGlite, ~3 s to
 * create it and ~3 s to migrate it), so the suite migrates one template per engine and per set of migrations, and
 * every test file clones it (PGlite: loads its data directory image, ~1.2 s; PostgreSQL: CREATE DATABASE … TEMPLATE).
 *
 * - The template's name is the hash of the migration files, so a new migration makes a new template and a stale one
 *   is never used. PGlite's image is cached under node_modules/.cache; PostgreSQL's is a database `sp_tmpl_<hash>`
 *   on the DATABASE_URL server, kept for the next runs.
 * - `ensureTemplates` runs once per test run (vitest globalSetup, test/global-setup.ts), before any test file.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openDatabase } from "../src/db/client.js";

const migrationsDir = fileURLToPath(new URL("../src/db/migrations/", import.meta.url));
const cacheDir = fileURLToPath(new URL("../node_modules/.cache/sp-db-template/", import.meta.url));

/** A hash of every migration file (SQL and journal). */
export function migrationsKey(): string {
  const hash = createHash("sha256");
  for (const file of (readdirSync(migrationsDir, { recursive: true }) as string[]).sort()) {
    if (!/\.(sql|json)$/.test(file)) continue;
    hash.update(file).update(readFileSync(`${migrationsDir}${file}`));
  }
  return hash.digest("hex").slice(0, 16);
}

export const pgliteTemplatePath = () => `${cacheDir}${migrationsKey()}.tar.gz`;
export const postgresTemplateName = () => `sp_tmpl_${migrationsKey()}`;

/** The migrated PGlite image, as a Blob to start a database from; null when there is none yet. */
export function pgliteTemplate(): Blob | null {
  try {
    return new Blob([readFileSync(pgliteTemplatePath())]);
  } catch {
    return null;
  }
}

/**
 * A new temporary DATA_DIR holding the migrated PGlite template (the data directory `dumpDataDir` packs), for a
 * server process: it opens an existing database instead of creating and migrating one, ≈ 2.5 s and 3 s of CPU to
 * ready instead of ≈ 5 s and 7 s. Empty when the template has not been built (a drill run before any test run):
 * the server then creates the database itself. The README walkthrough keeps an empty one: a first start is what
 * it shows.
 */
export function migratedDataDir(prefix: string): string {
  return unpackTemplateInto(mkdtempSync(join(tmpdir(), prefix)));
}

/** `dir` (created if need be) holding the migrated PGlite template, as migratedDataDir; returns `dir`. */
export function unpackTemplateInto(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const image = pgliteTemplatePath();
  if (existsSync(image))
    execFileSync("tar", ["-xzf", image, "-C", dir], { stdio: "ignore", timeout: 30_000 });
  return dir;
}

async function ensurePgliteTemplate(): Promise<void> {
  if (pgliteTemplate()) return;
  const database = await openDatabase({ databaseUrl: null, dataDir: null });
  try {
    const image = await database.dumpDataDir!();
    mkdirSync(cacheDir, { recursive: true });
    // Written aside, then renamed: a reader never sees half a file.
    const partial = `${pgliteTemplatePath()}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    renameSync(partial, pgliteTemplatePath());
  } finally {
    await database.close();
  }
}

async function ensurePostgresTemplate(baseUrl: string): Promise<void> {
  const name = postgresTemplateName();
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount) return;
    // Built under another name, renamed when complete: a run that stops half-way leaves no broken template.
    const building = `${name}_b${process.pid}`;
    await admin.query(`create database ${building}`);
    const url = new URL(baseUrl);
    url.pathname = `/${building}`;
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null, poolSize: 2 });
    await database.close();
    await admin.query(`alter database ${building} rename to ${name}`);
  } catch (err) {
    // Another run built it meanwhile.
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (!found.rowCount) throw err;
  } finally {
    await admin.end();
  }
}

/** Builds the missing templates: PGlite's always, PostgreSQL's when DATABASE_URL is set. */
export async function ensureTemplates(): Promise<void> {
  await ensurePgliteTemplate();
  if (process.env.DATABASE_URL) await ensurePostgresTemplate(process.env.DATABASE_URL);
}
