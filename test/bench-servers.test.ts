/**
 * The bench's servers end with the bench, on an exception too: a bench that failed half-way (bench/run.ts's
 * `main().catch` → `process.exit(1)`) left its servers running, and they held its stderr, which is CI's output.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
});
