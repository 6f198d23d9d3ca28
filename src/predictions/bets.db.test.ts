/**
 * Placing bets over HTTP (SPEC §6 Predictions, §9): version 1 (free credits) and version 2 (USDC reported from
 * the chain), validation, the kickoff cut-off, credit debits under concurrency and Idempotency-Key replays.
 *
 * One database for the whole file, served by two apps: `t` with the default chain verifier ("none": v2 bets stay
 * pending) and `trusting` with CHAIN_VERIFIER=trust. Every test uses its own events and players.
 * The clock stays at Fri 2026-11-20 12:00 UTC unless a test moves it; events kick off Wed 2026-11-25 18:00 UTC.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { buildMarket } from "../../test/factories.js";
import { startTestIssuer, type TestIssuer } from "../../test/oidc-issuer.js";
import {
  bet,
  betV2,
  dataOf,
  expectError,
  expectInvalid,
  KICKOFF,
  putEvent,
  txHash,
} from "../../test/player-api.js";
import { rows, sql } from "../db/client.js";
import { findPrediction, insertOpenPredictions } from "./predictions.repository.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2

let t: TestApp;
let trusting: TestApp;
let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await startTestIssuer();
  t = await createTestApp({ now: NOW, env: { ...NO_RATE_LIMITS, ...issuer.env } });
  trusting = await createTestApp({
    now: NOW,
    database: t.database,
    env: { ...NO_RATE_LIMITS, CHAIN_VERIFIER: "trust" },
  });
});
afterAll(async () => {
  await trusting?.close();
  await t?.close();
  await issuer?.close();
});
beforeEach(() => {
  t.clock.set(NOW);
  trusting.clock.set(NOW);
});

let keys = 100;
/** A new wallet player (1000 welcome credits) signed in on `t`. */
const newPlayer = () => signIn(t, testKey(keys++));

/** The player's predictions, newest first (at most 100). */
async function history(cookie: string, query = "") {
  const res = await call(t.app, {
    method: "GET",
    url: `/api/user/predictions?limit=100${query}`,
    headers: { cookie },
  });
  return dataOf(res).items as Array<Record<string, any>>;
}

const home = (eventId: string, stake: unknown, extra: Record<string, unknown> = {}) => ({
  eventId,
  market: "1x2",
  outcome: "home",
  stake,
  ...extra,
});

