/**
 * Issue 21: the embedded engine's one-writer guarantee holds when `sp-writer.lock` is deleted or raced (the lock
 * is flock on DATA_DIR, held by a descriptor, not the file), and the CLI sends its admin token only to a server
 * that proves it holds that lock. Real `src/server.ts` and CLI processes on temporary DATA_DIRs. On the code
 * before: a second server started after the file was deleted and acknowledged writes were lost; the CLI sent the
 * token to whatever URL the file named.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, rows, sql } from "../src/db/client.js";
import { LOCK_FILE } from "../src/db/data-dir-lock.js";
import { testEngine } from "./db.js";
import { migratedDataDir } from "./db-template.js";
import {
  ADMIN_HEADERS,
  baseEnv,
  killAll,
  type Proc,
  request,
  spawnTs,
  startServer,
  stopServer,
  waitReady,
} from "./drills/server-process.js";
import { freePort, freePorts } from "./free-port.js";
import { startTcpProxy } from "./tcp-proxy.js";

const dirs: string[] = [];
afterAll(() => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const d = migratedDataDir("sp-lock-");
  dirs.push(d);
  return d;
}

function write(base: string, externalId: string) {
  return request(base, "POST", "/api/admin/sp-transactions", {
    headers: ADMIN_HEADERS,
    body: { wallet: "0x000000000000000000000000000000000000bEEF", type: "ADJUSTMENT", amount: 1, externalId },
  });
}

async function stored(dir: string): Promise<Set<string>> {
  const database = await openDatabase({ databaseUrl: null, dataDir: dir });
  try {
    const found = await rows<{ external_id: string }>(database.db, sql`select external_id from sp_ledger`);
    return new Set(found.map((r) => r.external_id));
  } finally {
    await database.close();
  }
}

/** Writes `ids` through `base`, expecting each to be acknowledged. */
async function acknowledged(base: string, ids: string[]): Promise<void> {
  for (const id of ids) expect((await write(base, id)).status, id).toBe(201);
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe.skipIf(testEngine !== "pglite")(
  "one writer per DATA_DIR, whatever happens to the lock file",
  { timeout: 240_000 },
  () => {
    it("the lock file deleted while a server runs: a second server is still refused, no write lost", async () => {
      const dir = dataDir();
      const a = await startServer({ DATA_DIR: dir });
      await acknowledged(a.base, ids("before", 50));
      unlinkSync(join(dir, LOCK_FILE));
      const port = await freePort();
      const b = spawnTs("src/server.ts", [], baseEnv({ DATA_DIR: dir, PORT: String(port) }));
      const refused = await b.exited;
      expect(refused.code, b.output()).toBe(1);
      expect(b.stderr().trim()).toBe(
        `Cannot start: DATA_DIR ${dir} is in use by another process: one process at a time may open an embedded database`,
      );
      await acknowledged(a.base, ids("after", 50));
      await stopServer(a);
      const found = await stored(dir);
      for (const id of [...ids("before", 50), ...ids("after", 50)]) expect(found.has(id), id).toBe(true);
    });

    it("two servers racing for a stale lock: one runs, the other is refused, no write lost", async () => {
      const dir = dataDir();
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 999_999_999, url: "http://127.0.0.1:1" }));
      const ports = await freePorts(2);
      const servers = ports.map((p) => ({
        proc: spawnTs("src/server.ts", [], baseEnv({ DATA_DIR: dir, PORT: String(p) })),
        base: `http://127.0.0.1:${p}`,
      }));
      const outcomes = await Promise.all(
        servers.map(async (s) => {
          try {
            await waitReady(s.proc, s.base);
            return "ready";
          } catch {
            return `exit ${s.proc.child.exitCode}`;
          }
        }),
      );
      expect([...outcomes].sort()).toEqual(["exit 1", "ready"]);
      const winner = servers.find((s) => s.proc.child.exitCode === null)!;
      await acknowledged(winner.base, ids("race", 50));
      await stopServer(winner.proc);
      const found = await stored(dir);
      for (const id of ids("race", 50)) expect(found.has(id), id).toBe(true);
    });
  },
);

