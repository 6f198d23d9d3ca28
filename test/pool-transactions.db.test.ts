/**
 * A transaction gives its pooled connection back on every path, and never gives back a broken one
 * (src/db/pool-transactions.ts). Replays the two faults of drizzle-orm's node-postgres `transaction()` on the real
 * pool: a BEGIN that fails (here: the server stalls, the client's query_timeout fires) left the client checked out
 * for ever, so after as many such failures as the pool has connections every query failed with "timeout exceeded
 * when trying to connect" (the database fault drill's wedged /readyz); a transaction whose connection died silently
 * gave that connection back to the pool, and the next query waited on it until its own timeout.
 */
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, sql } from "../src/db/client.js";
import { createScratchPostgres, testEngine } from "./db.js";
import { proxyTo } from "./tcp-proxy.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** A database of `poolSize` connections reached through a proxy; statements time out at 300 ms (+500 client). */
async function proxiedDatabase(poolSize: number) {
  const scratch = await createScratchPostgres({ fromTemplate: true });
  cleanups.push(scratch.drop);
  const { proxy, url } = await proxyTo(scratch.url, 5432);
  cleanups.push(() => proxy.close());
  const database = await openDatabase({
    databaseUrl: url,
    dataDir: null,
    poolSize,
    statementTimeoutMs: 300,
    connectTimeoutMs: 1000,
  });
  cleanups.push(() => database.close());
  return { database, proxy };
}

/** What a promise settled to: "ok" or the error's message (with its cause's). */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return `${e.message.split("\n")[0]}${e.cause ? ` (${e.cause.message})` : ""}`;
  }
}

describe.skipIf(testEngine !== "postgres")("transactions on the PostgreSQL pool", () => {
  it("give the connection back when BEGIN fails, so the pool still serves once the server answers", async () => {
    const { database, proxy } = await proxiedDatabase(2);
    const { db } = database;
    const one = () => db.transaction((tx) => tx.execute(sql`select 1`));
    // Both connections open and idle.
    expect(await Promise.all([outcome(one()), outcome(one())])).toEqual(["ok", "ok"]);

    proxy.stall();
    const failed = await Promise.all([outcome(one()), outcome(one())]);
    for (const f of failed) expect(f).toContain("Query read timeout");
    proxy.resume();

    // Before the fix both connections stayed checked out: "timeout exceeded when trying to connect", for ever.
    expect(await outcome(one())).toBe("ok");
    expect(await outcome(db.execute(sql`select 1`))).toBe("ok");
    expect(await Promise.all([outcome(one()), outcome(one())])).toEqual(["ok", "ok"]);
  });

  it("close a connection that died during the transaction instead of giving it to the next query", async () => {
    const { database, proxy } = await proxiedDatabase(1);
    const { db } = database;
    const result = outcome(
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        proxy.dropSilently();
        await tx.execute(sql`select 2`);
      }),
    );
    expect(await result).toContain("Query read timeout");

    // Before the fix the dead connection went back to the pool, and this query waited on it until its own timeout.
    expect(await outcome(db.execute(sql`select 1`))).toBe("ok");
  });
});
