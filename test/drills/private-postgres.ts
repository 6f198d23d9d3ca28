/**
 * A private PostgreSQL cluster for fault drills: `initdb` into a temporary folder, started with `pg_ctl` on a free
 * port of 127.0.0.1, so a drill can restart or stop *its* server (`pg_ctl restart -m fast`) without touching the
 * machine's shared one on 5432. The binaries come from /usr/lib/postgresql/<newest>/bin (Debian's layout) or
 * PG_BIN. PostgreSQL refuses to run as root: as root, every command runs as the `postgres` user (runuser).
 *
 * Durability settings are the defaults (fsync on): a drill that counts acknowledged writes after a restart must
 * not be helped by a cluster that lies about its commits. The control commands are asynchronous, so load keeps
 * running while the server restarts.
 */
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "../free-port.js";

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: connections are terminated (57P01), the server is back when this resolves. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The server's log, its last `chars` characters (for a drill's failure message). */
  logTail(chars?: number): string;
  /** Stops the server (immediate) and removes the folder. */
  destroy(): void;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) throw new Error("no PostgreSQL binaries: install postgresql or set PG_BIN");
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL version under ${root}`);
  return join(root, versions[0]!, "bin");
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "sp-private-pg-"));
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (tool: string, args: string[]) => {
    const file = join(bin, tool);
    const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", file, ...args]] : [file, args];
    execFileSync(cmd, argv, { stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 });
  };
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const ctlArgs = (args: string[]) => ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", ...args];
  const ctl = async (...args: string[]) => {
    const file = join(bin, "pg_ctl");
    const [cmd, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", file, ...ctlArgs(args)]]
      : [file, ctlArgs(args)];
    await promisify(execFile)(cmd, argv, { timeout: 60_000 });
  };
  await ctl("-o", options, "start");
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: () => ctl("-m", "fast", "-o", options, "restart"),
    stop: () => ctl("-m", "fast", "stop"),
    start: () => ctl("-o", options, "start"),
    logTail: (chars = 3000) => {
      try {
        return readFileSync(join(dir, "log"), "utf8").slice(-chars);
      } catch (err) {
        return `(no log: ${(err as Error).message})`;
      }
    },
    destroy: () => {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ctlArgs(["-m", "immediate", "stop"]));
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
