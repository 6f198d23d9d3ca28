/**
 * One writer per embedded database: the process that opens a DATA_DIR holds an OS lock on it, and tells where its
 * API listens so a CLI run beside it can send it its writes, and check that it is talking to that process.
 *
 * The lock is `flock(2)` on the DATA_DIR folder itself (never deleted while the database is in it), held through an
 * open file descriptor for the holder's whole life: Node has no flock, so a child process of util-linux's
 * `flock` takes it (`flock --wait 2 DATA_DIR -c 'echo locked; exec cat'`) and keeps it while `cat` reads its stdin,
 * a pipe from this process. The kernel frees the lock when the descriptor closes: when this process releases it,
 * exits or is killed (-9 too: the pipe closes, `cat` ends). A pid file alone could not do this: deleting or racing
 * it let two processes open one database (docs/reliability.md).
 *
 * Beside the lock, `<DATA_DIR>/sp-writer.lock` (mode 0600) says who holds it: `{pid, url, secret}`. It is only
 * information — deleting or forging it takes no lock — so a CLI that reads a URL there first makes the server prove
 * it is the holder (`identityProof`: an HMAC with this run's random secret over the advertised URL and a fresh
 * challenge) before sending it the admin token (cli/remote.ts).
 *
 * Contract:
 * - `acquireDataDirLock(dir)` resolves with the lock, or rejects with DataDirLockedError (one-line message naming
 *   the holder when the file names a live one) when another process holds it for more than 2 s, or with an Error
 *   saying util-linux is needed when `flock` is missing.
 * - `advertise(url)` records where the holder's API listens; `prove(challenge)` answers a CLI's challenge.
 * - `release()` frees the lock and removes the file if it is still ours; `onLost(cb)` runs `cb` if the lock ends
 *   without `release()` (its child process killed): this process is then no longer the one writer.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { within } from "../shared/bounded-wait.js";

export const LOCK_FILE = "sp-writer.lock";
/** How long a start waits for a holder that is letting go (a server exiting as the next one starts). */
const LOCK_WAIT_SECONDS = 2;
/** The exit code `flock` is told to use when the lock stays held. */
const CONFLICT_EXIT = 75;

export interface LockHolder {
  /** The holder's pid when the file names a live process, else null (the file is stale, gone or being written). */
  pid: number | null;
  url: string | null;
  /** The holder's secret, for the CLI to check its proof; never shown. */
  secret: string | null;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by ${holder.pid ? `process ${holder.pid}` : "another process"}${holder.url ? ` (${holder.url})` : ""}: one process at a time may open an embedded database`,
    );
  }
}

export interface DataDirLock {
  advertise(url: string): void;
  /** The proof for `challenge` (identityProof over the advertised URL), or null before `advertise`. */
  prove(challenge: string): string | null;
  onLost(cb: () => void): void;
  release(): Promise<void>;
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

/** What `<dir>/sp-writer.lock` says about the holder (all null when there is no readable file). */
export function lockHolder(dir: string): LockHolder {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")) as Record<string, unknown>;
    const pid = Number.isInteger(parsed.pid) && (parsed.pid as number) > 0 ? (parsed.pid as number) : null;
    return {
      pid: pid !== null && isAlive(pid) ? pid : null,
      url: typeof parsed.url === "string" ? parsed.url : null,
      secret: typeof parsed.secret === "string" ? parsed.secret : null,
    };
  } catch {
    return { pid: null, url: null, secret: null };
  }
}

/** HMAC-SHA256 (hex) of the holder's `secret` over the URL it advertises and a CLI's challenge. */
export function identityProof(secret: string, url: string, challenge: string): string {
  return createHmac("sha256", secret).update(`sp-writer-identity\n${url}\n${challenge}`).digest("hex");
}

/** True when `proof` is the holder's answer to `challenge` for `url` (constant-time comparison). */
export function isIdentityProof(secret: string, url: string, challenge: string, proof: unknown): boolean {
  if (typeof proof !== "string" || !/^[0-9a-f]{64}$/.test(proof)) return false;
  return timingSafeEqual(
    Buffer.from(identityProof(secret, url, challenge), "hex"),
    Buffer.from(proof, "hex"),
  );
}

/** Starts `flock` on `dir`; resolves with its process once it holds the lock. */
function lockWithFlock(dir: string, waitSeconds: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      "flock",
      [
        "--wait",
        String(waitSeconds),
        "--conflict-exit-code",
        String(CONFLICT_EXIT),
        dir,
        "-c",
        "echo locked; exec cat",
      ],
      // Its own process group: a Ctrl-C meant for this process (which then shuts down gracefully) must not free
      // the lock while the database is still open.
      { stdio: ["pipe", "pipe", "pipe"], detached: true },
    );
    let stderr = "";
    child.stderr!.on("data", (d) => {
      stderr += d;
    });
    const onData = (d: Buffer) => {
      if (!d.toString().includes("locked")) return;
      child.stdout!.off("data", onData);
      child.off("exit", onExit);
      resolve(child);
    };
    const onExit = (code: number | null) => {
      if (code === CONFLICT_EXIT) {
        reject(new DataDirLockedError(dir, lockHolder(dir)));
      } else {
        reject(new Error(`could not lock DATA_DIR ${dir} with flock (exit ${code}): ${stderr.trim()}`));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", onExit);
    child.once("error", (err) => {
      child.off("exit", onExit);
      reject(
        (err as NodeJS.ErrnoException).code === "ENOENT"
          ? new Error(
              "the embedded database locks DATA_DIR with util-linux's flock, which is not installed: install util-linux, or set DATABASE_URL",
            )
          : err,
      );
    });
  });
}

export async function acquireDataDirLock(dir: string, waitSeconds = LOCK_WAIT_SECONDS): Promise<DataDirLock> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const child = await lockWithFlock(dir, waitSeconds);
  // The lock must not keep a process alive by itself (the CLI ends when its work is done): the pipes are unref'd.
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  }
  child.unref();

  const secret = randomBytes(32).toString("hex");
  let url: string | null = null;
  const write = () => {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ pid: process.pid, url, secret }), { mode: 0o600 });
    renameSync(tmp, path);
  };
  write();

  let released = false;
  const lost: Array<() => void> = [];
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  void exited.then(() => {
    if (!released) for (const cb of lost) cb();
  });
  const freeNow = () => {
    // Ends `cat` (its stdin closes) and `flock`; the kernel frees the lock with their descriptors.
    child.stdin?.destroy();
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    try {
      const held = JSON.parse(readFileSync(path, "utf8")) as { pid?: number; secret?: string };
      if (held.pid === process.pid && held.secret === secret) unlinkSync(path);
    } catch {
      // gone already
    }
  };
  const onExit = () => freeNow();
  process.on("exit", onExit);
  return {
    advertise(at) {
      url = at;
      write();
    },
    prove(challenge) {
      return url === null ? null : identityProof(secret, url, challenge);
    },
    onLost(cb) {
      lost.push(cb);
    },
    async release() {
      if (released) return;
      released = true;
      process.off("exit", onExit);
      freeNow();
      // Resolves once the lock is free, so this process (or the next) can take it again at once.
      await within(exited, 2000);
    },
  };
}
