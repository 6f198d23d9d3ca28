/**
 * The fan-out's shortcut when there is no subscription (the cursor passes every event in one statement) against a
 * partner subscribing at that moment: an event recorded after the subscription is delivered to it, whenever the
 * subscription lands between the fan-out's check and its skip. PostgreSQL only: the embedded database runs one
 * transaction at a time, so there nothing can land in between.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, type TestApp } from "../../test/app.js";
import { testEngine } from "../../test/db.js";
import { putEvent } from "../../test/player-api.js";
import { withStatementHook } from "../../test/statement-hook.js";
import { rows, sql } from "../db/client.js";
import { fanOutDomainEvents } from "./fan-out.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: new Date("2026-11-20T00:00:00.000Z") });
});
afterAll(async () => t?.close());

describe("webhook fan-out with no subscription yet", () => {
  it.runIf(testEngine === "postgres")(
    "delivers an event recorded after a subscription that landed between the check and the skip",
    async () => {
      await putEvent(t, "race-hook");
      // Nobody subscribed: the events so far are passed.
      await fanOutDomainEvents(t.database.db);

      // Right before the skip statement (the check has just found no subscription): a partner subscribes, then
      // the event is settled. Before: both committed at once, the skip passed the settle's event, and no message
      // was ever made for it.
      let settled: Promise<number> | null = null;
      const db = withStatementHook(t.database.db, {
        when: (text) => text.includes("readable as"),
        before: async () => {
          settled = (async () => {
            const sub = await call(t.app, {
              method: "POST",
              url: "/api/admin/webhooks",
              headers: ADMIN,
              payload: { url: "http://127.0.0.1:9/hook" },
            });
            expect(sub.status).toBe(201);
            const res = await call(t.app, {
              method: "POST",
              url: "/api/admin/events/race-hook/result",
              headers: ADMIN,
              payload: { status: "cancelled" },
            });
            return res.status;
          })();
          // Time for both to commit, if nothing holds them back.
          await new Promise((r) => setTimeout(r, 300));
        },
      });
      await fanOutDomainEvents(db);
      expect(await settled).toBe(200);
      await fanOutDomainEvents(t.database.db);
      const messages = await rows<{ type: string }>(
        t.database.db,
        sql`select type from webhook_messages order by id`,
      );
      expect(messages.map((m) => m.type)).toEqual(["event.settled"]);
    },
  );
});
