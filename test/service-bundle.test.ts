/**
 * The bundle the process-starting tests run (test/service-bundle.ts) behaves as `node --import tsx <entry>`: the
 * same refusal of a bad variable (exit 1, one line), the same CLI usage, and each source file's own
 * `import.meta.url`, so the migrations, web/dist and the repository's text are found beside the sources.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServiceBundle, nodeArgs, removeServiceBundle } from "./service-bundle.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let dir = "";

beforeAll(async () => {
  dir = await buildServiceBundle();
}, 60_000);
afterAll(() => removeServiceBundle(dir));

function run(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the service bundle", () => {
  it("refuses a bad variable as the source does: one line, exit 1", () => {
    const env = { PORT: "abc" };
    const bundled = run([join(dir, "server.mjs")], env);
    const source = run(["--import", "tsx", "src/server.ts"], env);
    expect(bundled).toEqual({
      code: 1,
      stdout: "",
      stderr: 'Invalid configuration: PORT: must be a whole number, got "abc"\n',
    });
    expect(bundled).toEqual(source);
  });

  it("prints the CLI's usage as the source does", () => {
    const bundled = run([join(dir, "main.mjs"), "--help"], {});
    expect(bundled.code).toBe(0);
    expect(bundled.stdout).toContain("Usage");
    expect(bundled).toEqual(run(["--import", "tsx", "src/cli/main.ts", "--help"], {}));
  });

  it("keeps each source file's own import.meta.url, and runs other scripts through tsx", () => {
    const text = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    for (const file of ["src/db/client.ts", "src/http/static.ts", "src/shared/known-secrets.ts"]) {
      expect(text, file).toContain(JSON.stringify(pathToFileURL(join(ROOT, file)).href));
    }
    const saved = { bundle: process.env.SP_SERVICE_BUNDLE, off: process.env.TEST_SERVICE_BUNDLE };
    process.env.SP_SERVICE_BUNDLE = dir;
    delete process.env.TEST_SERVICE_BUNDLE;
    try {
      expect(nodeArgs("src/server.ts")).toEqual(["--liftoff-only", join(dir, "server.mjs")]);
      expect(nodeArgs("src/cli/main.ts", ["me"])).toEqual(["--liftoff-only", join(dir, "main.mjs"), "me"]);
      expect(nodeArgs("scripts/demo.ts", ["x"])).toEqual(["--import", "tsx", "scripts/demo.ts", "x"]);
    } finally {
      if (saved.bundle === undefined) delete process.env.SP_SERVICE_BUNDLE;
      else process.env.SP_SERVICE_BUNDLE = saved.bundle;
      if (saved.off !== undefined) process.env.TEST_SERVICE_BUNDLE = saved.off;
    }
  });
});
