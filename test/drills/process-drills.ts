/**
 * Drills against real server processes, on either engine (engines.ts). Each checks its promises and throws
 * ("drill broken: …") when one breaks; it returns its figures otherwise.
 * - `signalUnderLoadDrill(engine, "SIGTERM")`: under a steady write load, SIGTERM: the process exits 0 within
 *   SHUTDOWN_TIMEOUT_MS plus a small margin; every write it acknowledged is stored (counted after a restart).
 * - `signalUnderLoadDrill(engine, "SIGKILL")`: the same with kill -9: no shutdown at all, and still every
 *   acknowledged write is stored (a commit is durable before its answer is sent).
 * - `lockDeletionDrill()` (embedded): the DATA_DIR lock file deleted while a server runs, then a second server
 *   started: refused; every acknowledged write of the first is stored.
 */
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { LOCK_FILE } from "../../src/db/data-dir-lock.js";
import { within } from "../../src/shared/bounded-wait.js";
import { freePort } from "../free-port.js";
import { drillStorage, type Engine } from "./engines.js";
import {
  ADMIN_HEADERS,
  baseEnv,
  request,
  type Server,
  sleep,
  spawnTs,
  startServer,
  stopServer,
} from "./server-process.js";

function broken(why: string): never {
  throw new Error(`drill broken: ${why}`);
}

/** Writers posting unique ledger rows until stopped; what was acknowledged and how the others were answered. */
function writeLoad(base: string, writers: number, prefix: string) {
  let running = true;
  const acknowledged: string[] = [];
  const answers = new Map<string, number>();
  const loops = Array.from({ length: writers }, async (_, w) => {
    for (let i = 0; running; i++) {
      const externalId = `${prefix}-${w}-${i}`;
      const res = await request(base, "POST", "/api/admin/sp-transactions", {
        headers: ADMIN_HEADERS,
        body: {
          wallet: `0x${(w + 1).toString(16).padStart(40, "a")}`,
          type: "ADJUSTMENT",
          amount: 1,
          externalId,
        },
        timeoutMs: 20_000,
      });
      const key = res.status === 0 ? "no answer" : String(res.status);
      answers.set(key, (answers.get(key) ?? 0) + 1);
      if (res.status === 200 || res.status === 201) acknowledged.push(externalId);
      else if (res.status === 0) await sleep(20);
    }
  });
  return {
    acknowledged,
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

export interface SignalResult {
  engine: Engine;
  signal: "SIGTERM" | "SIGKILL";
  acknowledged: number;
  lost: number;
  exitMs: number;
  answers: Record<string, number>;
}

export async function signalUnderLoadDrill(
  engine: Engine,
  signal: "SIGTERM" | "SIGKILL",
  budgetMs = 3000,
): Promise<SignalResult> {
  const storage = await drillStorage(engine);
  let server: Server | null = null;
  try {
    server = await startServer({ ...storage.env, SHUTDOWN_TIMEOUT_MS: String(budgetMs) });
    const load = writeLoad(server.base, 6, `${signal}`);
    await sleep(1500);
    const sentAt = performance.now();
    server.child.kill(signal);
    const exit = await within(server.exited, budgetMs + 15_000);
    const exitMs = Math.round(performance.now() - sentAt);
    await sleep(200);
    await load.stop();
    if (!exit) broken(`no exit ${budgetMs + 15_000} ms after ${signal}`);
    if (signal === "SIGTERM") {
      if (exit.code !== 0)
        broken(`exit ${exit.code ?? exit.signal} after SIGTERM:\n${server.output().slice(-2000)}`);
      if (exitMs > budgetMs + 2000) broken(`SIGTERM: exit after ${exitMs} ms, budget ${budgetMs} ms`);
    }
    const bad = [...load.answers.keys()].filter((k) => !["200", "201", "503", "no answer"].includes(k));
    if (bad.length > 0)
      broken(`answers other than 2xx/503: ${JSON.stringify(Object.fromEntries(load.answers))}`);
    if (load.acknowledged.length === 0) broken("no write acknowledged before the signal");
    // A restart on the same storage (the embedded engine recovers its DATA_DIR), then count.
    const again = await startServer(storage.env);
    await stopServer(again);
    const stored = await storage.storedExternalIds();
    const lost = load.acknowledged.filter((id) => !stored.has(id)).length;
    if (lost > 0) broken(`${lost} of ${load.acknowledged.length} acknowledged writes lost after ${signal}`);
    return {
      engine,
      signal,
      acknowledged: load.acknowledged.length,
      lost,
      exitMs,
      answers: Object.fromEntries(load.answers),
    };
  } finally {
    if (server) await stopServer(server, 5000);
    await storage.drop();
  }
}

export interface LockDeletionResult {
  acknowledged: number;
  lost: number;
  secondServer: string;
}

export async function lockDeletionDrill(): Promise<LockDeletionResult> {
  const storage = await drillStorage("pglite");
  const dir = storage.env.DATA_DIR!;
  let server: Server | null = null;
  try {
    server = await startServer(storage.env);
    const load = writeLoad(server.base, 4, "lock");
    await sleep(500);
    unlinkSync(join(dir, LOCK_FILE));
    const port = await freePort();
    const second = spawnTs("src/server.ts", [], baseEnv({ DATA_DIR: dir, PORT: String(port) }));
    const exit = await within(second.exited, 60_000);
    await sleep(500);
    await load.stop();
    if (!exit) broken("a second server started on a DATA_DIR whose lock file was deleted");
    if (exit.code !== 1) broken(`the second server exited ${exit.code ?? exit.signal}:\n${second.output()}`);
    await stopServer(server);
    const stored = await storage.storedExternalIds();
    const lost = load.acknowledged.filter((id) => !stored.has(id)).length;
    if (lost > 0) broken(`${lost} of ${load.acknowledged.length} acknowledged writes lost`);
    return { acknowledged: load.acknowledged.length, lost, secondServer: second.stderr().trim() };
  } finally {
    if (server) await stopServer(server, 5000);
    await storage.drop();
  }
}