/** An HTTP server that records every request it receives (a stranger on a port a lock file names). */
async function recordingServer() {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "application/json" }).end('{"success":true,"data":{"proof":"00"}}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, seen, close: () => new Promise((r) => server.close(r)) };
}

function cli(dir: string, externalId: string): Proc {
  return spawnTs(
    "src/cli/main.ts",
    [
      "sp-transaction",
      "--wallet",
      "0x000000000000000000000000000000000000bEEF",
      "--type",
      "ADJUSTMENT",
      "--amount",
      "1",
      "--external-id",
      externalId,
    ],
    baseEnv({ DATA_DIR: dir }),
  );
}

describe.skipIf(testEngine !== "pglite")(
  "the CLI sends its token only to a server it verified",
  { timeout: 240_000 },
  () => {
    it("a stale lock naming a live process and another server: the CLI opens the database itself", async () => {
      const dir = dataDir();
      const stranger = await recordingServer();
      // The test runner's own pid: alive, so the old code took the file for a live holder.
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, url: stranger.url }));
      const run = cli(dir, "stale-1");
      const done = await run.exited;
      await stranger.close();
      expect(done.code, run.output()).toBe(0);
      expect(JSON.parse(run.stdout())).toMatchObject({ created: true });
      expect(stranger.seen).toEqual([]);
      expect((await stored(dir)).has("stale-1")).toBe(true);
    });

    it("a holder letting go that names no server: the CLI waits for the lock and runs the command itself", async () => {
      const dir = dataDir();
      // Another process holds the DATA_DIR for two seconds and says nothing of an API (as a server exiting).
      const holder = spawn("flock", [dir, "-c", "echo locked; sleep 2"], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      await once(holder.stdout!, "data");
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: holder.pid }));
      const run = cli(dir, "after-holder-1");
      const done = await run.exited;
      expect(done.code, run.output()).toBe(0);
      expect(run.stderr()).not.toContain("sending the command");
      expect((await stored(dir)).has("after-holder-1")).toBe(true);
    });

    it("a forged lock file beside a running server: refused, the token never sent (nor through a relay)", async () => {
      const dir = dataDir();
      const server = await startServer({ DATA_DIR: dir });
      const real = JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"));
      expect(real).toMatchObject({
        pid: server.child.pid,
        url: server.base,
        secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      });

      const stranger = await recordingServer();
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...real, url: stranger.url, secret: "forged" }));
      const forged = cli(dir, "forged-1");
      expect((await forged.exited).code).toBe(1);
      expect(forged.stderr().trim().split("\n")).toHaveLength(1);
      expect(forged.stderr()).toContain(
        `could not prove it holds it (a stale or forged ${LOCK_FILE}): the admin token was not sent`,
      );
      expect(stranger.seen.map((r) => r.url.split("?")[0])).toEqual(["/api/cli/identity"]);
      expect(stranger.seen.every((r) => r.headers.authorization === undefined)).toBe(true);
      await stranger.close();

      // The real secret, but a URL that relays to the real server: its proof is for its own URL, not the relay's.
      const relay = await startTcpProxy({ host: "127.0.0.1", port: server.port });
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ ...real, url: `http://127.0.0.1:${relay.port}` }));
      const relayed = cli(dir, "relayed-1");
      expect((await relayed.exited).code).toBe(1);
      expect(relayed.stderr()).toContain("could not prove it holds it");
      await relay.close();

      // The true file: verified, the command runs in the server.
      writeFileSync(join(dir, LOCK_FILE), JSON.stringify(real));
      const verified = cli(dir, "verified-1");
      expect((await verified.exited).code, verified.output()).toBe(0);
      expect(verified.stderr()).toContain(
        `DATA_DIR is held by the server at ${server.base}: sending the command to it`,
      );
      await stopServer(server);
      const found = await stored(dir);
      expect(found.has("verified-1")).toBe(true);
      expect(found.has("forged-1") || found.has("relayed-1")).toBe(false);
    });
  },
);
