/**
 * Drill: heavy work never freezes reads. A real server on an embedded DATA_DIR, and beside it `npm run cli --
 * seed-demo` (which the CLI sends to that server: it holds the DATA_DIR), while /readyz is polled every 100 ms.
 * Promised: every /readyz answers 200 within 1 s while the seed runs (checked; a broken promise throws).
 */
import { rmSync } from "node:fs";
import { migratedDataDir } from "../db-template.js";
import { baseEnv, request, sleep, spawnTs, startServer, stopServer } from "./server-process.js";

export interface HeavyJobResult {
  seedMs: number;
  readyzPolls: number;
  slowestReadyzMs: number;
  over1s: number;
}

export async function seedBesideServerDrill(players = 300): Promise<HeavyJobResult> {
  const dir = migratedDataDir("sp-heavy-");
  const server = await startServer({ DATA_DIR: dir });
  try {
    const polls: number[] = [];
    const slowAt: number[] = [];
    let seeding = true;
    const seedStartedAt = performance.now();
    const poller = (async () => {
      while (seeding) {
        const startedAt = performance.now();
        const res = await request(server.base, "GET", "/readyz", { timeoutMs: 30_000 });
        const ms = res.status === 200 ? performance.now() - startedAt : Number.POSITIVE_INFINITY;
        polls.push(ms);
        if (ms > 500) slowAt.push(Math.round(startedAt - seedStartedAt));
        await sleep(100);
      }
    })();
    const seed = spawnTs(
      "src/cli/main.ts",
      ["seed-demo", "--players", String(players)],
      baseEnv({ DATA_DIR: dir }),
    );
    const { code } = await seed.exited;
    const seedMs = performance.now() - seedStartedAt;
    seeding = false;
    await poller;
    if (code !== 0) throw new Error(`drill broken: seed-demo exited ${code}:\n${seed.output().slice(-2000)}`);
    if (!seed.stderr().includes("sending the command to it")) {
      throw new Error(`drill broken: seed-demo did not run in the server:\n${seed.stderr()}`);
    }
    const slowest = Math.max(...polls);
    const over1s = polls.filter((ms) => ms > 1000).length;
    const result = {
      seedMs: Math.round(seedMs),
      readyzPolls: polls.length,
      slowestReadyzMs: Math.round(slowest),
      over1s,
    };
    if (process.env.DRILL_VERBOSE) {
      console.log({ slowAt, timings: JSON.parse(seed.stdout()).timingsMs });
    }
    if (over1s > 0)
      throw new Error(`drill broken: /readyz over 1 s during seed-demo: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
