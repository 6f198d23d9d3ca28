/**
 * Releasing the DATA_DIR lock leaves nothing behind that keeps the process alive: the CLI ends on its own once its
 * command is done (`process.exitCode`, no `process.exit`). On the code before, `release()` raced the lock holder's
 * exit against a 2-s timer it never cleared, so every CLI command on an embedded database lingered 2 s after
 * its answer. Run in a fresh process, whose only timers would be the lock's.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "sp-lock-release-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Acquires and releases the lock in a new process; what that process still holds after the release. */
function resourcesAfterRelease(): string[] {
  const script = `
    import { acquireDataDirLock } from "./src/db/data-dir-lock.ts";
    const lock = await acquireDataDirLock(${JSON.stringify(dir)}, 5);
    await lock.release();
    console.log(JSON.stringify(process.getActiveResourcesInfo()));
  `;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 30_000,
  });
  return JSON.parse(out.trim().split("\n").at(-1)!) as string[];
}

describe("the DATA_DIR lock's release", () => {
  it("leaves no timer behind once the lock is free", () => {
    expect(resourcesAfterRelease().filter((r) => r === "Timeout")).toEqual([]);
  });
});
