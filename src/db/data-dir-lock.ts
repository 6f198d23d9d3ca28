/**
 * One writer per embedded database: the process that opens a DATA_DIR holds `<DATA_DIR>/sp-writer.lock`, a file
 * created exclusively that holds its pid (and, once it listens, the URL of its API).
 *
 * Contract:
 * - `acquireDataDirLock(dir)` creates the file, or throws DataDirLockedError (one-line message naming the pid) when
 *   a live process holds it. A lock whose process is dead (or whose file is unreadable) is stale and taken over.
 * - `advertise(url)` records where the holder's API listens, so a CLI run beside a server can send it its writes.
 * - `release()` removes the file if it is still ours; it also runs when the process exits.
 */
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const LOCK_FILE = "sp-writer.lock";

export interface LockHolder {
  pid: number;
  url: string | null;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${holder.pid}${holder.url ? ` (${holder.url})` : ""}: one process at a time may open an embedded database`,
    );
  }
}

export interface DataDirLock {
  advertise(url: string): void;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The live holder of `dir`'s lock, or null when there is none (no file, a dead pid, an unreadable file). */
export function lockHolder(dir: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")) as Partial<LockHolder>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return null;
    const holder = { pid: parsed.pid as number, url: typeof parsed.url === "string" ? parsed.url : null };
    return isAlive(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

export function acquireDataDirLock(dir: string): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const write = (url: string | null, flag: "wx" | "w") =>
    writeFileSync(path, JSON.stringify({ pid: process.pid, url }), { flag });
  for (let attempt = 0; ; attempt++) {
    try {
      write(null, "wx");
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = lockHolder(dir);
      if (holder && holder.pid !== process.pid) throw new DataDirLockedError(dir, holder);
      if (attempt > 0) {
        // Another process took the stale lock over between our unlink and create.
        throw new DataDirLockedError(dir, lockHolder(dir) ?? { pid: 0, url: null });
      }
      // Stale (its process is gone): remove it and create ours, still exclusively.
      try {
        unlinkSync(path);
      } catch {
        // already removed by another taker; the exclusive create decides
      }
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      const held = JSON.parse(readFileSync(path, "utf8")) as { pid?: number };
      if (held.pid === process.pid) unlinkSync(path);
    } catch {
      // gone already
    }
  };
  process.on("exit", release);
  return {
    advertise(url) {
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ pid: process.pid, url }));
      renameSync(tmp, path);
    },
    release,
  };
}
