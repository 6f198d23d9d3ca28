/**
 * GET /api/stream (SPEC §12) on the engine under test, over a real listening socket: a player's stream carries the
 * public events and only his own balance and predictions; Last-Event-ID replays what was missed or answers a
 * reset; STREAM_MAX_CLIENTS answers 503 in the envelope; pings arrive. The readers' 1 s poll is set to a minute
 * here, so every event below reached its client through the commit signal (in process), not by polling.
 *
 * Clock: Fri 2026-11-20 12:00 UTC (week 2); the event kicks off Wed 2026-11-25 18:00 (week 3).
 */
import net from "node:net";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { buildMarket } from "../../test/factories.js";
import { bet, claim, dataOf, postResult, putEvent } from "../../test/player-api.js";
import { openStream, type SseClient, type SseEvent } from "../../test/sse-client.js";

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function app(env: Record<string, string> = {}): Promise<{ t: TestApp; base: string }> {
  const t = await createTestApp({ env: { STREAM_POLL_MS: "60000", ...env } });
  open.push(t);
  const base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  return { t, base };
}

async function stream(base: string, opts: Parameters<typeof openStream>[1] = {}): Promise<SseClient> {
  const s = await openStream(base, opts);
  open.push(s);
  return s;
}

const named =
  (name: string, match: (d: any) => boolean = () => true) =>
  (e: SseEvent) =>
    e.event === name && match(e.data);

