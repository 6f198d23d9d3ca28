/**
 * A transaction that loses a deadlock (40P01) or a serialization failure (40001) is run again inside the service
 * (db/client.ts), so neither reaches a client. PostgreSQL only: the embedded engine has one connection and no
 * such races.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEngine } from "../../test/db.js";
import { type Database, pgErrorCode, rows, sql, TRANSACTION_ATTEMPTS } from "./client.js";

let database: Database;
beforeAll(async () => {
  if (testEngine === "postgres") database = await createTestDatabase();
});
afterAll(async () => database?.close());

/** Resolves when `n` callers have arrived. */
function barrier(n: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return async () => {
    if (++arrived === n) open();
    await opened;
  };
}

describe.skipIf(testEngine !== "postgres")("transactions that lose a race", () => {
  it("a deadlock between two transactions: the loser runs again, both commit", async () => {
    const db = database.db;
    await db.execute(sql`create table retry_drill (id int primary key, n int not null)`);
    await db.execute(sql`insert into retry_drill values (1, 0), (2, 0)`);
    const bothHoldOne = barrier(2);
    const attempts = { a: 0, b: 0 };
    // A locks row 1 then row 2, B row 2 then row 1: on their first attempt each holds one and waits for the other.
    const run = (name: "a" | "b", first: number, second: number) =>
      db.transaction(async (tx) => {
        attempts[name]++;
        await tx.execute(sql`update retry_drill set n = n + 1 where id = ${first}`);
        if (attempts[name] === 1) await bothHoldOne();
        await tx.execute(sql`update retry_drill set n = n + 1 where id = ${second}`);
      });
    await Promise.all([run("a", 1, 2), run("b", 2, 1)]);
    // One of them was chosen as the deadlock victim and ran twice; every committed run counted once per row.
    expect(attempts.a + attempts.b).toBe(3);
    const found = await rows<{ id: number; n: number }>(db, sql`select id, n from retry_drill order by id`);
    expect(found).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it("a serialization failure that keeps happening is given up after the bounded attempts", async () => {
    let attempts = 0;
    const err = await database.db
      .transaction(async (tx) => {
        attempts++;
        // 40001 raised by the server itself, as a serializable transaction's conflict is.
        await tx.execute(sql`do $$ begin raise exception 'conflict' using errcode = '40001'; end $$`);
      })
      .catch((e: unknown) => e);
    expect(pgErrorCode(err)).toBe("40001");
    expect(attempts).toBe(TRANSACTION_ATTEMPTS);
  });

  it("other errors are not retried", async () => {
    let attempts = 0;
    const err = await database.db
      .transaction(async (tx) => {
        attempts++;
        await tx.execute(sql`select 1 / 0`);
      })
      .catch((e: unknown) => e);
    expect(pgErrorCode(err)).toBe("22012");
    expect(attempts).toBe(1);
  });
});
