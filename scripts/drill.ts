/**
 * `npm run drill`: the reliability drills (test/drills/) against real server processes on both engines — the
 * embedded one in a temporary DATA_DIR, PostgreSQL on a private cluster this script starts with initdb/pg_ctl on a
 * free port (never the machine's shared server) — then a table: drill, engine, what is promised, result. Exits 1
 * when a promise broke. docs/reliability.md keeps the table of the last run.
 *
 *   npm run drill               every drill (several minutes)
 *   npm run drill -- --ci       the ones CI runs after the tests: kill -9 under load on both engines (the others
 *                               are also vitest tests, or too long for CI)
 *   npm run drill -- --only fuzz,kill   drills whose name contains one of these words
 */
import { databaseFaultDrill } from "../test/drills/database-faults.js";
import { type Engine, stopDrillClusters } from "../test/drills/engines.js";
import { fuzzDrill } from "../test/drills/fuzz-drill.js";
import { seedBesideServerDrill } from "../test/drills/heavy-jobs.js";
import { lockDeletionDrill, signalUnderLoadDrill } from "../test/drills/process-drills.js";
import { killAll } from "../test/drills/server-process.js";

interface Drill {
  name: string;
  engine: Engine;
  promise: string;
  ci: boolean;
  run(): Promise<string>;
}

const ENGINES: Engine[] = ["pglite", "postgres"];

const drills: Drill[] = [
  {
    name: "PostgreSQL restart, reset, outage",
    engine: "postgres",
    promise:
      "process stays up; 503 + retry-after meanwhile; /readyz 200 ≤ 10 s after; 0 acknowledged writes lost",
    ci: false,
    async run() {
      const results = await databaseFaultDrill(["restart", "reset", "outage"]);
      return results
        .map(
          (r) =>
            `${r.fault}: ${r.acknowledged} acked, ${r.refused503}×503, ready ${r.readyAfterMs} ms after, ${r.lost} lost`,
        )
        .join("; ");
    },
  },
  {
    name: "lock file deleted, second server",
    engine: "pglite",
    promise: "second server refused (exit 1, one line); 0 acknowledged writes lost",
    ci: false,
    async run() {
      const r = await lockDeletionDrill();
      return `refused; ${r.acknowledged} acked, ${r.lost} lost`;
    },
  },
  ...ENGINES.flatMap((engine): Drill[] => [
    {
      name: "SIGTERM under load",
      engine,
      promise: "exit 0 within SHUTDOWN_TIMEOUT_MS (3 s) + 2 s; 0 acknowledged writes lost",
      // Bounded shutdown is also a test (test/shutdown-budget.db.test.ts).
      ci: false,
      async run() {
        const r = await signalUnderLoadDrill(engine, "SIGTERM");
        return `exit after ${r.exitMs} ms; ${r.acknowledged} acked, ${r.lost} lost; answers ${JSON.stringify(r.answers)}`;
      },
    },
    {
      name: "kill -9 under load",
      engine,
      promise: "0 acknowledged writes lost (counted after a restart)",
      ci: true,
      async run() {
        const r = await signalUnderLoadDrill(engine, "SIGKILL");
        return `${r.acknowledged} acked, ${r.lost} lost`;
      },
    },
    {
      name: "schema fuzz of every operation",
      engine,
      promise: "0 5xx; every 4xx in the envelope",
      ci: false,
      async run() {
        const r = await fuzzDrill(engine);
        return `${r.requests} requests over ${r.operations} operations in ${(r.ms / 1000).toFixed(1)} s: ${r.fiveXx} 5xx, ${r.notEnvelope} outside the envelope`;
      },
    },
  ]),
  {
    name: "seed-demo beside a running server",
    engine: "pglite",
    promise: "/readyz answers within 1 s throughout",
    ci: false,
    async run() {
      const r = await seedBesideServerDrill();
      return `seed ${(r.seedMs / 1000).toFixed(1)} s; ${r.readyzPolls} polls, slowest ${r.slowestReadyzMs} ms`;
    },
  },
];

function selected(args: string[]): Drill[] {
  if (args.includes("--ci")) return drills.filter((d) => d.ci);
  const only = args[args.indexOf("--only") + 1];
  if (args.includes("--only") && only) {
    const words = only.split(",").map((w) => w.toLowerCase());
    return drills.filter((d) => words.some((w) => `${d.name} ${d.engine}`.toLowerCase().includes(w)));
  }
  return drills;
}

async function main(): Promise<number> {
  const rows: Array<{ drill: Drill; ok: boolean; result: string; ms: number }> = [];
  for (const drill of selected(process.argv.slice(2))) {
    const startedAt = performance.now();
    process.stderr.write(`drill: ${drill.name} (${drill.engine}) …\n`);
    let ok = true;
    let result: string;
    try {
      result = await drill.run();
    } catch (err) {
      ok = false;
      result = (err as Error).message.split("\n").slice(0, 3).join(" ");
    }
    const ms = performance.now() - startedAt;
    process.stderr.write(`drill: ${ok ? "passed" : "FAILED"} in ${(ms / 1000).toFixed(1)} s: ${result}\n`);
    rows.push({ drill, ok, result, ms });
  }
  killAll();
  stopDrillClusters();
  const cell = (s: string) => s.replaceAll("|", "\\|");
  const lines = [
    "| drill | engine | promised | result | time |",
    "|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.drill.name} | ${r.drill.engine} | ${cell(r.drill.promise)} | ${r.ok ? "passed" : "**FAILED**"}: ${cell(r.result)} | ${(r.ms / 1000).toFixed(0)} s |`,
    ),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  const failed = rows.filter((r) => !r.ok).length;
  process.stdout.write(`drills: ${rows.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main().catch((err) => {
  killAll();
  stopDrillClusters();
  console.error(err);
  return 1;
});
