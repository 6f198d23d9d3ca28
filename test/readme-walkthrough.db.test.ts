/**
 * README.md's walkthrough, run as written: the fenced block after `<!-- walkthrough: commands -->` goes to bash
 * unchanged, in the project folder, against a fresh server on a fresh embedded database, so the README cannot
 * drift from the CLI, the SDK or the API. The server block (`<!-- walkthrough: server -->`) must read
 * `TEST_CLOCK=1 npm start`; the test starts what `npm start` runs once its `prestart` (the web build, not needed
 * here) is done, `node --import tsx src/server.ts` (checked against package.json), with the block's variables;
 * the commands' `npm run -s cli --` runs package.json's `cli` script the same way (see `npmShim`). Both through this
 * test run's bundles of the two entry points when there are (test/service-bundle.ts).
 * Both get a free PORT, SIWE_DOMAIN localhost:PORT, a temporary DATA_DIR and a temporary XDG_CONFIG_HOME (where
 * `sign-in` keeps the session).
 *
 * Then it checks, through the API and not through the walkthrough's own output, what the walkthrough says:
 * the prediction won and was claimed once (payout 100 × 2.15 = 215), the balance is 1,000 − 100 + 215 = 1,115,
 * and the player is first of week 165's Qualification ladder (Tue 2030-01-01 is 164 weeks after week 1's Tue
 * 2026-11-10) with 215 SP. The session file is readable by its owner only.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSpClient, ok } from "@sp/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngine } from "./db.js";
import { freePort } from "./free-port.js";
import { nodeArgs } from "./service-bundle.js";

const ROOT = new URL("..", import.meta.url).pathname;

/** The fenced block that follows `<!-- walkthrough: NAME -->` in README.md. */
export function walkthroughBlock(readme: string, name: string): string {
  const marker = `<!-- walkthrough: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no ${marker}`);
  const m = /```sh\n([\s\S]*?)\n```/.exec(readme.slice(at + marker.length));
  if (!m) throw new Error(`README.md has no sh block after ${marker}`);
  return m[1]!;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A directory holding an `npm` that runs `npm run -s cli -- ARGS` as package.json's `cli` script does (checked
 * above), through this test run's bundle of the CLI when there is one (test/service-bundle.ts), and hands any
 * other command to the real npm: the walkthrough's eleven commands each started npm and then tsx, ≈ 2.5 s of CPU
 * apiece. Returns the directory.
 */
function npmShim(dir: string): string {
  const npm = execFileSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).trim();
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const cli = [process.execPath, ...nodeArgs("src/cli/main.ts")].map(quote).join(" ");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "npm"),
    [
      "#!/bin/sh",
      'if [ "$1" = run ] && [ "$2" = -s ] && [ "$3" = cli ] && [ "$4" = -- ]; then',
      "  shift 4",
      `  exec ${cli} "$@"`,
      "fi",
      `exec ${quote(npm)} "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(join(dir, "npm"), 0o755);
  return dir;
}

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
let server: ChildProcess | null = null;
let serverLog = "";
let baseUrl = "";
let env: NodeJS.ProcessEnv = {};
let scratch = "";

describe.skipIf(testEngine !== "pglite")("README.md's walkthrough", () => {
  beforeAll(async () => {
    const serverBlock = walkthroughBlock(readme, "server");
    expect(serverBlock).toBe("TEST_CLOCK=1 npm start");
    const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
    expect(scripts.start).toBe("node --import tsx src/server.ts");
    expect(scripts.cli).toBe("node --import tsx src/cli/main.ts");
    const port = await freePort();
    scratch = mkdtempSync(join(tmpdir(), "walkthrough-"));
    // The shell of a developer on a fresh clone: no DATABASE_URL or REDIS_URL (the embedded database), the
    // development defaults of every secret.
    const { DATABASE_URL: _db, REDIS_URL: _redis, TEST_DB: _engine, NODE_ENV: _mode, ...shell } = process.env;
    env = {
      ...shell,
      PATH: `${npmShim(join(scratch, "bin"))}:${shell.PATH}`,
      PORT: String(port),
      SIWE_DOMAIN: `localhost:${port}`,
      DATA_DIR: join(scratch, "data"),
      XDG_CONFIG_HOME: join(scratch, "config"),
      LOG_LEVEL: "warn",
    };
    server = spawn(process.execPath, nodeArgs("src/server.ts"), {
      cwd: ROOT,
      env: { ...env, TEST_CLOCK: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (d) => {
      serverLog += d;
    });
    server.stderr?.on("data", (d) => {
      serverLog += d;
    });
    baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ready = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(
        () => null,
      );
      if (ready?.status === 200) break;
      if (Date.now() > deadline || server.exitCode !== null) {
        throw new Error(`the server did not start:\n${serverLog}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once("exit", resolve));
      server.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (server.exitCode === null) server.kill("SIGKILL");
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("runs as written and leaves the state it describes", async () => {
    const commands = walkthroughBlock(readme, "commands");
    const result = await run("bash", ["-euo", "pipefail", "-c", commands], env, 300_000);
    expect(result.code, `stdout:\n${result.stdout}\nstderr:\n${result.stderr}\nserver:\n${serverLog}`).toBe(
      0,
    );
    expect(result.stdout).toContain('"payout": 215');
    expect(result.stdout).toContain('"balance": 1115');

    // The session sign-in kept, for this server, readable by its owner only.
    const sessionFile = join(env.XDG_CONFIG_HOME!, "sp-cli", "sessions.json");
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(sessionFile, "utf8")).sessions[baseUrl];
    expect(saved.wallet).toBe("0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf"); // the address of private key 1

    const sp = createSpClient({ baseUrl, session: saved.cookie });
    const { items } = await ok(sp.GET("/api/user/predictions"));
    expect(items.map((p) => [p.eventId, p.status, p.stake, p.odds, p.payout, p.claimed])).toEqual([
      ["epl-1", "won", 100, 2.15, 215, true],
    ]);
    expect((await ok(sp.GET("/api/reclaim/info"))).balance).toBe(1115);
    const me = await ok(sp.GET("/api/competition/me"));
    expect(me.week).toBe(165);
    expect(me.qualification).toEqual({ rank: 1, competitiveSp: 215, withinCutoff: true });
  }, 320_000);
});
