/**
 * Webhooks (SPEC §11, issue 23) on the engine under test: the admin API, messages from the domain-event outbox,
 * Standard Webhooks signatures checked by the `standardwebhooks` package in a real HTTP receiver, a retry under the
 * same webhook-id after a 500, delivery after the service stopped between the change and the delivery, and the
 * production URL policy (SSRF).
 *
 * The event of these tests kicks off Wed 2026-11-25 18:00 (KICKOFF); the clock stands at Fri 2026-11-20 12:00.
 * Player A stakes 100 credits on home (2.15), player B 100 on away; the result is home: A wins
 * floor(100 × 2150 / 1000) = 215, B gets 0.
 */
import { rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { createScratchPostgres, testEngine } from "../../test/db.js";
import { migratedDataDir } from "../../test/db-template.js";
import { captureLog } from "../../test/log-capture.js";
import { bet, dataOf, expectError, expectInvalid, postResult, putEvent } from "../../test/player-api.js";
import { type Database, openDatabase } from "../db/client.js";
import { recordDomainEvent, recordDomainEvents } from "../domain-events/domain-events.js";
import { startOperationsJobs } from "../jobs/operations-jobs.js";
import { webhookDeliveriesTotal } from "../metrics/app-metrics.js";
import { deliverDueMessages } from "./deliver.js";
import { fanOutDomainEvents } from "./fan-out.js";
import { registerWebhook } from "./subscriptions.js";
import { isPublicAddress, webhookUrlFormProblem } from "./url-guard.js";

interface Received {
  headers: Record<string, string>;
  body: string;
  verified: unknown;
}

/** A webhook receiver: verifies each request with `secret`; answers `answer(id, nth)` (nth: 1 for the first). */
class Receiver {
  readonly received: Received[] = [];
  secret = "";
  answer: (id: string, nth: number) => number = () => 200;
  private server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : (v ?? "")]),
      );
      // Throws on a bad signature or a stale timestamp: the test then sees no verified payload.
      let verified: unknown = null;
      try {
        verified = new Webhook(this.secret).verify(body, headers);
      } catch (err) {
        verified = { error: (err as Error).message };
      }
      this.received.push({ headers, body, verified });
      const id = headers["webhook-id"]!;
      const nth = this.received.filter((r) => r.headers["webhook-id"] === id).length;
      res.statusCode = this.answer(id, nth);
      res.end("ok");
    });
  });
  url = "";
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
  idsOf(type: string): string[] {
    return this.received.filter((r) => JSON.parse(r.body).type === type).map((r) => r.headers["webhook-id"]!);
  }
}

const silent = captureLog();

/**
 * Fans out until `events` events were taken in (another database's transaction on the same PostgreSQL server can
 * hold the outbox watermark back for a moment); returns the totals.
 */
async function fanOutAll(db: Database["db"], events: number) {
  const total = { events: 0, messages: 0 };
  for (let i = 0; i < 200 && total.events < events; i++) {
    const r = await fanOutDomainEvents(db);
    total.events += r?.events ?? 0;
    total.messages += r?.messages ?? 0;
    if (total.events < events) await new Promise((res) => setTimeout(res, 50));
  }
  return total;
}
const deliveries = async (outcome: string) =>
  (await webhookDeliveriesTotal.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;

let receiver: Receiver;
beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  receiver.received.length = 0;
  receiver.answer = () => 200;
});

async function subscribe(t: TestApp, payload: Record<string, unknown>) {
  return dataOf(
    await call(t.app, { method: "POST", url: "/api/admin/webhooks", headers: ADMIN, payload }),
    201,
  );
}

/** Event "wh-1" with A on home and B on away, settled home; returns the two prediction ids and user ids. */
async function settleWithTwoBets(t: TestApp) {
  await putEvent(t, "wh-1");
  const a = await signIn(t, testKey(1));
  const b = await signIn(t, testKey(2));
  const pa = dataOf(
    await bet(t, a.cookie, { eventId: "wh-1", market: "1x2", outcome: "home", stake: 100 }),
    201,
  );
  const pb = dataOf(
    await bet(t, b.cookie, { eventId: "wh-1", market: "1x2", outcome: "away", stake: 100 }),
    201,
  );
  dataOf(await postResult(t, "wh-1", { status: "finished", winningOutcome: "home" }));
  return { a, b, pa: pa.prediction.id as string, pb: pb.prediction.id as string };
}

