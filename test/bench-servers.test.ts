/**
 * The bench's servers end with the bench, on an exception too: a bench that failed half-way (bench/run.ts's
 * `main().catch` → `process.exit(1)`) left its servers running, and they held its stderr, which is CI's output.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "bench-servers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bench/service.ts", () => {
  it("a bench that stops on an exception takes its servers with it: its output closes and the port is free", async () => {
    // Starts the ceiling server as bench/run.ts does, prints its address, then fails as run.ts's main does.
    const script = join(dir, "fails.mts");
    writeFileSync(
      script,
      `import { startBare } from ${JSON.stringify(`${ROOT}bench/service.ts`)};
const { base } = await startBare({ ladder: Buffer.from("[]"), me: Buffer.from("{}") });
console.log(base);
await Promise.reject(new Error("a phase failed")).catch(() => process.exit(1));
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
    });
    // "close": the bench exited AND no process holds its output any more (the server inherits its stderr).
    const closed = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(-1), 20_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const base = out.trim().split("\n").at(-1)!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(closed).toBe(1);
    // The bodies' file the server read as it started is gone with it.
    expect(existsSync(join(tmpdir(), `bench-bare-${child.pid}.json`))).toBe(false);
    await expect(fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  }, 60_000);

  it("removes the services' log when the bench passes, and keeps it (naming it) when the bench fails", async () => {
    // Each CI run's bench left 30–40 MB of request lines in /tmp/bench-service-<pid>.log.
    const script = join(dir, "log.mts");
    writeFileSync(
      script,
      `import { writeSync } from "node:fs";
import { openServiceLog } from ${JSON.stringify(`${ROOT}bench/service.ts`)};
writeSync(openServiceLog(), "a request line\\n");
process.exit(Number(process.argv[2]));
`,
    );
    const run = async (code: number) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, String(code)], {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (d: Buffer) => {
        err += d;
      });
      await new Promise((resolve) => child.on("close", resolve));
      return { log: join(tmpdir(), `bench-service-${child.pid}.log`), err };
    };
    const passed = await run(0);
    expect(existsSync(passed.log)).toBe(false);
    const failed = await run(1);
    expect(readFileSync(failed.log, "utf8")).toBe("a request line\n");
    expect(failed.err).toContain(`the services' log is kept: ${failed.log}`);
    rmSync(failed.log);
  }, 60_000);
});
