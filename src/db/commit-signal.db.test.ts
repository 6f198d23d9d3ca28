/**
 * The in-process commit signal (db/commit-signal.ts): fired once after a transaction that recorded domain events
 * commits, never for one that rolled back or recorded nothing, whatever runs beside it.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, releaseTestDatabase, testEngine } from "../../test/db.js";
import { recordDomainEvent } from "../domain-events/domain-events.js";
import { type Database, rows, sql } from "./client.js";

let database: Database;
let fired = 0;
let stop: () => void;
beforeAll(async () => {
  database = await createTestDatabase();
  stop = database.onEventsCommitted(() => {
    fired++;
  });
});
afterAll(async () => {
  stop();
  await releaseTestDatabase(database);
});

const event = { type: "ladder.changed" as const, payload: { week: 1 } };
/** The signals fired by `work` (listeners run synchronously when the transaction's promise settles). */
async function signals(work: () => Promise<unknown>): Promise<number> {
  const before = fired;
  await work().catch(() => undefined);
  return fired - before;
}

it("fires once after a transaction that recorded events commits, when its events are readable", async () => {
  let visible: number | null = null;
  const stopCheck = database.onEventsCommitted(() => {
    void rows<{ n: number }>(database.db, sql`select count(*)::int as n from domain_events`).then((r) => {
      visible = r[0]!.n;
    });
  });
  const before = (
    await rows<{ n: number }>(database.db, sql`select count(*)::int as n from domain_events`)
  )[0]!.n;
  expect(
    await signals(() =>
      database.db.transaction(async (tx) => {
        await recordDomainEvent(tx, event);
        await recordDomainEvent(tx, event);
      }),
    ),
  ).toBe(1);
  stopCheck();
  await expect.poll(() => visible).toBe(before + 2);
});

it("fires nothing for a transaction that rolled back, or that recorded nothing", async () => {
  expect(
    await signals(() =>
      database.db.transaction(async (tx) => {
        await recordDomainEvent(tx, event);
        throw new Error("rolled back");
      }),
    ),
  ).toBe(0);
  expect(await signals(() => database.db.transaction(async (tx) => tx.execute(sql`select 1`)))).toBe(0);
});

it("fires once at the top-level commit for events recorded in a savepoint", async () => {
  expect(
    await signals(() =>
      database.db.transaction(async (tx) => {
        await tx.transaction(async (inner) => recordDomainEvent(inner, event));
      }),
    ),
  ).toBe(1);
});

it("fires nothing for events recorded outside a transaction", async () => {
  expect(await signals(() => recordDomainEvent(database.db as never, event))).toBe(0);
});

it.skipIf(testEngine !== "postgres")(
  "marks only its own transaction when another runs beside it (PostgreSQL: two connections)",
  async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let silentDone = false;
    const silent = database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await gate;
      })
      .then(() => {
        silentDone = true;
      });
    const before = fired;
    await database.db.transaction(async (tx) => recordDomainEvent(tx, event));
    expect(fired - before).toBe(1);
    release();
    await silent;
    expect(silentDone).toBe(true);
    expect(fired - before).toBe(1);
  },
);
