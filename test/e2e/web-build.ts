/**
 * ensureWebBuild(): builds web/dist with Vite when it is missing or older than any source file under web/, so the
 * browser tests pass on a fresh clone and always see the current sources. Vite runs in a child process: the test
 * runner's own Vite instance and its NODE_ENV=test stay out of the production build.
 */
import { execFile } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const web = join(repo, "web");
const builtIndex = join(web, "dist", "index.html");

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function builtMtime(): number | null {
  try {
    return statSync(builtIndex).mtimeMs;
  } catch {
    return null;
  }
}

export async function ensureWebBuild(): Promise<void> {
  const built = builtMtime();
  if (built !== null && built >= newestSourceMtime(web)) return;
  const { NODE_ENV: _ignored, ...env } = process.env;
  await promisify(execFile)(
    process.execPath,
    [
      join(repo, "node_modules/vite/bin/vite.js"),
      "build",
      "--config",
      join(web, "vite.config.ts"),
      "--logLevel",
      "warn",
    ],
    { cwd: repo, env, timeout: 120_000 },
  );
}