describe("version-1 bets", () => {
  it("debits the stake and opens the prediction at the server's exact odds", async () => {
    await putEvent(t, "b1-ok");
    const p = await newPlayer();
    const res = await bet(t, p.cookie, home("b1-ok", 100, { expectedOdds: 2.15 }));
    const data = dataOf(res, 201);
    expect(data.balance).toBe(900); // 1000 welcome − 100 stake
    expect(data.prediction).toEqual({
      id: expect.stringMatching(/^\d+$/),
      version: 1,
      eventId: "b1-ok",
      market: "1x2",
      outcome: "home",
      odds: 2.15,
      stake: 100,
      status: "open",
      payout: null,
      claimed: false,
      placedAt: NOW.toISOString(),
      settledAt: null,
    });

    // A later odds move does not reprice the placed bet.
    await putEvent(t, "b1-ok", {
      markets: [buildMarket("1x2", ["home", "Arsenal", 2.4], ["away", "Chelsea", 2.9])],
    });
    const [listed] = await history(p.cookie);
    expect(listed).toMatchObject({ id: data.prediction.id, odds: 2.15, stake: 100, status: "open" });
    expect(listed!.event).toMatchObject({ id: "b1-ok", status: "scheduled" });

    // Without expectedOdds the current price is taken: 2.4 now.
    const second = dataOf(await bet(t, p.cookie, home("b1-ok", 50)), 201);
    expect(second.prediction.odds).toBe(2.4);
    expect(second.balance).toBe(850); // 900 − 50
  });

  it("refuses a bet whose expectedOdds differ from the current odds (ODDS_CHANGED) and debits nothing", async () => {
    await putEvent(t, "b1-odds");
    const p = await newPlayer();
    const res = await bet(t, p.cookie, home("b1-odds", 100, { expectedOdds: 2.1 }));
    expectError(res, 409, "ODDS_CHANGED");
    expect(res.body.details).toEqual({ currentOdds: 2.15 });
    // 2.150 and 2.15 are the same price.
    dataOf(await bet(t, p.cookie, home("b1-odds", 1, { expectedOdds: 2.15 })), 201);
    // Nothing was debited by the refused bet: the remaining 999 (1000 − 1) can all be staked.
    expect(dataOf(await bet(t, p.cookie, home("b1-odds", 999)), 201).balance).toBe(0);
    expect(await history(p.cookie)).toHaveLength(2);
  });

  it("refuses a stake above the balance (INSUFFICIENT_CREDITS)", async () => {
    await putEvent(t, "b1-poor");
    const p = await newPlayer();
    expectError(await bet(t, p.cookie, home("b1-poor", 1001)), 409, "INSUFFICIENT_CREDITS");
    expect(await history(p.cookie)).toHaveLength(0);
    expect(dataOf(await bet(t, p.cookie, home("b1-poor", 1000)), 201).balance).toBe(0);
    expectError(await bet(t, p.cookie, home("b1-poor", 1)), 409, "INSUFFICIENT_CREDITS");
    expect(await history(p.cookie)).toHaveLength(1);
  });

  it("closes betting at exactly kickoff (EVENT_CLOSED)", async () => {
    await putEvent(t, "b1-kick");
    const p = await newPlayer();
    const kickoff = new Date(KICKOFF);
    t.clock.set(new Date(kickoff.getTime() - 1)); // 1 ms before kickoff: still open
    expect(dataOf(await bet(t, p.cookie, home("b1-kick", 10)), 201).balance).toBe(990);
    t.clock.set(kickoff); // exactly kickoff
    expectError(await bet(t, p.cookie, home("b1-kick", 10)), 409, "EVENT_CLOSED");
    t.clock.set(new Date(kickoff.getTime() + 3600_000)); // an hour later
    expectError(await bet(t, p.cookie, home("b1-kick", 10)), 409, "EVENT_CLOSED");
    // The refused bets debited nothing: 990 left.
    t.clock.set(NOW);
    expect(dataOf(await bet(t, p.cookie, home("b1-kick", 990)), 201).balance).toBe(0);
  });

  it.each(["live", "finished", "cancelled"])(
    "refuses bets on a %s event before its kickoff",
    async (status) => {
      await putEvent(t, `b1-${status}`, { status });
      const p = await newPlayer();
      expectError(await bet(t, p.cookie, home(`b1-${status}`, 10)), 409, "EVENT_CLOSED");
      expect(await history(p.cookie)).toHaveLength(0);
    },
  );

  it("answers 404 for an unknown event and 400 for an unknown market or outcome", async () => {
    await putEvent(t, "b1-keys");
    const p = await newPlayer();
    expectError(await bet(t, p.cookie, home("b1-nope", 10)), 404, "NOT_FOUND");
    expectInvalid(await bet(t, p.cookie, { ...home("b1-keys", 10), market: "corners" }), "body.market");
    expectInvalid(await bet(t, p.cookie, { ...home("b1-keys", 10), outcome: "over" }), "body.outcome");
    expect(await history(p.cookie)).toHaveLength(0);
  });

  it.each([
    ["0", 0],
    ["-1", -1],
    ["1.5", 1.5],
    ["null", null],
  ])("refuses stake %s with 400 naming body.stake", async (_name, stake) => {
    await putEvent(t, "b1-stake");
    const p = await newPlayer();
    expectInvalid(await bet(t, p.cookie, home("b1-stake", stake)), "body.stake");
    expect(await history(p.cookie)).toHaveLength(0);
  });

  // JSON bodies are validated without type coercion (src/http/validation.ts): "10" and true are not integers.
  it.each([
    ['"10" (a string)', "10"],
    ["true", true],
  ])("refuses stake %s with 400 naming body.stake", async (_name, stake) => {
    await putEvent(t, "b1-stake");
    const p = await newPlayer();
    expectInvalid(await bet(t, p.cookie, home("b1-stake", stake)), "body.stake");
  });

  it("refuses malformed bodies with 400 naming the field", async () => {
    await putEvent(t, "b1-body");
    const p = await newPlayer();
    expectInvalid(await bet(t, p.cookie, home("b1-body", 10, { bonus: 5 })), "body.bonus");
    expectInvalid(
      await bet(t, p.cookie, { eventId: "b1-body", market: "1x2", outcome: "home" }),
      "body.stake",
    );
    expectInvalid(await bet(t, p.cookie, home("b1-body", 10, { expectedOdds: 2.1555 })), "body.expectedOdds");
    expectInvalid(await bet(t, p.cookie, home("b1-body", 10, { expectedOdds: 1 })), "body.expectedOdds");
    expectInvalid(await bet(t, p.cookie, home("bad id!", 10)), "body.eventId");
    expect(await history(p.cookie)).toHaveLength(0);
  });

  it("needs a session (401)", async () => {
    await putEvent(t, "b1-anon");
    expectError(
      await call(t.app, { method: "POST", url: "/api/pred2earn/bet-placed", payload: home("b1-anon", 10) }),
      401,
      "UNAUTHENTICATED",
    );
    expectError(await bet(t, "session=not-a-jwt", home("b1-anon", 10)), 401, "UNAUTHENTICATED");
  });

  it("never overdraws: 50 concurrent bets of 30 from 1000 credits → 33 placed, 17 INSUFFICIENT_CREDITS", async () => {
    await putEvent(t, "b1-race");
    const p = await newPlayer();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => bet(t, p.cookie, home("b1-race", 30))),
    );
    const placed = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    // floor(1000 / 30) = 33 stakes fit (990 credits); 50 − 33 = 17 are refused.
    expect(placed).toHaveLength(33);
    expect(refused).toHaveLength(17);
    for (const r of refused) expectError(r, 409, "INSUFFICIENT_CREDITS");
    // Each success saw its own balance: 1000 − 30k for k = 1..33, i.e. 970, 940, …, 10.
    const balances = placed.map((r) => r.body.data.balance as number).sort((a, b) => a - b);
    expect(balances).toEqual(Array.from({ length: 33 }, (_, i) => 10 + 30 * i));
    expect(await history(p.cookie)).toHaveLength(33);
    // 1000 − 33 × 30 = 10 left: 11 is too much, 1 leaves 9.
    expectError(await bet(t, p.cookie, home("b1-race", 11)), 409, "INSUFFICIENT_CREDITS");
    expect(dataOf(await bet(t, p.cookie, home("b1-race", 1)), 201).balance).toBe(9);
    // The live stream's balance.changed of each debit, in commit order (one player's debits queue on the row of
    // the player), each the balance after it, however the 50 bets were grouped: 970, 940, …, 10, then 9. The
    // first (1000) is the welcome credits' of the sign-in.
    const credits = await rows<{ payload: { credits: number } }>(
      t.database.db,
      sql`select payload from domain_events where type = 'balance.changed' and user_id = ${p.userId}
          order by id`,
    );
    expect(credits.map((e) => e.payload.credits)).toEqual([
      1000,
      ...Array.from({ length: 33 }, (_, i) => 970 - 30 * i),
      9,
    ]);
  });

  it("answers each of many bets sent together on its own: refusals in a group leave the others and their credits alone", async () => {
    await putEvent(t, "b1-group");
    await putEvent(t, "b1-group-live", { status: "live" });
    const [a, b, c] = await Promise.all([newPlayer(), newPlayer(), newPlayer()]);
    // Sent in one turn: the bets are committed together (db/group-commit.ts), each still checked alone.
    const results = await Promise.all([
      bet(t, a.cookie, home("b1-group", 600)),
      bet(t, a.cookie, home("b1-group", 600)), // one of the two: 400 left, the other INSUFFICIENT_CREDITS
      bet(t, a.cookie, home("b1-group-live", 10)), // EVENT_CLOSED
      bet(t, a.cookie, home("b1-group-none", 10)), // NOT_FOUND
      bet(t, b.cookie, home("b1-group", 10, { expectedOdds: 9.99 })), // ODDS_CHANGED
      bet(t, b.cookie, home("b1-group", 10, { outcome: "nobody" })), // 400
      bet(t, c.cookie, home("b1-group", 1000)), // 0 left
    ]);
    const [first, second] = results;
    const placed = [first!, second!].filter((r) => r.status === 201);
    expect(placed).toHaveLength(1);
    expect(dataOf(placed[0]!, 201).balance).toBe(400);
    expectError([first!, second!].find((r) => r.status !== 201)!, 409, "INSUFFICIENT_CREDITS");
    expectError(results[2]!, 409, "EVENT_CLOSED");
    expectError(results[3]!, 404, "NOT_FOUND");
    expectError(results[4]!, 409, "ODDS_CHANGED");
    expectInvalid(results[5]!, "body.outcome");
    expect(dataOf(results[6]!, 201).balance).toBe(0);
    expect((await history(a.cookie)).map((p) => p.stake)).toEqual([600]);
    expect(await history(b.cookie)).toEqual([]);
    expect(dataOf(await bet(t, b.cookie, home("b1-group", 1000)), 201).balance).toBe(0);
  });
});

