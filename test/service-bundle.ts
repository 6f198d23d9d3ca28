/**
 * The service's entry points (`src/server.ts`, `src/cli/main.ts`) bundled once per test run, for the tests that
 * start them as processes. `node --import tsx src/server.ts` spends ≈ 1.1 s of CPU in tsx's loader before the
 * service runs a line (every module, the libraries' too, is resolved and loaded through its hooks); a run starts
 * such processes dozens of times. The bundle is the same sources, built with the esbuild tsx itself uses:
 *
 * - the project's own TypeScript (and the workspace SDK's) is bundled; every library stays an import, resolved from
 *   node_modules as in a normal start;
 * - `import.meta.url` in each source file keeps that file's own URL (the migrations, web/dist and the secrets list
 *   are found beside the sources), and `process.argv[1]` names the source entry, so the bundle is what
 *   `node --import tsx <entry>` would run;
 * - the CLI's lazy imports stay lazy (chunks), as its start-up time depends on it (docs/performance.md, session 5).
 *
 * `test/global-setup.ts` builds it into a directory of its own for the run and names it in SP_SERVICE_BUNDLE, which
 * the test workers inherit; `nodeArgs` falls back to tsx for any other script, outside a test run (`npm run drill`)
 * and with TEST_SERVICE_BUNDLE=off.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const cacheDir = join(ROOT, "node_modules/.cache/sp-service-bundle");

/** Each bundled entry (relative to the project's root) and its output file in the bundle directory. */
const ENTRIES: Record<string, string> = { "src/server.ts": "server.mjs", "src/cli/main.ts": "main.mjs" };

export const BUNDLE_ENV = "SP_SERVICE_BUNDLE";

/** The project's own sources and the workspace SDK's: bundled, each keeping its own `import.meta.url`. */
const ownSources: Plugin = {
  name: "own-sources",
  setup(b) {
    // A bare specifier is a library, left to Node's resolution at run time; the workspace SDK is source here.
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@sp/") ? undefined : { path: args.path, external: true },
    );
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8").replaceAll(
        "import.meta.url",
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: "ts",
    }));
  },
};

/** Sets `process.argv[1]` to the source of the entry file it heads (a no-op in a shared chunk). */
function argvBanner(): string {
  const sources = Object.fromEntries(Object.entries(ENTRIES).map(([src, out]) => [out, join(ROOT, src)]));
  return `{const s=${JSON.stringify(sources)}[import.meta.url.slice(import.meta.url.lastIndexOf("/")+1)];if(s)process.argv[1]=s;}`;
}

/** Builds the bundle into a new directory and returns it (≈ 0.2 s). */
export async function buildServiceBundle(): Promise<string> {
  mkdirSync(cacheDir, { recursive: true });
  removeStaleBundles();
  const outdir = mkdtempSync(join(cacheDir, "run-"));
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([src, out]) => [out.replace(/\.mjs$/, ""), src]),
    ),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    plugins: [ownSources],
    // Each entry runs as its source would: `process.argv[1]` names the source (server.ts starts only as the entry).
    banner: { js: argvBanner() },
  });
  return outdir;
}

export function removeServiceBundle(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Bundles of runs that ended without their teardown (a killed run), a day old or more. */
function removeStaleBundles(): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const entry of readdirSync(cacheDir)) {
    const dir = join(cacheDir, entry);
    if (entry.startsWith("run-") && statSync(dir).mtimeMs < dayAgo) removeServiceBundle(dir);
  }
}

/**
 * Node flags of the test workers and of the processes a test run starts: V8 compiles WebAssembly with its baseline
 * compiler only. PGlite's Postgres is one large module; by default V8 also recompiles its hot functions with its
 * optimizing compiler on background threads, which costs a short-lived database (a test file's, a test server's)
 * more CPU than it saves: a new PGlite 4.6–5.1 → 2.5–2.9 s of CPU, the embedded project's test files 350 → 309
 * CPU-s (docs/performance.md, session 18). Its queries run 10–15 % slower, so the service itself, and the bench,
 * keep V8's defaults.
 */
export const TEST_NODE_FLAGS = ["--liftoff-only"] as const;

/**
 * Node's arguments to run `script` (relative to the project's root) with `args`: its bundle when this test run
 * built one (with TEST_NODE_FLAGS), else through tsx.
 */
export function nodeArgs(script: string, args: string[] = []): string[] {
  const dir = process.env[BUNDLE_ENV];
  const out = ENTRIES[script];
  if (!dir || !out || process.env.TEST_SERVICE_BUNDLE === "off") return ["--import", "tsx", script, ...args];
  return [...TEST_NODE_FLAGS, join(dir, out), ...args];
}
