/**
 * Issue 21, "survive the database": a real server process on a private PostgreSQL cluster under a steady write
 * load, through a restart (`pg_ctl restart -m fast`), a connection reset (TCP RST) and a 2 s outage, one after the
 * other. On the code before the fix each of them killed the process with an unhandled 'error' of a pool client
 * (57P01 or ECONNRESET). The drill checks every promise (test/drills/database-faults.ts); its figures are bounded
 * again here. Runs once, in the postgres project (the cluster is private, not the project's DATABASE_URL).
 */
import { afterAll, describe, expect, it } from "vitest";
import { testEngine } from "./db.js";
import { databaseFaultDrill } from "./drills/database-faults.js";
import { killAll } from "./drills/server-process.js";

afterAll(killAll);

describe.skipIf(testEngine !== "postgres")("the service survives its database", { timeout: 240_000 }, () => {
  it("restart, reset, outage under load: stays up, 503 meanwhile, ready within 10 s, no acknowledged write lost", async () => {
    const results = await databaseFaultDrill(["restart", "reset", "outage"]);
    for (const r of results) console.log(`database ${r.fault}: ${JSON.stringify(r)}`);
    expect(results.map((r) => r.fault)).toEqual(["restart", "reset", "outage"]);
    for (const r of results) {
      expect(r.lost).toBe(0);
      expect(r.acknowledged).toBeGreaterThan(0);
      expect(r.readyAfterMs).toBeLessThanOrEqual(10_000);
    }
    const outage = results[2]!;
    expect(outage.readyz503WhileDown).toBeGreaterThan(0);
    expect(outage.refused503).toBeGreaterThan(0);
  });
});