describe("the stored version-1 prediction", () => {
  it("is what the insert answers, row for row; an input it leaves out (no open event) answers null", async () => {
    await putEvent(t, "b1-rows");
    const p = await newPlayer();
    const open = {
      userId: BigInt(p.userId),
      eventId: "b1-rows",
      market: "1x2",
      outcome: "home",
      oddsMilli: 2150n,
    };
    const answers = await t.database.db.transaction((tx) =>
      insertOpenPredictions(
        tx,
        [
          { ...open, stake: 10, balanceAfter: 990, idempotencyKey: "rows-1" },
          { ...open, eventId: "b1-rows-missing", stake: 20, balanceAfter: 970, idempotencyKey: null },
          { ...open, outcome: "away", stake: 30, balanceAfter: 960, idempotencyKey: null },
        ],
        NOW,
      ),
    );
    expect(answers[1]).toBeNull();
    expect(answers[0]).toMatchObject({
      stake: 10,
      balanceAfter: 990,
      idempotencyKey: "rows-1",
      placedAt: NOW,
    });
    expect(answers[2]).toMatchObject({ outcome: "away", stake: 30, status: "open", idempotencyKey: null });
    for (const answer of [answers[0]!, answers[2]!]) {
      expect(await findPrediction(t.database.db, answer.id)).toEqual(answer);
    }
  });
});

