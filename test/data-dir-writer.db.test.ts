/**
 * Issue 11, case 1 and the SIGTERM drill, with real processes on one embedded DATA_DIR:
 * - a second server on a DATA_DIR a live server holds is refused with one line and a non-zero exit, and every
 *   write the first acknowledged survives a reopen;
 * - the CLI run beside the server sends its command to it (the README's "second terminal"), and its write is
 *   there after a restart;
 * - SIGTERM mid-burst of writes: every acknowledged write is found after a reopen;
 * - a lock left by a dead process is taken over.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rows, sql } from "../src/db/client.js";
import { LOCK_FILE } from "../src/db/data-dir-lock.js";
import { testEngine } from "./db.js";
import { migratedDataDir } from "./db-template.js";
import { freePort } from "./free-port.js";
import { nodeArgs } from "./service-bundle.js";

const ROOT = resolve(import.meta.dirname, "..");
const ADMIN_TOKEN = "data-dir-admin-token";
/**
 * The DATA_DIR the tests share, made when they run: made at import, it was left behind by the projects that skip
 * them (PostgreSQL's), whose hooks never run (40 MB in /tmp a test run).
 */
let dir = "";
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function env(port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: "development",
    DATA_DIR: dir,
    PORT: String(port),
    HOST: "127.0.0.1",
    ADMIN_TOKEN,
    LOG_LEVEL: "warn",
    RATE_LIMIT_WRITE_PER_MIN: "1000000",
    RATE_LIMIT_READ_PER_MIN: "1000000",
  };
}

function run(script: string, args: string[], port: number) {
  const child = spawn(process.execPath, nodeArgs(script, args), {
    cwd: ROOT,
    env: env(port),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (c) => {
    out += c;
  });
  child.stderr!.on("data", (c) => {
    err += c;
  });
  const exited = once(child, "exit").then(() => ({ code: child.exitCode, out, err }));
  return { child, exited, output: () => out + err };
}

async function startServer(port: number) {
  const server = run("src/server.ts", [], port);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready: ${server.output()}`);
}

function spWrite(port: number, externalId: string) {
  return fetch(`http://127.0.0.1:${port}/api/admin/sp-transactions`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      wallet: "0x000000000000000000000000000000000000dEaD",
      type: "ADJUSTMENT",
      amount: 1,
      externalId,
    }),
  });
}

async function storedExternalIds(): Promise<Set<string>> {
  const database = await openDatabase({ databaseUrl: null, dataDir: dir });
  try {
    const found = await rows<{ external_id: string }>(database.db, sql`select external_id from sp_ledger`);
    return new Set(found.map((r) => r.external_id));
  } finally {
    await database.close();
  }
}

describe.skipIf(testEngine !== "pglite")("one writer per DATA_DIR", () => {
  beforeAll(() => {
    dir = migratedDataDir("sp-datadir-");
  });

  it("refuses a second server, sends the CLI's writes to the first, and loses no acknowledged write", async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const a = await startServer(portA);
    const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"));
    expect(lock).toEqual({
      pid: a.child.pid,
      url: `http://127.0.0.1:${portA}`,
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const b = run("src/server.ts", [], portB);
    const refused = await b.exited;
    expect(refused.code).toBe(1);
    const line = refused.err.trim();
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toBe(
      `Cannot start: DATA_DIR ${dir} is in use by process ${a.child.pid} (http://127.0.0.1:${portA}): one process at a time may open an embedded database`,
    );

    for (let i = 0; i < 40; i++) expect((await spWrite(portA, `a-${i}`)).status).toBe(201);

    const cli = run(
      "src/cli/main.ts",
      [
        "sp-transaction",
        "--wallet",
        "0x000000000000000000000000000000000000dEaD",
        "--type",
        "ADJUSTMENT",
        "--amount",
        "5",
        "--external-id",
        "cli-1",
      ],
      portA,
    );
    const cliDone = await cli.exited;
    expect(cliDone.code, cliDone.err).toBe(0);
    expect(JSON.parse(cliDone.out)).toMatchObject({ created: true });
    expect(cliDone.err).toContain(`sending the command to it`);

    // SIGTERM in the middle of a burst: what was acknowledged (201) must be stored.
    const acknowledged: string[] = [];
    const burst = Array.from({ length: 60 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 5));
      const res = await spWrite(portA, `burst-${i}`).catch(() => null);
      if (res?.status === 201) acknowledged.push(`burst-${i}`);
      else if (res) expect([503]).toContain(res.status);
    });
    setTimeout(() => a.child.kill("SIGTERM"), 120);
    await Promise.all(burst);
    const stopped = await a.exited;
    expect(stopped.code).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(0);
    console.log(`SIGTERM mid-burst: ${acknowledged.length} of 60 writes acknowledged before shutdown`);

    const stored = await storedExternalIds();
    for (let i = 0; i < 40; i++) expect(stored.has(`a-${i}`)).toBe(true);
    expect(stored.has("cli-1")).toBe(true);
    for (const id of acknowledged) expect(stored.has(id), id).toBe(true);
  });

  it("takes over a lock whose process is dead", async () => {
    const dead = spawn(process.execPath, ["-e", ""]);
    await once(dead, "exit");
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead.pid, url: "http://127.0.0.1:1" }));
    const database = await openDatabase({ databaseUrl: null, dataDir: dir });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
    await database.close();
    expect(() => readFileSync(join(dir, LOCK_FILE))).toThrow();
  });
});
