/**
 * Issue 21, heavy jobs never freeze reads: `npm run cli -- seed-demo` beside a running embedded-engine server
 * (the CLI sends it to the server, which holds the DATA_DIR) while /readyz is polled every 100 ms: every poll
 * answers within 1 s. Before, the seed's large transactions held the embedded database's one connection and the
 * demo wallets' key derivation held the event loop: /readyz stalled for 18.7 s. A smaller seed than the default
 * (30 players) keeps the test short; `npm run drill` runs the default 300.
 */
import { afterAll, describe, expect, it } from "vitest";
import { testEngine } from "./db.js";
import { seedBesideServerDrill } from "./drills/heavy-jobs.js";
import { killAll } from "./drills/server-process.js";

afterAll(killAll);

describe.skipIf(testEngine !== "pglite")("seed-demo beside a running server", () => {
  it("keeps /readyz answering within 1 s throughout", async () => {
    const r = await seedBesideServerDrill(30);
    console.log(`seed-demo beside the server: ${JSON.stringify(r)}`);
    expect(r.over1s).toBe(0);
    expect(r.readyzPolls).toBeGreaterThan(10);
  }, 300_000);
});