describe("Idempotency-Key on version-1 bets", () => {
  it("replays the first answer for the same key and body", async () => {
    await putEvent(t, "b1-idem");
    const p = await newPlayer();
    const key = { "idempotency-key": "bet-idem-1" };
    const first = dataOf(await bet(t, p.cookie, home("b1-idem", 100), key), 201);
    expect(first.balance).toBe(900); // 1000 − 100
    // A second bet without the key moves the balance on: 900 − 50 = 850.
    expect(dataOf(await bet(t, p.cookie, home("b1-idem", 50)), 201).balance).toBe(850);

    const replay = await bet(t, p.cookie, home("b1-idem", 100), key);
    expect(replay.status).toBe(201);
    expect(replay.body.data).toEqual(first); // same prediction id, same balance as first answered
    expect(await history(p.cookie)).toHaveLength(2);
    // Only two stakes were debited: 1000 − 100 − 50 = 850 remain.
    expect(dataOf(await bet(t, p.cookie, home("b1-idem", 850)), 201).balance).toBe(0);
  });

  it("places one prediction and debits once for 10 concurrent requests with one key", async () => {
    await putEvent(t, "b1-idem-race");
    const p = await newPlayer();
    const key = { "idempotency-key": "bet-idem-race" };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => bet(t, p.cookie, home("b1-idem-race", 100), key)),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(new Set(results.map((r) => r.body.data.prediction.id)).size).toBe(1);
    expect(new Set(results.map((r) => r.body.data.balance))).toEqual(new Set([900])); // 1000 − 100, once
    expect(await history(p.cookie)).toHaveLength(1);
    expect(dataOf(await bet(t, p.cookie, home("b1-idem-race", 900)), 201).balance).toBe(0);
  });

  it("refuses the same key with a different body (409) and keys are per user", async () => {
    await putEvent(t, "b1-idem-diff");
    const p = await newPlayer();
    const other = await newPlayer();
    const key = { "idempotency-key": "bet-idem-diff" };
    const first = dataOf(await bet(t, p.cookie, home("b1-idem-diff", 100), key), 201);
    expectError(await bet(t, p.cookie, home("b1-idem-diff", 101), key), 409, "CONFLICT");
    expectError(
      await bet(t, p.cookie, { ...home("b1-idem-diff", 100), outcome: "away" }, key),
      409,
      "CONFLICT",
    );
    expect(await history(p.cookie)).toHaveLength(1);
    // Another player's identical key is their own.
    const theirs = dataOf(await bet(t, other.cookie, home("b1-idem-diff", 100), key), 201);
    expect(theirs.prediction.id).not.toBe(first.prediction.id);
    expect(theirs.balance).toBe(900);
    // A malformed key is a 400.
    expectInvalid(
      await bet(t, p.cookie, home("b1-idem-diff", 1), { "idempotency-key": "has space" }),
      "headers.idempotency-key",
    );
  });
});

