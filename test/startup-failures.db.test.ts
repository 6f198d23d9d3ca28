/**
 * Issues 21 and 25: a start that cannot succeed says so in one line naming the problem and the fix, exits 1, and
 * prints no stack trace. Real `src/server.ts` processes: a DATABASE_URL whose database does not exist, a
 * PostgreSQL that refuses connections, an unreachable Redis, a bad variable, a port in use. Before, the missing
 * database and the unreachable PostgreSQL printed a stack trace, and an unreachable Redis started anyway.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testEngine } from "./db.js";
import { baseEnv, killAll, spawnTs } from "./drills/server-process.js";
import { freePort } from "./free-port.js";

const dir = mkdtempSync(join(tmpdir(), "sp-startup-"));
afterAll(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the server with `env` and returns its exit code and its stderr's lines. */
async function failedStart(env: Record<string, string>) {
  const port = await freePort();
  const proc = spawnTs(
    "src/server.ts",
    [],
    baseEnv({ PORT: String(port), DATA_DIR: join(dir, String(port)), ...env }),
  );
  const { code } = await proc.exited;
  return { code, lines: proc.stderr().trimEnd().split("\n"), stdout: proc.stdout() };
}

function expectOneLine(r: Awaited<ReturnType<typeof failedStart>>, line: string | RegExp) {
  expect(r.code, r.lines.join("\n")).toBe(1);
  expect(r.lines, r.lines.join("\n")).toHaveLength(1);
  expect(r.lines[0]).toMatch(line);
  expect(r.lines[0]).not.toMatch(/\bat .+:\d+:\d+/);
}

describe.skipIf(testEngine !== "postgres")(
  "start-up failures of a PostgreSQL deployment",
  { timeout: 180_000 },
  () => {
    it("a database that does not exist: says to create it", async () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = "/sp_missing_database_21";
      const r = await failedStart({ DATABASE_URL: url.toString() });
      const host = `${url.hostname}:${url.port || 5432}`;
      expectOneLine(
        r,
        `Cannot start: database "sp_missing_database_21" does not exist on PostgreSQL ${host} (DATABASE_URL): create it (createdb -h ${url.hostname} -p ${url.port || 5432}${url.username ? ` -U ${url.username}` : ""} sp_missing_database_21) or point DATABASE_URL at an existing database`,
      );
    });

    it("a PostgreSQL that refuses connections: says to start it or fix the URL", async () => {
      const port = await freePort();
      const r = await failedStart({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/app` });
      expectOneLine(
        r,
        `Cannot start: PostgreSQL at 127.0.0.1:${port} is not reachable (ECONNREFUSED): start it, or fix the host and port in DATABASE_URL`,
      );
    });
  },
);

// Engine-independent: once, in the pglite project.
describe.skipIf(testEngine !== "pglite")("start-up failures", { timeout: 180_000 }, () => {
  it("an unreachable Redis: says to start it, fix REDIS_URL or unset it", async () => {
    const port = await freePort();
    const r = await failedStart({ REDIS_URL: `redis://127.0.0.1:${port}` });
    expectOneLine(
      r,
      `Cannot start: Redis at 127.0.0.1:${port} is not reachable (ECONNREFUSED): start it, fix REDIS_URL, or unset REDIS_URL to keep rate limits in this process's memory`,
    );
  });

  it("a bad variable: names it and what it must be", async () => {
    const r = await failedStart({ SHUTDOWN_TIMEOUT_MS: "ten seconds" });
    expectOneLine(r, 'Invalid configuration: SHUTDOWN_TIMEOUT_MS: must be a whole number, got "ten seconds"');
  });

  it("a port in use: names it", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((r) => taken.once("listening", r));
    const port = (taken.address() as { port: number }).port;
    try {
      const proc = spawnTs(
        "src/server.ts",
        [],
        baseEnv({ PORT: String(port), DATA_DIR: join(dir, "in-use") }),
      );
      const { code } = await proc.exited;
      const lines = proc.stderr().trimEnd().split("\n");
      expectOneLine(
        { code, lines, stdout: proc.stdout() },
        `Cannot start: port ${port} on 127.0.0.1 is already in use: stop the process holding it or set PORT to a free port`,
      );
    } finally {
      taken.close();
    }
  });
});
