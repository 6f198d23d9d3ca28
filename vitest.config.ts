import { defineConfig } from "vitest/config";

/**
 * Three projects: pure unit tests (the server's and the web app's), then every storage test (`*.db.test.ts`) on embedded PGlite and, when
 * DATABASE_URL is set, again on that PostgreSQL server (a fresh database per test file).
 */
const storage = ["src/**/*.db.test.ts", "test/**/*.db.test.ts"];
const common = { testTimeout: 60_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...common,
          name: "unit",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "web/src/**/*.test.ts"],
          exclude: storage,
        },
      },
      { test: { ...common, name: "pglite", include: storage, env: { TEST_DB: "pglite" } } },
      ...(process.env.DATABASE_URL
        ? [{ test: { ...common, name: "postgres", include: storage, env: { TEST_DB: "postgres" } } }]
        : []),
    ],
  },
});