describe("version-2 bets", () => {
  const report = (eventId: string, i: number, extra: Record<string, unknown> = {}) => ({
    eventId,
    market: "total",
    outcome: "over",
    stakeUsdc: "10.5",
    odds: 1.95,
    txHash: txHash(i),
    chainId: 8453,
    ...extra,
  });

  it("stays pending with the default verifier and is open with CHAIN_VERIFIER=trust", async () => {
    await putEvent(t, "b2-ok");
    const p = await newPlayer();
    const pending = dataOf(await betV2(t, p.cookie, report("b2-ok", 1)), 201).prediction;
    expect(pending).toEqual({
      id: expect.stringMatching(/^\d+$/),
      version: 2,
      eventId: "b2-ok",
      market: "total",
      outcome: "over",
      odds: 1.95,
      stakeUsdc: "10.500000",
      status: "pending",
      payoutUsdc: null,
      claimed: false,
      placedAt: NOW.toISOString(),
      settledAt: null,
      txHash: txHash(1),
      chainId: 8453,
      rejectReason: null,
      rejectMessage: null,
    });

    const open = dataOf(await betV2(trusting, p.cookie, report("b2-ok", 2, { stakeUsdc: "0.000001" })), 201);
    expect(open.prediction).toMatchObject({ status: "open", stakeUsdc: "0.000001", txHash: txHash(2) });
    // A USDC bet debits no credits: the full 1000 can still be staked.
    expect(dataOf(await bet(t, p.cookie, home("b2-ok", 1000)), 201).balance).toBe(0);
  });

  it.each([
    ["0", "body.stakeUsdc"],
    ["1.1234567", "body.stakeUsdc"],
    ["-1", "body.stakeUsdc"],
    ["1e3", "body.stakeUsdc"],
    ["", "body.stakeUsdc"],
  ])("refuses stakeUsdc %j with 400", async (stakeUsdc, field) => {
    await putEvent(t, "b2-stake");
    const p = await newPlayer();
    expectInvalid(await betV2(t, p.cookie, report("b2-stake", 10, { stakeUsdc })), field);
    expect(await history(p.cookie)).toHaveLength(0);
  });

  it("refuses a chain id outside SIWE_CHAIN_IDS and malformed reports with 400", async () => {
    await putEvent(t, "b2-body");
    const p = await newPlayer();
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 20, { chainId: 137 })), "body.chainId");
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 20, { chainId: "8453x" })), "body.chainId");
    // Beyond what a chain_id column holds (before: accepted by the schema, a 500 at the insert).
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 20, { chainId: 2147483648 })), "body.chainId");
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 20, { txHash: "0x1234" })), "body.txHash");
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 20, { odds: 1.9555 })), "body.odds");
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 20, { wallet: "0x00" })), "body.wallet");
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 20, { outcome: "home" })), "body.outcome");
    expectError(await betV2(t, p.cookie, report("b2-nope", 20)), 404, "NOT_FOUND");
    expect(await history(p.cookie)).toHaveLength(0);
  });

  // Without body coercion the number 10.5 is not the string stakeUsdc requires.
  it("refuses a stakeUsdc sent as a JSON number with 400", async () => {
    await putEvent(t, "b2-body");
    const p = await newPlayer();
    expectInvalid(await betV2(t, p.cookie, report("b2-body", 21, { stakeUsdc: 10.5 })), "body.stakeUsdc");
  });

  it("refuses a report at or after kickoff (EVENT_CLOSED)", async () => {
    await putEvent(t, "b2-kick");
    const p = await newPlayer();
    t.clock.set(new Date(KICKOFF));
    expectError(await betV2(t, p.cookie, report("b2-kick", 30)), 409, "EVENT_CLOSED");
    expect(await history(p.cookie)).toHaveLength(0);
  });

  it("keeps one prediction per txHash: an identical report replays it, any other report of it is 409", async () => {
    await putEvent(t, "b2-dup");
    const p = await newPlayer();
    const other = await newPlayer();
    const first = dataOf(await betV2(t, p.cookie, report("b2-dup", 40)), 201).prediction;
    // Identical, also with the hash in upper case and the stake written with trailing zeros.
    const again = await betV2(t, p.cookie, report("b2-dup", 40, { stakeUsdc: "10.500000" }));
    expect(dataOf(again, 201).prediction).toEqual(first);
    const upper = `0x${txHash(40).slice(2).toUpperCase()}`;
    expect(dataOf(await betV2(t, p.cookie, report("b2-dup", 40, { txHash: upper })), 201).prediction.id).toBe(
      first.id,
    );

    expectError(await betV2(t, p.cookie, report("b2-dup", 40, { stakeUsdc: "11" })), 409, "CONFLICT");
    expectError(await betV2(t, p.cookie, report("b2-dup", 40, { outcome: "under" })), 409, "CONFLICT");
    expectError(await betV2(t, p.cookie, report("b2-dup", 40, { odds: 2 })), 409, "CONFLICT");
    expectError(await betV2(t, p.cookie, report("b2-dup", 40, { chainId: 1 })), 409, "CONFLICT");
    expectError(await betV2(t, other.cookie, report("b2-dup", 40)), 409, "CONFLICT");
    expect(await history(p.cookie)).toHaveLength(1);
    expect(await history(other.cookie)).toHaveLength(0);
  });

  it("records one prediction for 10 concurrent identical reports of one transaction", async () => {
    await putEvent(t, "b2-race");
    const p = await newPlayer();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => betV2(t, p.cookie, report("b2-race", 45))),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(new Set(results.map((r) => r.body.data.prediction.id)).size).toBe(1);
    expect(await history(p.cookie)).toHaveLength(1);
  });

  it("replays an Idempotency-Key only for the same transaction", async () => {
    await putEvent(t, "b2-idem");
    const p = await newPlayer();
    const key = { "idempotency-key": "b2-idem-key" };
    const first = dataOf(await betV2(t, p.cookie, report("b2-idem", 50), key), 201).prediction;
    expect(dataOf(await betV2(t, p.cookie, report("b2-idem", 50), key), 201).prediction).toEqual(first);
    // The same key for another transaction is a different request: 409, and that transaction is not recorded.
    expectError(await betV2(t, p.cookie, report("b2-idem", 51), key), 409, "CONFLICT");
    expect((await history(p.cookie)).map((x) => x.txHash)).toEqual([txHash(50)]);
  });

  it("needs a wallet: an identity-only player gets 403", async () => {
    await putEvent(t, "b2-oidc");
    const token = await issuer.token("bets-identity-only", NOW);
    const res = await call(t.app, { method: "POST", url: "/api/auth/oidc", payload: { idToken: token } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.user.wallet).toBeNull();
    const cookie = `session=${res.cookies.find((c) => c.name === "session")!.value}`;
    expectError(await betV2(t, cookie, report("b2-oidc", 60)), 403, "FORBIDDEN");
    expect(await history(cookie)).toHaveLength(0);
    // Credits bets need no wallet: 1000 welcome − 10.
    expect(dataOf(await bet(t, cookie, home("b2-oidc", 10)), 201).balance).toBe(990);
  });
});
