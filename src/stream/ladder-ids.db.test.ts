/**
 * A client's stream ids never go back: a client reconnecting to an instance behind the one it left is not sent a
 * `ladder` message with an id below what it already has (its Last-Event-ID would go back, and its next reconnect
 * replay what it had). Two hubs on one database, their readers woken by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.js";
import { type NewDomainEvent, recordDomainEvents } from "../domain-events/domain-events.js";
import { type StreamClient, StreamHub } from "./stream-hub.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({});
});
afterAll(async () => t?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A client that keeps `event#id` of each message it is sent. */
function recorder(): { got: string[]; client: StreamClient } {
  const got: string[] = [];
  return {
    got,
    client: {
      userId: null,
      write(chunk) {
        for (const block of chunk.split("\n\n")) {
          const event = /^event: (\S+)$/m.exec(block)?.[1];
          if (event) got.push(`${event}#${/^id: (\S+)$/m.exec(block)?.[1]}`);
        }
      },
      backlogBytes: () => 0,
      end() {},
      drop() {},
    },
  };
}

describe("stream ids across instances", () => {
  it("never sends a reconnecting client a ladder id below the one it came back with", async () => {
    const hub = () =>
      new StreamHub({
        db: t.database.db,
        listen: async () => async () => {},
        maxClients: 100,
        pingMs: 600_000,
        pollMs: 600_000,
        log: { warn() {}, error() {} } as never,
      });
    const a = hub();
    const b = hub();
    try {
      const onA = recorder();
      const leaveA = await a.connect(onA.client, null);
      await b.connect(recorder().client, null);
      const record = (type: NewDomainEvent["type"], payload: Record<string, unknown>) =>
        t.database.db.transaction((tx) => recordDomainEvents(tx, [{ type, payload }]));
      await record("event.odds_changed", { eventId: "e1", markets: [] });
      await record("ladder.changed", { week: 2 });
      await record("event.odds_changed", { eventId: "e1", markets: [] });
      a.wake(); // A reads all three; B has not read yet
      await sleep(300);
      const ids = onA.got.map((g) => Number(g.split("#")[1]));
      const last = String(Math.max(...ids));
      leaveA();
      // Back on B, behind: B's reader then reads the three, the ladder among them.
      const onB = recorder();
      await b.connect(onB.client, last);
      b.wake();
      await sleep(1500); // past the ladder's 1 s interval
      // Before: ["ladder#<the ladder's id, below last>", …]: the client's Last-Event-ID went back.
      for (const g of onB.got) expect(Number(g.split("#")[1])).toBeGreaterThan(Number(last));
      // What comes next reaches it.
      await record("event.odds_changed", { eventId: "e2", markets: [] });
      b.wake();
      await sleep(300);
      expect(onB.got.at(-1)).toMatch(/^odds#\d+$/);
      expect(Number(onB.got.at(-1)!.split("#")[1])).toBeGreaterThan(Number(last));
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
