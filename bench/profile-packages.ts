/**
 * `npx tsx bench/profile-packages.ts DIR [--top N]`: the self time of every V8 CPU profile under DIR (for a test
 * run: `node --cpu-prof --cpu-prof-dir=DIR node_modules/vitest/vitest.mjs run`, whose workers inherit the flag),
 * summed by where the code comes from — an npm package, the project's src/ or test/, Node's internals, garbage
 * collection, WebAssembly (PGlite) — and the N functions with the most self time. Idle samples are left out.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type CpuProfile, label, type ProfileNode } from "./flamegraph.js";

/** Where a frame's code comes from. */
export function originOf(frame: ProfileNode["callFrame"]): string {
  const { url, functionName } = frame;
  if (functionName.startsWith("(")) return functionName;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (/\/src\/|sp-service-bundle/.test(url)) return "src";
  if (/\/test\//.test(url)) return "test";
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  if (functionName.startsWith("wasm-function")) return "WebAssembly";
  return url === "" ? "(native)" : "other";
}

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { top: { type: "string", default: "25" } },
  });
  const dir = positionals[0];
  if (!dir) throw new Error("usage: npx tsx bench/profile-packages.ts DIR [--top N]");
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, us: number) => m.set(k, (m.get(k) ?? 0) + us);
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(".cpuprofile"),
  );
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id)!;
      if (node.callFrame.functionName === "(idle)") return;
      const us = profile.timeDeltas[i] ?? 0;
      const origin = originOf(node.callFrame);
      add(byOrigin, origin, us);
      add(byFunction, `${origin}  ${label(node)}`, us);
    });
  }
  const total = [...byOrigin.values()].reduce((a, b) => a + b, 0);
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `| ${k} | ${(us / 1e6).toFixed(1)} | ${((100 * us) / total).toFixed(1)} % |`);
  console.log(`${files.length} profiles, ${(total / 1e6).toFixed(1)} s of samples (idle left out)\n`);
  console.log(["| origin | s | share |", "|---|---:|---:|", ...rows(byOrigin, 30)].join("\n"));
  console.log(
    ["\n| function | s | share |", "|---|---:|---:|", ...rows(byFunction, Number(values.top))].join("\n"),
  );
}

main();