describe("webhooks", () => {
  it("signs every message, retries a 500 under the same webhook-id, and lists the deliveries", async () => {
    const t = await createTestApp();
    open.push(t);
    const all = await subscribe(t, { url: receiver.url });
    expect(all).toMatchObject({ url: receiver.url, events: null });
    expect(all.id).toMatch(/^\d+$/);
    expect(all.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(all.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    receiver.secret = all.secret;
    // A second subscription that wants only week.finalized: the settle sends it nothing.
    const weekly = await subscribe(t, { url: `${receiver.url}?weekly`, events: ["week.finalized"] });
    const list = dataOf(await call(t.app, { method: "GET", url: "/api/admin/webhooks", headers: ADMIN }));
    expect(list.items).toEqual([
      { id: all.id, url: receiver.url, events: null, createdAt: all.createdAt },
      {
        id: weekly.id,
        url: `${receiver.url}?weekly`,
        events: ["week.finalized"],
        createdAt: weekly.createdAt,
      },
    ]);
    expect(JSON.stringify(list)).not.toContain("whsec_");

    const { a, b, pa, pb } = await settleWithTwoBets(t);
    // The outbox also carries the live stream's events (SPEC §12), which no webhook sends: the event's creation
    // (status, odds), both welcome grants and both stakes (balance), the ladder of week 3 moved by the settle. Ten
    // events in all; messages only for event.settled and the two prediction.settled.
    expect(await fanOutAll(t.database.db, 10)).toEqual({ events: 10, messages: 3 });
    // Fanning out again finds nothing new.
    expect(await fanOutDomainEvents(t.database.db)).toEqual({ events: 0, messages: 0 });

    // First attempt of every message: the receiver answers 500.
    receiver.answer = (_id, nth) => (nth === 1 ? 500 : 200);
    const retriesBefore = await deliveries("retry");
    const deliveredBefore = await deliveries("delivered");
    const deps = { db: t.database.db, log: silent, requirePublicHttps: false, retryDelaysMs: [5000, 5000] };
    expect(await deliverDueMessages(deps, { maxRounds: 1 })).toBe(3);
    expect(receiver.received).toHaveLength(3);
    expect(await deliveries("retry")).toBe(retriesBefore + 3);
    let listed = dataOf(
      await call(t.app, { method: "GET", url: `/api/admin/webhooks/${all.id}/deliveries`, headers: ADMIN }),
    ).items;
    expect(listed).toHaveLength(3);
    for (const d of listed) {
      expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
      expect(Date.parse(d.nextAttemptAt)).toBeGreaterThan(Date.now());
    }
    // Not due yet: nothing is sent.
    expect(await deliverDueMessages(deps, { maxRounds: 1 })).toBe(0);
    await new Promise((r) => setTimeout(r, 5100));
    expect(await deliverDueMessages(deps, { maxRounds: 1 })).toBe(3);
    expect(receiver.received).toHaveLength(6);
    expect(await deliveries("delivered")).toBe(deliveredBefore + 3);

    // Every request verified, each id sent twice with one body.
    for (const r of receiver.received) expect(r.verified).toEqual(JSON.parse(r.body));
    const ids = receiver.received.map((r) => r.headers["webhook-id"]!);
    expect(new Set(ids).size).toBe(3);
    for (const id of new Set(ids)) {
      const bodies = receiver.received.filter((r) => r.headers["webhook-id"] === id).map((r) => r.body);
      expect(bodies).toHaveLength(2);
      expect(bodies[0]).toBe(bodies[1]);
    }
    const bodies = [...new Set(receiver.received.map((r) => r.body))].map((x) => JSON.parse(x));
    const settled = bodies.find((x) => x.type === "event.settled");
    expect(settled).toEqual({
      type: "event.settled",
      timestamp: expect.stringMatching(/Z$/),
      data: {
        eventId: "wh-1",
        status: "finished",
        winningOutcome: "home",
        settledAt: "2026-11-20T12:00:00.000Z",
      },
    });
    const predictions = bodies
      .filter((x) => x.type === "prediction.settled")
      .map((x) => x.data)
      .sort((x, y) => Number(x.predictionId) - Number(y.predictionId));
    expect(predictions).toEqual([
      { predictionId: pa, userId: a.userId, eventId: "wh-1", status: "won", payout: 215 },
      { predictionId: pb, userId: b.userId, eventId: "wh-1", status: "lost", payout: 0 },
    ]);
    expect(receiver.received.some((r) => r.headers["webhook-id"] === undefined)).toBe(false);

    listed = dataOf(
      await call(t.app, {
        method: "GET",
        url: `/api/admin/webhooks/${all.id}/deliveries?limit=2`,
        headers: ADMIN,
      }),
    ).items;
    expect(listed).toHaveLength(2);
    for (const d of listed) {
      expect(d).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200, nextAttemptAt: null });
    }
    const none = dataOf(
      await call(t.app, {
        method: "GET",
        url: `/api/admin/webhooks/${weekly.id}/deliveries`,
        headers: ADMIN,
      }),
    );
    expect(none.items).toEqual([]);
  });

  it("sends only SPEC §11's event types, never another type the outbox carries", async () => {
    const t = await createTestApp();
    open.push(t);
    await subscribe(t, { url: receiver.url });
    // A private event of another consumer (a player's live stream), not a webhook type.
    await t.database.db.transaction((tx) =>
      recordDomainEvent(tx, { type: "balance.changed" as never, payload: { credits: 5 }, userId: "1" }),
    );
    expect(await fanOutAll(t.database.db, 1)).toEqual({ events: 1, messages: 0 });
  });

  it("passes the events recorded while no subscription exists; a later subscription gets only later events", async () => {
    const t = await createTestApp();
    open.push(t);
    const settled = (eventId: string) => ({
      type: "event.settled" as const,
      payload: { eventId, status: "finished", winningOutcome: "home", settledAt: "2026-11-20T12:00:00.000Z" },
    });
    await t.database.db.transaction((tx) =>
      recordDomainEvents(tx, [settled("a"), settled("b"), settled("c")]),
    );
    // Nobody subscribed: the three are passed (counted, no message), and not again.
    expect(await fanOutAll(t.database.db, 3)).toEqual({ events: 3, messages: 0 });
    expect(await fanOutDomainEvents(t.database.db)).toEqual({ events: 0, messages: 0 });
    await subscribe(t, { url: receiver.url });
    await t.database.db.transaction((tx) => recordDomainEvents(tx, [settled("d")]));
    expect(await fanOutAll(t.database.db, 1)).toEqual({ events: 1, messages: 1 });
    expect(
      await deliverDueMessages(
        { db: t.database.db, log: silent, requirePublicHttps: false },
        { maxRounds: 1 },
      ),
    ).toBe(1);
    expect(receiver.received.map((r) => JSON.parse(r.body).data.eventId)).toEqual(["d"]);
  });

  it("marks a message failed after its last retry", async () => {
    const t = await createTestApp();
    open.push(t);
    const sub = await subscribe(t, { url: receiver.url, events: ["event.settled"] });
    receiver.secret = sub.secret;
    await settleWithTwoBets(t);
    await fanOutAll(t.database.db, 3);
    receiver.answer = () => 503;
    // One round per call: each call makes at most one attempt of the message.
    const deps = { db: t.database.db, log: silent, requirePublicHttps: false, retryDelaysMs: [1500] };
    const failedBefore = await deliveries("failed");
    expect(await deliverDueMessages(deps, { maxRounds: 1 })).toBe(1);
    expect(await deliverDueMessages(deps, { maxRounds: 1 })).toBe(0); // not due for 1.5 s
    await new Promise((r) => setTimeout(r, 1600));
    expect(await deliverDueMessages(deps, { maxRounds: 1 })).toBe(1);
    await new Promise((r) => setTimeout(r, 1600));
    expect(await deliverDueMessages(deps, { maxRounds: 1 })).toBe(0);
    expect(await deliveries("failed")).toBe(failedBefore + 1);
    const [d] = dataOf(
      await call(t.app, { method: "GET", url: `/api/admin/webhooks/${sub.id}/deliveries`, headers: ADMIN }),
    ).items;
    expect(d).toMatchObject({ type: "event.settled", status: "failed", attempts: 2, lastStatusCode: 503 });
    expect(d.nextAttemptAt).toBeNull();
  });

  it("delivers every message after the service stopped between the change and the delivery", async () => {
    // The same database opened twice, as a restarted process would: a scratch PostgreSQL database, or a DATA_DIR.
    let reopen: () => Promise<Database>;
    if (testEngine === "postgres") {
      const scratch = await createScratchPostgres();
      open.push({ close: () => scratch.drop() });
      reopen = () => openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 5 });
    } else {
      const dir = migratedDataDir("webhooks-restart-");
      open.push({ close: async () => rmSync(dir, { recursive: true, force: true }) });
      reopen = () => openDatabase({ databaseUrl: null, dataDir: dir });
    }
    const first = await reopen();
    const t = await createTestApp({ database: first });
    const sub = await subscribe(t, { url: receiver.url });
    receiver.secret = sub.secret;
    await settleWithTwoBets(t);
    // The service stops before any worker ran (no job was started): the messages exist only as domain events.
    await t.close();
    await first.close();
    expect(receiver.received).toHaveLength(0);

    const second = await reopen();
    open.push(second);
    const t2 = await createTestApp({ database: second });
    open.push(t2);
    const jobs = startOperationsJobs({
      config: { ...t2.config, autoFinalize: false },
      database: second,
      clock: t2.clock,
      log: silent,
      overrides: { webhookIntervalMs: 20 },
    });
    open.push({ close: () => jobs.stop() });
    const deadline = Date.now() + 10_000;
    while (receiver.received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual([
      "event.settled",
      "prediction.settled",
      "prediction.settled",
    ]);
    for (const r of receiver.received) expect(r.verified).toEqual(JSON.parse(r.body));
  });

  it("refuses, in production, a URL that is not https or reaches a loopback or private address", async () => {
    const t = await createTestApp();
    open.push(t);
    const deps = { db: t.database.db, requirePublicHttps: true };
    for (const url of [
      "http://example.com/hook",
      "https://127.0.0.1/hook",
      "https://localhost/hook",
      "https://10.1.2.3/hook",
      "https://192.168.1.10/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://[fd00::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://user:pass@example.com/hook",
      "not a url",
    ]) {
      await expect(registerWebhook(deps, { url }), url).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    }
    expect(webhookUrlFormProblem("https://93.184.215.14/hook", true)).toBeNull();
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(isPublicAddress("2606:4700:4700::1111")).toBe(true);
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.0.1",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fe80::1",
      "::ffff:10.0.0.1",
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }

    // A subscription registered to a local URL (outside production) is not sent there by a production worker.
    const sub = await subscribe(t, { url: receiver.url });
    receiver.secret = sub.secret;
    await settleWithTwoBets(t);
    await fanOutAll(t.database.db, 3);
    expect(await deliverDueMessages({ db: t.database.db, log: silent, requirePublicHttps: true })).toBe(3);
    expect(receiver.received).toHaveLength(0);
    const items = dataOf(
      await call(t.app, { method: "GET", url: `/api/admin/webhooks/${sub.id}/deliveries`, headers: ADMIN }),
    ).items;
    expect(items.map((d: { status: string; lastStatusCode: null }) => [d.status, d.lastStatusCode])).toEqual([
      ["pending", null],
      ["pending", null],
      ["pending", null],
    ]);
  });

  it("validates the admin API's input and deletes a subscription with its messages", async () => {
    const t = await createTestApp();
    open.push(t);
    const noAuth = await call(t.app, { method: "GET", url: "/api/admin/webhooks" });
    expectError(noAuth, 401, "UNAUTHENTICATED");
    expectInvalid(
      await call(t.app, {
        method: "POST",
        url: "/api/admin/webhooks",
        headers: ADMIN,
        payload: { url: receiver.url, events: ["nope"] },
      }),
      "body.events.0",
    );
    expectInvalid(
      await call(t.app, {
        method: "POST",
        url: "/api/admin/webhooks",
        headers: ADMIN,
        payload: { url: "ftp://x/y" },
      }),
      "body.url",
    );
    expectInvalid(
      await call(t.app, { method: "DELETE", url: "/api/admin/webhooks/abc", headers: ADMIN }),
      "params.id",
    );
    expectError(
      await call(t.app, { method: "DELETE", url: "/api/admin/webhooks/999", headers: ADMIN }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await call(t.app, { method: "GET", url: "/api/admin/webhooks/999/deliveries", headers: ADMIN }),
      404,
      "NOT_FOUND",
    );
    const sub = await subscribe(t, { url: receiver.url });
    await settleWithTwoBets(t);
    await fanOutAll(t.database.db, 3);
    expect(
      dataOf(await call(t.app, { method: "DELETE", url: `/api/admin/webhooks/${sub.id}`, headers: ADMIN })),
    ).toEqual({});
    expect(
      dataOf(await call(t.app, { method: "GET", url: "/api/admin/webhooks", headers: ADMIN })).items,
    ).toEqual([]);
    expect(await deliverDueMessages({ db: t.database.db, log: silent, requirePublicHttps: false })).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });
});
