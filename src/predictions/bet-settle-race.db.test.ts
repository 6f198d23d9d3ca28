/**
 * The race between bets and the settlement of their event (PostgreSQL READ COMMITTED; PGlite runs one transaction
 * at a time, so there the same steps simply queue): a bet holds its event's bet lock shared and inserts with the
 * betting-window check in the same statement; settlement takes that lock exclusive before it reads the open
 * predictions. Replayed step by step with a transaction held open at the dangerous instant, then with bets and a
 * settlement fired together: no bet is accepted and left open, none is accepted after the settlement committed,
 * and every refused bet leaves the player's credits untouched.
 *
 * Events kick off Wed 2026-11-25 18:00 UTC; the clock stays at Fri 2026-11-20 12:00 UTC.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { bet, dataOf, expectError, postResult, putEvent } from "../../test/player-api.js";
import { lockEventAgainstBets, lockEventsForBets } from "../events/events.js";
import { insertOpenPredictions } from "./predictions.repository.js";

const NOW = new Date("2026-11-20T12:00:00.000Z");

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: NO_RATE_LIMITS });
});
afterAll(async () => {
  await t?.close();
});

let keys = 9100;
const newPlayer = () => signIn(t, testKey(keys++));
const home = (eventId: string) => ({ eventId, market: "1x2", outcome: "home", stake: 10 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise, whether it has settled yet, and its value. */
function watch<T>(p: Promise<T>) {
  const w = { done: false, value: undefined as T | undefined, promise: p };
  w.promise = p.then((v) => {
    w.done = true;
    w.value = v;
    return v;
  });
  return w;
}

async function predictionsOf(eventId: string) {
  const res = (await t.database.db.execute(
    sql`select id::text, user_id::text, status from predictions where event_id = ${eventId} order by id`,
  )) as unknown as { rows: Array<{ id: string; user_id: string; status: string }> };
  return res.rows;
}

async function balanceOf(userId: string): Promise<number> {
  const res = (await t.database.db.execute(
    sql`select credits_balance::int as b from users where id = ${BigInt(userId)}`,
  )) as unknown as { rows: Array<{ b: number }> };
  return Number(res.rows[0]!.b);
}

describe("a bet and the settlement of its event", () => {
  it("a settlement waits for the bet in flight and settles it with the others", async () => {
    await putEvent(t, "race-inflight");
    const p = await newPlayer();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let inserted!: () => void;
    const insertedNow = new Promise<void>((r) => {
      inserted = r;
    });
    // A bet stopped between its insert and its commit: the instant a settlement must not miss it.
    const betTx = t.database.db.transaction(async (tx) => {
      const event = (await lockEventsForBets(tx, ["race-inflight"])).get("race-inflight");
      expect(event?.status).toBe("scheduled");
      const [row] = await insertOpenPredictions(
        tx,
        [
          {
            userId: BigInt(p.userId),
            eventId: "race-inflight",
            market: "1x2",
            outcome: "home",
            oddsMilli: 2150n,
            stake: 10,
            balanceAfter: 990,
            idempotencyKey: null,
          },
        ],
        NOW,
      );
      expect(row).not.toBeNull();
      inserted();
      await gate;
    });
    await insertedNow;
    const settle = watch(postResult(t, "race-inflight", { status: "finished", winningOutcome: "home" }));
    await sleep(300);
    expect(settle.done).toBe(false); // waiting for the bet, not settling without it
    release();
    await betTx;
    const res = await settle.promise;
    expect(dataOf(res).settled).toBe(1);
    expect((await predictionsOf("race-inflight")).map((r) => r.status)).toEqual(["won"]);
  });

  it("a bet arriving while the settlement runs waits, then is refused (EVENT_CLOSED) and debits nothing", async () => {
    await putEvent(t, "race-late");
    const p = await newPlayer();
    const before = await balanceOf(p.userId);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const lockedNow = new Promise<void>((r) => {
      locked = r;
    });
    // A settlement holding the bet lock, the event not yet closed in any committed state.
    const settleTx = t.database.db.transaction(async (tx) => {
      await lockEventAgainstBets(tx, "race-late");
      locked();
      await gate;
      await tx.execute(
        sql`update events set status = 'finished', result = '{"status":"finished","winningOutcome":"home"}'::jsonb,
                   closed_at = ${NOW} where id = 'race-late'`,
      );
    });
    await lockedNow;
    const late = watch(bet(t, p.cookie, home("race-late")));
    await sleep(300);
    expect(late.done).toBe(false); // queued behind the settlement
    release();
    await settleTx;
    expectError(await late.promise, 409, "EVENT_CLOSED");
    expect(await predictionsOf("race-late")).toEqual([]);
    expect(await balanceOf(p.userId)).toBe(before);
  });

  it("30 bets fired with a settlement: each is settled or refused, none left open, refused ones debit nothing", async () => {
    await putEvent(t, "race-many");
    const players = await Promise.all(Array.from({ length: 30 }, () => newPlayer()));
    const early = await Promise.all(players.slice(0, 5).map((p) => bet(t, p.cookie, home("race-many"))));
    for (const r of early) dataOf(r, 201);
    const bets = players.slice(5).map((p) => bet(t, p.cookie, home("race-many")));
    const settled = postResult(t, "race-many", { status: "finished", winningOutcome: "away" });
    const answers = await Promise.all(bets);
    const settleRes = dataOf(await settled);
    const accepted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    for (const r of refused) expectError(r, 409, "EVENT_CLOSED");
    const rows = await predictionsOf("race-many");
    expect(rows).toHaveLength(5 + accepted.length);
    expect(rows.filter((r) => r.status !== "lost")).toEqual([]); // all settled (away won), none open
    expect(settleRes.settled).toBe(5 + accepted.length);
    for (const [i, r] of answers.entries()) {
      if (r.status !== 201) expect(await balanceOf(players[5 + i]!.userId)).toBe(1000);
    }
  });
});
