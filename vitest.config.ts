import { defineConfig } from "vitest/config";
import { TEST_NODE_FLAGS } from "./test/service-bundle.js";
import { SlowFirstSequencer } from "./test/slow-first-sequencer.js";

/**
 * Projects: pure unit tests (the server's and the web app's), then every storage test (`*.db.test.ts`) on
 * embedded PGlite and, when DATABASE_URL is set, again on that PostgreSQL server (a fresh database per test file). The competition's read tests run
 * once more per engine with the rank cache off (RANK_CACHE=off: every rank from SQL), so both read paths give
 * the same answers to the same tests.
 */
const storage = ["src/**/*.db.test.ts", "test/**/*.db.test.ts"];
/** The tests that read ladders, ranks and eligibility through the API (the others never touch the rank cache). */
const competitionReads = [
  "src/competition/leaderboard.db.test.ts",
  "src/competition/me-and-pool.db.test.ts",
  "src/competition/finalize.db.test.ts",
  "src/competition/routes.db.test.ts",
  "src/profile/profile-stats.db.test.ts",
];
/**
 * `isolate: false`: a worker keeps its imported modules from one test file to the next (of the same project: each
 * project has its own workers and environment). Every file imported the app again (fastify, viem, drizzle, PGlite):
 * 199 s of the suite's import time, 38 s after (docs/decisions.md "Test files in parallel"). What the server keeps in
 * module state is memos of pure functions; no test mocks modules or changes process.env.
 */
const common = {
  testTimeout: 60_000,
  hookTimeout: 120_000,
  isolate: false,
  execArgv: [...TEST_NODE_FLAGS],
};
const engines = process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * Test files at once. Vitest's default on this 2-core machine is one (cores − 1), so the suite ran serially while
 * most files wait on something outside their worker (PostgreSQL, a spawned server, Chromium, a timer). Measured in
 * docs/decisions.md ("Test files in parallel").
 */
const maxWorkers = Number(process.env.TEST_WORKERS ?? 3);

export default defineConfig({
  test: {
    maxWorkers,
    sequence: { sequencer: SlowFirstSequencer },
    // The migrated template databases every storage test file clones (test/db-template.ts).
    globalSetup: ["test/global-setup.ts"],
    projects: [
      {
        test: {
          ...common,
          name: "unit",
          include: [
            "src/**/*.test.ts",
            "test/**/*.test.ts",
            "web/src/**/*.test.ts",
            "contracts/**/*.test.ts",
          ],
          exclude: storage,
        },
      },
      ...engines.map((engine) => ({
        test: { ...common, name: engine, include: storage, env: { TEST_DB: engine } },
      })),
      ...engines.map((engine) => ({
        test: {
          ...common,
          name: `${engine} RANK_CACHE=off`,
          include: competitionReads,
          env: { TEST_DB: engine, TEST_RANK_CACHE: "off" },
        },
      })),
    ],
  },
});
