/**
 * .ci/steps.sh, the step runner of .ci/run: a step that fails while something it started still runs, or a step
 * that never ends, must not hold CI's output open past its end or its budget. Each case runs the runner the way
 * .ci/run does, with its output on a pipe, and waits for that pipe to close.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Runs `script` after sourcing .ci/steps.sh; resolves once its output is closed (every holder gone). */
function runSteps(script: string): Promise<{ code: number | null; out: string; seconds: number }> {
  const started = performance.now();
  const child = spawn("bash", ["-c", `set -euo pipefail; source .ci/steps.sh; ${script}`], {
    cwd: ROOT,
    // No database to describe when a step outlives its budget: the diagnostics stay local and quick.
    env: { ...process.env, DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d;
  });
  child.stderr.on("data", (d: Buffer) => {
    out += d;
  });
  // "close": the process exited AND every copy of its output pipe was closed.
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code, out, seconds: (performance.now() - started) / 1000 })),
  );
}

/** True while a process whose command line contains `marker` runs. */
function running(marker: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ps = spawn("pgrep", ["-f", marker]);
    ps.on("close", (code) => resolve(code === 0));
  });
}

describe(".ci/steps.sh", () => {
  it("a step that fails with a child still running: the child is stopped, CI's output closes, the failure is reported", async () => {
    // The child holds the step's output, as a server left by a failed bench held .ci/run's.
    const marker = `sleep 3${Math.floor(Math.random() * 1000)}1`;
    const result = await runSteps(`step 60 bash -c "${marker} & exit 3"; echo never`);
    expect(result.code).toBe(3);
    expect(result.seconds).toBeLessThan(10);
    expect(result.out).toContain("failed (exit 3)");
    expect(result.out).not.toMatch(/^never$/m);
    expect(await running(marker)).toBe(false);
  });

  it("a step that passes leaves nothing of its own running, and the next step runs", async () => {
    const marker = `sleep 4${Math.floor(Math.random() * 1000)}1`;
    const result = await runSteps(
      `step 60 bash -c "${marker} & exit 0"; echo next; step 60 true; print_timings`,
    );
    expect(result.code).toBe(0);
    expect(result.seconds).toBeLessThan(10);
    expect(result.out).toMatch(/^next$/m);
    expect(result.out).toMatch(new RegExp(`left these running, killed:\\n\\d+ ${marker}\\n`));
    expect(result.out).toMatch(/ci steps \(wall time\):\n\s+\d+ s {2}bash -c .*\n\s+\d+ s {2}true\n/);
    expect(await running(marker)).toBe(false);
  });

  it("a step past its budget is stopped with the processes that were running, and CI fails", async () => {
    const marker = `sleep 5${Math.floor(Math.random() * 1000)}1`;
    const result = await runSteps(`step 2 ${marker}; echo never`);
    expect(result.code).toBe(124);
    expect(result.seconds).toBeLessThan(10);
    expect(result.out).toContain("outlived its budget of 2 s");
    expect(result.out).toContain("--- processes");
    expect(result.out).not.toMatch(/^never$/m);
    expect(await running(marker)).toBe(false);
  });
});