describe("GET /api/stream", { timeout: 60_000 }, () => {
  it("gives a player the public events and only his own balance and predictions", async () => {
    const { t, base } = await app({ STREAM_PING_MS: "200" });
    await putEvent(t, "e1");
    const alice = await signIn(t, testKey(1));
    const bob = await signIn(t, testKey(2));
    const aliceStream = await stream(base, { cookie: alice.cookie });
    const bobStream = await stream(base, { cookie: bob.cookie });
    const anonStream = await stream(base);
    expect(aliceStream.status).toBe(200);
    expect(aliceStream.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(aliceStream.headers["cache-control"]).toBe("no-cache");
    // The headers of the app's hooks come along: security, rate limit, request id.
    expect(aliceStream.headers["x-content-type-options"]).toBe("nosniff");
    expect(aliceStream.headers["x-ratelimit-limit"]).toBeDefined();
    expect(aliceStream.headers["x-request-id"]).toBeDefined();
    // Never compressed, whatever the client accepts.
    const gzipAsked = await stream(base, { headers: { "accept-encoding": "gzip, br" } });
    expect(gzipAsked.headers["content-encoding"]).toBeUndefined();

    // Welcome 1000 credits; Alice stakes 100 on home at 2.15, Bob 50 on away.
    const aliceBet = dataOf(
      await bet(t, alice.cookie, { eventId: "e1", market: "1x2", outcome: "home", stake: 100 }),
      201,
    );
    const bobBet = dataOf(
      await bet(t, bob.cookie, { eventId: "e1", market: "1x2", outcome: "away", stake: 50 }),
      201,
    );
    expect((await aliceStream.next(named("balance"))).data).toEqual({ credits: 900 });
    expect((await bobStream.next(named("balance"))).data).toEqual({ credits: 950 });

    // The settle through the admin API: everyone sees the event, each player his own prediction.
    dataOf(await postResult(t, "e1", { status: "finished", winningOutcome: "home" }));
    for (const s of [aliceStream, bobStream, anonStream]) {
      expect((await s.next(named("event"))).data).toEqual({
        eventId: "e1",
        status: "finished",
        winningOutcome: "home",
      });
    }
    // floor(100 × 2.15) = 215 credits to claim; Bob lost.
    expect((await aliceStream.next(named("prediction"))).data).toEqual({
      predictionId: aliceBet.prediction.id,
      status: "won",
      payout: 215,
    });
    expect((await bobStream.next(named("prediction"))).data).toEqual({
      predictionId: bobBet.prediction.id,
      status: "lost",
      payout: 0,
    });
    // Alice's 215 SP moved week 3's ladders (week 3 has both).
    expect((await anonStream.next(named("ladder", (d) => d.type === "qualification"))).data).toEqual({
      week: 3,
      type: "qualification",
    });
    expect((await anonStream.next(named("ladder", (d) => d.type === "champions"))).data).toEqual({
      week: 3,
      type: "champions",
    });
    // Her claim pays 215 credits: 900 + 215.
    dataOf(await claim(t, alice.cookie, aliceBet.prediction.id));
    expect((await aliceStream.next(named("balance", (d) => d.credits === 1115))).data).toEqual({
      credits: 1115,
    });

    // An odds change reaches everyone, markets as GET /api/events/:id/odds presents them.
    await putEvent(t, "e2");
    await putEvent(t, "e2", {
      markets: [
        buildMarket("1x2", ["home", "Arsenal", 2.5], ["draw", "Draw", 3.4], ["away", "Chelsea", 2.9]),
      ],
    });
    const odds = await bobStream.next(named("odds", (d) => d.markets[0].outcomes[0].odds === 2.5));
    const served = dataOf(await t.app.inject({ method: "GET", url: "/api/events/e2/odds" }).then(asReply));
    expect(odds.data).toEqual({ eventId: "e2", markets: served.markets });

    // Pings arrive as comments; every event carries an id.
    await aliceStream.next(named("odds"));
    // STREAM_PING_MS is 200: a ping has arrived within a second of the stream's start, however fast the rest ran.
    for (let i = 0; i < 20 && !aliceStream.comments.includes("ping"); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(aliceStream.comments).toContain("ping");
    expect(aliceStream.events.every((e) => e.id !== null && /^\d+$/.test(e.id))).toBe(true);
    // Nothing of Alice's reached Bob or the anonymous client, nor Bob's Alice.
    const privateOf = (s: SseClient) =>
      s.events.filter((e) => e.event === "balance" || e.event === "prediction");
    expect(privateOf(bobStream).map((e) => e.data)).toEqual([
      { credits: 950 },
      { predictionId: bobBet.prediction.id, status: "lost", payout: 0 },
    ]);
    expect(privateOf(anonStream)).toEqual([]);
    expect(privateOf(aliceStream).map((e) => e.event)).toEqual(["balance", "prediction", "balance"]);
  });

  it.skipIf(process.env.TEST_DB !== "postgres")(
    "does not send a new client what was committed before it connected, while an older transaction holds the outbox back",
    async () => {
      const { t, base } = await app();
      await putEvent(t, "e1");
      // A transaction with an id, running on another connection of the same server (any database would do): the
      // outbox's watermark stays below it, so the reader cannot pass what commits after it.
      const older = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await older.connect();
      try {
        await older.query("begin");
        await older.query("select pg_current_xact_id()");
        const alice = await signIn(t, testKey(1)); // commits her welcome credits: balance 1000
        const aliceStream = await stream(base, { cookie: alice.cookie });
        await older.query("commit");
        dataOf(
          await bet(t, alice.cookie, { eventId: "e1", market: "1x2", outcome: "home", stake: 100 }),
          201,
        );
        // Before the fix the reader sent the welcome's balance (1000), committed before she connected, first.
        expect((await aliceStream.next(named("balance"))).data).toEqual({ credits: 900 });
      } finally {
        await older.query("rollback").catch(() => {});
        await older.end();
      }
    },
  );

  it("replays what a reconnecting client missed, and answers reset when it cannot", async () => {
    const { t, base } = await app();
    await putEvent(t, "e1");
    const alice = await signIn(t, testKey(1));
    const bob = await signIn(t, testKey(2));
    const first = await stream(base, { cookie: alice.cookie });
    dataOf(await bet(t, alice.cookie, { eventId: "e1", market: "1x2", outcome: "home", stake: 100 }), 201);
    const seen = await first.next(named("balance"));
    first.close();

    // Missed while away: Bob's bet (not hers), an odds change, her second bet.
    dataOf(await bet(t, bob.cookie, { eventId: "e1", market: "1x2", outcome: "away", stake: 50 }), 201);
    await putEvent(t, "e1", {
      markets: [
        buildMarket("1x2", ["home", "Arsenal", 2.2], ["draw", "Draw", 3.4], ["away", "Chelsea", 3.1]),
      ],
    });
    dataOf(await bet(t, alice.cookie, { eventId: "e1", market: "1x2", outcome: "draw", stake: 10 }), 201);

    const again = await stream(base, { cookie: alice.cookie, lastEventId: seen.id! });
    await again.next(named("balance", (d) => d.credits === 890));
    expect(
      again.events.map((e) => [e.event, e.data.credits ?? e.data.markets?.[0].outcomes[0].odds]),
    ).toEqual([
      ["odds", 2.2],
      ["balance", 890],
    ]);
    // Live events follow the replay.
    await putEvent(t, "e1", {
      markets: [
        buildMarket("1x2", ["home", "Arsenal", 2.3], ["draw", "Draw", 3.4], ["away", "Chelsea", 3.1]),
      ],
    });
    await again.next(named("odds", (d) => d.markets[0].outcomes[0].odds === 2.3));

    // An id the outbox never had, a malformed one, and one older than 5 minutes: reset, once, with an id.
    for (const id of ["999999", "not-an-id"]) {
      const s = await stream(base, { cookie: alice.cookie, lastEventId: id });
      const reset = await s.next(named("reset"));
      expect(reset.id).toMatch(/^\d+$/);
    }
    // Missed since more than 5 minutes (every event from hers on recorded 6 minutes ago): reset.
    await t.database.db.execute(
      sql`update domain_events set created_at = now() - interval '6 minutes' where id >= ${seen.id}::bigint`,
    );
    const old = await stream(base, { cookie: alice.cookie, lastEventId: seen.id! });
    await old.next(named("reset"));
    await new Promise((r) => setTimeout(r, 200));
    expect(old.events.map((e) => e.event)).toEqual(["reset"]);
    // Her last event 6 minutes old, but nothing since (a quiet site): nothing to replay, no reset (before: reset,
    // and the reset's id reset the next reconnect again); live events follow.
    const newest = again.events.at(-1)!.id!;
    const quiet = await stream(base, { cookie: alice.cookie, lastEventId: newest });
    await new Promise((r) => setTimeout(r, 300));
    expect(quiet.events).toEqual([]);
    await putEvent(t, "e1", {
      markets: [
        buildMarket("1x2", ["home", "Arsenal", 2.4], ["draw", "Draw", 3.4], ["away", "Chelsea", 3.1]),
      ],
    });
    await quiet.next(named("odds", (d) => d.markets[0].outcomes[0].odds === 2.4));
    expect(quiet.events.map((e) => e.event)).toEqual(["odds"]);
  });

  it("answers 503 in the error envelope beyond STREAM_MAX_CLIENTS, and ends its streams on close", async () => {
    const { t, base } = await app({ STREAM_MAX_CLIENTS: "2" });
    const before = await streamClientsGauge(t);
    const a = await stream(base);
    await stream(base);
    // app_stream_clients counts them (SPEC §11).
    expect(await streamClientsGauge(t)).toBe(before + 2);
    const refused = await stream(base);
    expect(refused.status).toBe(503);
    expect(await refused.body()).toMatchObject({ success: false, status: 503, code: "SERVICE_UNAVAILABLE" });
    // One leaves: the next one gets in.
    a.close();
    await a.ended;
    let c: SseClient | null = null;
    for (let i = 0; i < 50 && c?.status !== 200; i++) {
      c = await stream(base);
      if (c.status !== 200) await new Promise((r) => setTimeout(r, 20));
    }
    expect(c!.status).toBe(200);
    // Closing the app ends the open streams (app.close() would otherwise wait on them for ever).
    await t.app.close();
    await c!.ended;
  });
});

describe("GET /api/stream: clients that misbehave", { timeout: 60_000 }, () => {
  it("drops a client that stops reading, and goes on serving the others (it crashed the process)", async () => {
    // Before: past 1 MB of backlog the hub ended the response but kept writing to it; the write after end raised
    // an 'error' nobody listened to, and the process exited.
    const { t, base } = await app({ STREAM_POLL_MS: "100" });
    const url = new URL(base);
    const stalled = net.connect({ host: url.hostname, port: Number(url.port) });
    open.push({ close: () => stalled.destroy() });
    await new Promise((r) => stalled.once("connect", r));
    stalled.pause();
    stalled.write(`GET /api/stream HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
    const reader = await stream(base);
    expect(await streamClientsGauge(t)).toBe(2);
    // 40 events of 200 kB each: 8 MB the stalled client never reads (more than the kernel's buffers take).
    const big = "x".repeat(200_000);
    for (let i = 0; i < 40; i++) {
      await t.database.db.execute(
        sql`insert into domain_events (type, payload) values ('event.odds_changed', ${JSON.stringify({ eventId: `big-${i}`, markets: [{ key: big, outcomes: [] }] })}::jsonb)`,
      );
    }
    await putEvent(t, "after-the-flood");
    const after = await reader
      .next(
        named("odds", (d) => d.eventId === "after-the-flood"),
        20_000,
      )
      .catch(() => null);
    expect(
      after,
      `the reader got ${reader.events.length} events, not the one after the flood`,
    ).not.toBeNull();
    // The next events find the stalled client's backlog above 1 MB: it is dropped, out of the hub (its slot given
    // back), and the process serves on.
    for (let i = 0; i < 10 && (await streamClientsGauge(t)) > 1; i++) {
      await putEvent(t, `one-more-${i}`);
      await reader.next(
        named("odds", (d) => d.eventId === `one-more-${i}`),
        20_000,
      );
    }
    expect(await streamClientsGauge(t)).toBe(1);
    expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  it("admits no more than STREAM_MAX_CLIENTS clients connecting at the same moment", async () => {
    // Before: the limit was checked before an await and the slot taken after it: 40 clients at once with a limit
    // of 5 got 7 streams on PostgreSQL (6 of 6 in the hub with a limit of 2).
    const { base } = await app({ STREAM_MAX_CLIENTS: "5" });
    const clients = await Promise.all(Array.from({ length: 40 }, () => stream(base)));
    const statuses = clients.map((c) => c.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 503)).toHaveLength(35);
  });
});

/** The app_stream_clients gauge as GET /metrics serves it. */
async function streamClientsGauge(t: TestApp): Promise<number> {
  const res = await t.app.inject({ method: "GET", url: "/metrics" });
  const line = res.body.split("\n").find((l) => l.startsWith("app_stream_clients "));
  return Number(line?.split(" ")[1]);
}

function asReply(res: { statusCode: number; json(): any }) {
  return { status: res.statusCode, body: res.json() };
}
