/**
 * `npx tsx bench/suite-cpu.ts -- COMMAND [ARGS…]` (e.g. `-- npx vitest run`): runs COMMAND and, every 0.5 s until
 * it exits, reads the CPU time of every process on the machine from /proc; then prints the CPU seconds used
 * meanwhile by each kind of process (vitest workers, service and CLI processes, Chromium, PostgreSQL, …) and the
 * wall time. A process that lives less than one interval may be missed or counted without its name.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { processCpuTicks } from "./cpu.js";

const TICKS_PER_SECOND = 100;
const INTERVAL_MS = 500;

/** The kind of a process, by its command line. */
export function kindOf(cmd: string): string {
  const kinds: Array<[RegExp, string]> = [
    [/chrom/, "chromium"],
    [/^postgres/, "postgresql backends"],
    [/server\.mjs|src\/server\.ts/, "service processes"],
    [/main\.mjs|cli\/main\.ts/, "CLI processes"],
    [/vitest.*(worker|forks|threads)/, "vitest workers"],
    [/vitest/, "vitest main"],
    [/\bnpm\b/, "npm"],
    [/redis-server/, "redis"],
    [/beam\.smp|nats-server|mosquitto|mariadbd|process_api/, "the machine's other services"],
    [/node/, `other node: ${cmd.slice(0, 50)}`],
  ];
  for (const [pattern, kind] of kinds) if (pattern.test(cmd)) return kind;
  return cmd === "" ? "exited before it was named" : `other: ${cmd.slice(0, 40)}`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2).filter((a, i) => !(i === 0 && a === "--"));
  if (argv.length === 0) throw new Error("usage: npx tsx bench/suite-cpu.ts -- COMMAND [ARGS…]");
  const seen = new Map<string, { ticks: number; kind: string }>();
  const perKind = new Map<string, number>();
  const sample = (counting: boolean) => {
    for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      const ticks = processCpuTicks(pid);
      if (ticks === null) continue;
      let known = seen.get(pid);
      if (!known) {
        let cmd = "";
        try {
          cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
        } catch {}
        // Processes already running when the command starts count from now, new ones from their start.
        known = { ticks: counting ? 0 : ticks, kind: kindOf(cmd) };
        seen.set(pid, known);
      }
      perKind.set(known.kind, (perKind.get(known.kind) ?? 0) + (ticks - known.ticks));
      known.ticks = ticks;
    }
  };
  sample(false);
  perKind.clear();
  const started = performance.now();
  const child = spawn(argv[0]!, argv.slice(1), { stdio: "inherit" });
  const timer = setInterval(() => sample(true), INTERVAL_MS);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(timer);
  sample(true);
  const wall = (performance.now() - started) / 1000;
  const total = [...perKind.values()].reduce((a, b) => a + b, 0) / TICKS_PER_SECOND;
  console.log(
    `\nwall ${wall.toFixed(1)} s, CPU ${total.toFixed(1)} s (exit ${code})\n\n| process | CPU s |\n|---|---:|`,
  );
  for (const [kind, ticks] of [...perKind].sort((a, b) => b[1] - a[1])) {
    if (ticks >= TICKS_PER_SECOND / 2) console.log(`| ${kind} | ${(ticks / TICKS_PER_SECOND).toFixed(1)} |`);
  }
  process.exitCode = code ?? 1;
}

await main();
