/**
 * `backup FILE` and `restore FILE [--overwrite]` (docs/operations.md), on either engine.
 *
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom` of the whole database, `pg_restore --clean --if-exists
 *   --single-transaction` back (all or nothing). Both must be on PATH; the password goes through PGPASSWORD, never
 *   the command line. Restore refuses while any other session is connected to the database (a running instance):
 *   stop every instance first.
 * - Embedded (DATA_DIR): PGlite's `dumpDataDir` (a gzipped tar of the data directory, taken inside the process that
 *   owns it: beside a running server the CLI sends `backup` to it, like other commands) and `loadDataDir` into a
 *   fresh directory. Restore refuses while a process holds the DATA_DIR (a running server) and keeps the replaced
 *   files in `<DATA_DIR>.before-restore-<time>`.
 * - Restore refuses to replace a database that holds data unless `--overwrite` is given.
 * Every external command has a time bound (BACKUP_TIMEOUT_MS, 30 min).
 */
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Config } from "../config.js";
import { acquireDataDirLock, LOCK_FILE } from "../db/data-dir-lock.js";
import { AppError } from "../errors.js";
import type { CliContext } from "./cli-context.js";

const BACKUP_TIMEOUT_MS = 30 * 60_000;

export interface BackupResult {
  engine: "postgres" | "pglite";
  file: string;
  bytes: number;
}

/** `backup FILE`: writes a backup of the configured database to FILE (absolute or relative to the CLI's cwd). */
export async function backupCommand(ctx: CliContext, input: { file: string }): Promise<BackupResult> {
  const file = resolve(input.file);
  mkdirSync(dirname(file), { recursive: true });
  if (ctx.database.engine === "postgres") {
    await runTool("pg_dump", ["--format=custom", "--no-owner", "--file", file], ctx.config.databaseUrl!);
  } else {
    if (!ctx.database.dumpDataDir) throw new AppError("VALIDATION_FAILED", "This database cannot be dumped");
    const dump = await ctx.database.dumpDataDir();
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  }
  return { engine: ctx.database.engine, file, bytes: statSync(file).size };
}

export interface RestoreResult {
  engine: "postgres" | "pglite";
  file: string;
  /** Embedded: where the replaced data directory was kept (null when DATA_DIR was empty). */
  previousDataDir: string | null;
}

/** `restore FILE [--overwrite]`: replaces the configured database with the backup in FILE. */
export async function restoreCommand(
  config: Config,
  input: { file: string; overwrite: boolean },
): Promise<RestoreResult> {
  const file = resolve(input.file);
  if (!existsSync(file)) throw new AppError("VALIDATION_FAILED", `restore: no file at ${file}`);
  if (config.databaseUrl) {
    await assertPostgresRestorable(config.databaseUrl, input.overwrite);
    await runTool(
      "pg_restore",
      ["--clean", "--if-exists", "--no-owner", "--exit-on-error", "--single-transaction", file],
      config.databaseUrl,
    );
    return { engine: "postgres", file, previousDataDir: null };
  }
  return {
    engine: "pglite",
    file,
    previousDataDir: await restoreDataDir(resolve(config.dataDir), file, input.overwrite),
  };
}

/** Refuses while another session uses the database, or when it holds data and `overwrite` is false. */
async function assertPostgresRestorable(url: string, overwrite: boolean): Promise<void> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5000,
    query_timeout: 10_000,
  });
  await client.connect();
  try {
    const others = await client.query<{ n: string }>(
      "select count(*)::text as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    const n = Number(others.rows[0]!.n);
    if (n > 0) {
      throw new AppError(
        "CONFLICT",
        `restore: ${n} other session(s) are connected to this database (a running instance?): stop every instance first`,
      );
    }
    const users = await client.query<{ has: boolean }>(
      "select to_regclass('public.users') is not null as has",
    );
    if (users.rows[0]!.has && !overwrite) {
      const count = await client.query<{ n: string }>("select count(*)::text as n from users");
      if (Number(count.rows[0]!.n) > 0) {
        throw new AppError(
          "CONFLICT",
          "restore: the database holds data; run again with --overwrite to replace it with the backup",
        );
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Loads the dump into a fresh directory beside DATA_DIR, then, holding DATA_DIR's writer lock throughout, moves
 * the current files aside and the restored ones in. Returns where the current files went (null if there were none).
 */
async function restoreDataDir(dataDir: string, file: string, overwrite: boolean): Promise<string | null> {
  // Throws DataDirLockedError (one line naming the process) while a server holds it.
  const lock = await acquireDataDirLock(dataDir);
  try {
    const current = readdirSync(dataDir).filter((f) => !f.startsWith(LOCK_FILE));
    if (current.length > 0 && !overwrite) {
      throw new AppError(
        "CONFLICT",
        `restore: DATA_DIR ${dataDir} holds a database; run again with --overwrite to replace it with the backup`,
      );
    }
    const bytes = readFileSync(file);
    const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
    const staging = `${dataDir}.restoring-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    const loaded = new PGlite(staging, {
      loadDataDir: new Blob([bytes], { type: gzip ? "application/x-gzip" : "application/x-tar" }),
    });
    try {
      // The restored database answers: the backup was a whole data directory.
      await loaded.query("select count(*) from users");
    } finally {
      await loaded.close();
    }
    let previous: string | null = null;
    if (current.length > 0) {
      previous = `${dataDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      mkdirSync(previous);
      for (const f of current) renameSync(join(dataDir, f), join(previous, f));
    }
    // The dump holds the writer lock of the process that took it: ours stays.
    for (const f of readdirSync(staging)) {
      if (!f.startsWith(LOCK_FILE)) renameSync(join(staging, f), join(dataDir, f));
    }
    rmSync(staging, { recursive: true, force: true });
    return previous;
  } finally {
    await lock.release();
  }
}

/** Runs pg_dump / pg_restore against `url` (password through PGPASSWORD), bounded in time. */
function runTool(tool: "pg_dump" | "pg_restore", args: string[], url: string): Promise<void> {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tool, [...args, `--dbname=${u.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => {
      stderr = (stderr + c).slice(-4000);
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), BACKUP_TIMEOUT_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(
        new AppError(
          "SERVICE_UNAVAILABLE",
          (err as NodeJS.ErrnoException).code === "ENOENT"
            ? `${tool} is not on PATH: install the PostgreSQL client tools (the same major version as the server)`
            : `${tool} failed to start: ${err.message}`,
        ),
      );
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolvePromise();
      const why = signal ? `was stopped (${signal})` : `exited with ${code}`;
      reject(new AppError("INTERNAL", `${tool} ${why}: ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}
