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
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { testEngine } from "../../test/db.js";
import { bet, dataOf, expectError, postResult, putEvent, trustBetDeps } from "../../test/player-api.js";
import { rows } from "../db/client.js";
import { lockEventAgainstBets, lockEventsForBets } from "../events/events.js";
import { findPrediction, insertOpenPredictions, insertQuote } from "./predictions.repository.js";
import { type ChainBetLog, recordChainBets } from "./record-chain-bets.js";
import { verifyPendingBet } from "./report-onchain-bet.js";

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

/** The predictions of `eventId` after a race: the v1 winner and the chain bet (2 USDC at 2.15: 4.30 USDC back). */
async function expectBothWon(eventId: string): Promise<void> {
  expect(
    await rows<{ version: number; status: string; payout_micro: string | null }>(
      t.database.db,
      sql`select version, status, payout_micro::text from predictions where event_id = ${eventId} order by id`,
    ),
  ).toEqual([
    { version: 1, status: "won", payout_micro: null },
    { version: 2, status: "won", payout_micro: "4300000" },
  ]);
}

/**
 * Posts `eventId`'s result (home wins) while another connection holds `heldUserId`'s row, so the settlement stops
 * at that winner's ledger append, past its read of the open predictions (as a settle of 100,000 predictions runs
 * for seconds); runs `during` meanwhile, then lets the settlement finish. PostgreSQL only.
 */
async function whileSettling(
  eventId: string,
  heldUserId: string,
  during: () => Promise<unknown>,
): Promise<void> {
  const [{ name }] = (await rows<{ name: string }>(
    t.database.db,
    sql`select current_database() as name`,
  )) as [{ name: string }];
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  const holder = new pg.Client({ connectionString: url.toString() });
  await holder.connect();
  try {
    await holder.query("begin");
    await holder.query("select id from users where id = $1 for update", [heldUserId]);
    t.clock.set(new Date("2026-11-25T20:00:00.000Z"));
    const settle = watch(postResult(t, eventId, { status: "finished", winningOutcome: "home" }));
    await sleep(300);
    expect(settle.done).toBe(false);
    const work = watch(during());
    await sleep(300);
    await holder.query("commit");
    expect(dataOf(await settle.promise)).toMatchObject({ settled: 1 });
    await work.promise;
  } finally {
    await holder.end();
    t.clock.set(NOW);
  }
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

  it.runIf(testEngine === "postgres")(
    "a chain bet judged while its event's settlement runs is settled with it, not left open",
    async () => {
      // Before: the indexer opened the pending bet and read the event, with no result yet, while the settlement
      // (past its read of the open predictions) waited on a row; the settlement then committed without the bet,
      // and the bet stayed open for ever: a winner never paid, and a second result post changes nothing.
      await putEvent(t, "race-chain");
      const v1 = await newPlayer();
      dataOf(await bet(t, v1.cookie, home("race-chain")), 201);
      const chainPlayer = await newPlayer();
      const bettor = chainPlayer.wallet.toLowerCase();
      const contract = `0x${"22".repeat(20)}`;
      const digest = `0x${"44".repeat(32)}`;
      const expiresAt = new Date(NOW.getTime() + 10 * 60_000);
      await insertQuote(t.database.db, {
        digest,
        userId: BigInt(chainPlayer.userId),
        bettor,
        chainId: 1,
        contract,
        signer: `0x${"11".repeat(20)}`,
        eventId: "race-chain",
        market: "1x2",
        outcome: "home",
        marketId: `0x${"33".repeat(32)}`,
        outcomeIndex: 0,
        oddsMilli: 2150n,
        expiresAt,
        signature: "0x00",
      });
      const log: ChainBetLog = {
        bettor,
        signer: `0x${"11".repeat(20)}`,
        marketId: `0x${"33".repeat(32)}`,
        outcomeIndex: 0,
        amount: 2_000_000n,
        odds: 2150n,
        expiry: BigInt(expiresAt.getTime() / 1000),
        minedAt: new Date(NOW.getTime() + 60_000),
        chainId: 1,
        contract,
        txHash: `0x${"55".repeat(32)}`,
        logIndex: 0,
        blockNumber: 100n,
        blockHash: `0x${"66".repeat(32)}`,
        digest,
      };
      const deps = trustBetDeps(t);
      // Seen in a block not yet final: pending.
      await t.database.db.transaction((tx) => recordChainBets(tx, deps, [log], { final: false }));

      // Its block is final now: the indexer judges it while the settlement runs.
      await whileSettling("race-chain", v1.userId, () =>
        t.database.db.transaction((tx) => recordChainBets(tx, deps, [log], { final: true })),
      );
      await expectBothWon("race-chain");
    },
  );

  it.runIf(testEngine === "postgres")(
    "a reported chain bet confirmed while its event's settlement runs is settled with it, not left open",
    async () => {
      // Trust mode's verifier confirms a reported transaction (verifyPendingBet): the same race as the indexer's.
      await putEvent(t, "race-report");
      const v1 = await newPlayer();
      dataOf(await bet(t, v1.cookie, home("race-report")), 201);
      const reporter = await newPlayer();
      const reported = dataOf(
        await call(t.app, {
          method: "POST",
          url: "/api/pred2earn/bet-placed-v2",
          headers: { cookie: reporter.cookie },
          payload: {
            eventId: "race-report",
            market: "1x2",
            outcome: "home",
            stakeUsdc: "2",
            odds: 2.15,
            txHash: `0x${"ab".repeat(32)}`,
            chainId: 1,
          },
        }),
        201,
      );
      expect(reported.prediction.status).toBe("pending");
      const deps = trustBetDeps(t);
      const row = (await findPrediction(t.database.db, BigInt(reported.prediction.id)))!;
      await whileSettling("race-report", v1.userId, () =>
        verifyPendingBet(deps, row, reporter.wallet.toLowerCase()),
      );
      await expectBothWon("race-report");
    },
  );

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
