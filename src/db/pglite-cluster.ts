/**
 * Creating an embedded database cluster in a DATA_DIR, in a child process. PGlite's initdb takes the process that
 * runs it to ≈ 970 MB resident, and WebAssembly memory never shrinks, so a server that created its own cluster
 * kept that peak (978 MB on a first `npm start`, 483 MB when the cluster already existed: docs/performance.md
 * "Session 8"). A child that creates the cluster and exits leaves the server only the cost of opening it.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** How long the child may take (initdb takes 3–8 s on a 2-core machine). */
const CREATE_TIMEOUT_MS = 120_000;

/** Whether `dataDir` holds a cluster (initdb writes PG_VERSION). */
export function hasCluster(dataDir: string): boolean {
  return existsSync(join(dataDir, "PG_VERSION"));
}

/**
 * Creates the cluster of `dataDir` (an existing, empty directory the caller holds the lock of) in a child process
 * with the same PGlite the server opens it with; rejects with the child's error output when it fails or times out.
 */
export function createClusterApart(dataDir: string, timeoutMs = CREATE_TIMEOUT_MS): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  // Liftoff only: V8 compiles PGlite's WebAssembly with its baseline compiler and never tiers up to TurboFan, whose
  // compilation of the 9 MB module is most of initdb's CPU in a process that runs for seconds (CPU 6.7–7.3 → 5.2–5.4 s,
  // wall 5.0–5.4 → 4.6–4.9 s, peak RSS 810–860 → 740–780 MiB: docs/performance.md, "Session 15"). A V8 without the
  // flag reports it on stderr and runs on.
  const script = `require("node:v8").setFlagsFromString("--liftoff-only");
const { PGlite } = require(${JSON.stringify(pglite)});
(async () => {
  const db = new PGlite({ dataDir: process.argv[1] });
  await db.waitReady;
  await db.close();
})().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", script, dataDir], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else {
        const why = signal ? `killed by ${signal} after ${timeoutMs} ms` : `exit ${code}`;
        reject(new Error(`creating the embedded database in ${dataDir} failed (${why}): ${stderr.trim()}`));
      }
    });
  });
}
