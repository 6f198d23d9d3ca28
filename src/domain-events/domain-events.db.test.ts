/**
 * The domain-event outbox (issue 23) on the engine under test: events exist exactly when their transaction
 * committed, a consumer reads them in one total order without skipping a transaction that commits a smaller id
 * later (PostgreSQL: two connections interleaved), and a stored consumer cursor is held by one instance at a time.
 */
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createScratchPostgres, createTestDatabase, releaseTestDatabase, testEngine } from "../../test/db.js";
import { type Database, openDatabase } from "../db/client.js";
import {
  headPosition,
  positionOf,
  readDomainEvents,
  recordDomainEvent,
  recordDomainEvents,
  withConsumerCursor,
} from "./domain-events.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function database(): Promise<Database> {
  const d = await createTestDatabase();
  open.push({ close: () => releaseTestDatabase(d) });
  return d;
}

const settled = (eventId: string) => ({
  type: "event.settled" as const,
  payload: { eventId, status: "finished", winningOutcome: "home", settledAt: "2026-11-20T12:00:00.000Z" },
});

describe("domain events", () => {
  it("records events only with their committed transaction, and reads them in order with their payloads", async () => {
    const d = await database();
    await d.db.transaction(async (tx) => {
      await recordDomainEvent(tx, settled("e1"));
      await recordDomainEvents(tx, [
        {
          type: "prediction.settled",
          payload: { predictionId: "7", status: "won", payout: 215 },
          userId: 42n,
        },
        {
          type: "prediction.settled",
          payload: { predictionId: "8", status: "lost", payout: 0 },
          userId: "43",
        },
      ]);
    });
    await expect(
      d.db.transaction(async (tx) => {
        await recordDomainEvent(tx, settled("rolled-back"));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");

    const { events, next } = await readDomainEvents(d.db, { after: null, limit: 10 });
    expect(events.map((e) => [e.type, e.payload, e.userId])).toEqual([
      ["event.settled", settled("e1").payload, null],
      ["prediction.settled", { predictionId: "7", status: "won", payout: 215 }, "42"],
      ["prediction.settled", { predictionId: "8", status: "lost", payout: 0 }, "43"],
    ]);
    expect(next).toEqual(events[2]!.position);
    // From the last position: nothing new; from the first: the other two; a page of one.
    expect(await readDomainEvents(d.db, { after: next, limit: 10 })).toMatchObject({
      events: [],
      held: false,
    });
    const rest = await readDomainEvents(d.db, { after: events[0]!.position, limit: 1 });
    expect(rest.events.map((e) => e.id)).toEqual([events[1]!.id]);
    expect(await headPosition(d.db)).toEqual(events[2]!.position);
    expect(await positionOf(d.db, events[1]!.id)).toEqual(events[1]!.position);
    expect(await positionOf(d.db, "999999")).toBeNull();
    expect(await positionOf(d.db, "1; drop table users")).toBeNull();
  });

  it("holds a consumer cursor for one instance at a time and saves it with the consumer's work", async () => {
    const d = await database();
    await d.db.transaction((tx) => recordDomainEvents(tx, [settled("a"), settled("b"), settled("c")]));
    const seen: string[] = [];
    const take = (limit: number) =>
      withConsumerCursor(d.db, "test-consumer", async (tx, after) => {
        const { events, next } = await readDomainEvents(tx, { after, limit });
        seen.push(...events.map((e) => String(e.payload.eventId)));
        return { next: next ?? after, result: events.length };
      });
    expect(await take(2)).toBe(2);
    expect(await take(2)).toBe(1);
    expect(await take(2)).toBe(0);
    expect(seen).toEqual(["a", "b", "c"]);
    // A consumer whose work fails keeps its position: the events come again.
    await d.db.transaction((tx) => recordDomainEvent(tx, settled("d")));
    await expect(
      withConsumerCursor(d.db, "test-consumer", async () => {
        throw new Error("receiver down");
      }),
    ).rejects.toThrow("receiver down");
    expect(await take(5)).toBe(1);
    expect(seen.at(-1)).toBe("d");
  });

  it.runIf(testEngine === "postgres")(
    "never skips a transaction that commits a smaller id after a larger one was read",
    async () => {
      const scratch = await createScratchPostgres();
      open.push({ close: () => scratch.drop() });
      const d = await openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 3 });
      open.push(d);
      const early = new pg.Client({ connectionString: scratch.url });
      const late = new pg.Client({ connectionString: scratch.url });
      await early.connect();
      await late.connect();
      open.push({ close: () => early.end() }, { close: () => late.end() });
      // `early` takes id 1 and keeps its transaction open; `late` takes id 2 and commits first.
      await early.query("begin");
      await early.query(
        `insert into domain_events (type, payload) values ('event.settled', '{"eventId":"early"}')`,
      );
      await late.query(
        `insert into domain_events (type, payload) values ('event.settled', '{"eventId":"late"}')`,
      );
      // While `early` runs, a reader sees neither: id 2's transaction is newer than the oldest one running.
      const first = await readDomainEvents(d.db, { after: null, limit: 10 });
      expect(first.events).toEqual([]);
      // …and says that a committed event (id 2) waits behind the watermark.
      expect(first.held).toBe(true);
      await early.query("commit");
      const second = await readDomainEvents(d.db, { after: first.next, limit: 10 });
      expect(second.events.map((e) => [e.id, e.payload.eventId])).toEqual([
        ["1", "early"],
        ["2", "late"],
      ]);
    },
  );

  it.runIf(testEngine === "postgres")(
    "is not held back by a transaction of another database on the same server",
    async () => {
      const d = await database();
      // A transaction with an id, open in another database of the server (another test file, another service).
      const elsewhere = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await elsewhere.connect();
      open.push({ close: () => elsewhere.end() });
      await elsewhere.query("begin");
      await elsewhere.query("select pg_current_xact_id()");
      await d.db.transaction((tx) => recordDomainEvent(tx, settled("here")));
      // Before: the watermark was the server-wide oldest transaction, so nothing was readable until it ended.
      // Other test files' short transactions on the server may hold the read back for a moment (a transaction that
      // ends before the watermark places it counts as this database's: the mark errs low); `elsewhere` stays open
      // throughout, so the old watermark never lets the event through.
      const read = await vi.waitFor(
        async () => {
          const r = await readDomainEvents(d.db, { after: null, limit: 10 });
          expect(r.events.map((e) => e.payload.eventId)).toEqual(["here"]);
          return r;
        },
        { timeout: 2000, interval: 50 },
      );
      expect(read.held).toBe(false);
      expect(await headPosition(d.db)).toEqual(read.events[0]!.position);
      await elsewhere.query("rollback");
    },
  );
});
