/**
 * Version-2 bets on a real local chain (ganache), driven through the service: players get a signed quote
 * (`POST /api/pred2earn/quote`), place the bet with it on the compiled SpBetting, and the service finds the bet
 * (the bet indexer, or a `bet-placed-v2` report that reads the receipt). What the contract refuses, and what the
 * service refuses to count, is tested here too.
 *
 * The service's clock is pinned at Fri 2026-11-20 12:00 UTC; the chain's starts there and runs in real time.
 * Events kick off Wed 2026-11-25 18:00 UTC unless a test says otherwise. CHAIN_CONFIRMATIONS=2: a block is final
 * once one more block is mined on top (ganache answers the `finalized` tag with the latest block).
 */
import {
  type BaseError,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  recoverTypedDataAddress,
} from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spBettingAbi } from "../../contracts/abi.js";
import { onchainMarketId } from "../../contracts/bet-encoding.js";
import { QUOTE_TYPES } from "../../contracts/typed-data.js";
import { call, createTestApp, signIn, testConfig } from "../../test/app.js";
import { ODDS_SIGNER, PAYOUT_SIGNER, type SignedQuote } from "../../test/chain/betting-fixture.js";
import {
  type ChainWorld,
  history,
  homeReport,
  type Player,
  silent,
  startChainWorld,
  weekSp,
} from "../../test/chain/chain-world.js";
import { LOCAL_CHAIN_ID } from "../../test/chain/local-chain.js";
import { buildMarket } from "../../test/factories.js";
import { startTestIssuer } from "../../test/oidc-issuer.js";
import {
  betV2,
  dataOf,
  expectError,
  expectInvalid,
  post,
  postResult,
  putEvent,
} from "../../test/player-api.js";
import { findPrediction } from "../predictions/predictions.repository.js";
import { startChainJobs } from "./chain-jobs.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const NOW_S = BigInt(NOW.getTime() / 1000);

let w: ChainWorld;
beforeAll(async () => {
  w = await startChainWorld({ now: NOW, env: { CHAIN_CONFIRMATIONS: "2" } });
});
afterAll(async () => {
  await w?.close();
});

async function report(p: Player, body: Record<string, unknown>) {
  return dataOf(await betV2(w.t, p.cookie, body), 201).prediction;
}

const quoteRes = (cookie: string, body: Record<string, unknown>) =>
  post(w.t, "/api/pred2earn/quote", cookie, body);

/** The name of the contract error a placeBet from test key i would revert with (simulated, then sent). */
async function revertOf(i: number, bet: SignedQuote, amount: bigint): Promise<string> {
  await w.betting.fund(i, amount);
  const args = [
    {
      bettor: bet.quote.bettor as Hex,
      marketId: bet.quote.marketId as Hex,
      outcome: bet.quote.outcome,
      odds: BigInt(bet.quote.odds),
      expiry: BigInt(bet.quote.expiry),
    },
    bet.signature,
    amount,
  ] as const;
  let name = "none";
  try {
    await w.chain.client.simulateContract({
      address: w.betting.betting,
      abi: spBettingAbi,
      functionName: "placeBet",
      args,
      account: w.chain.address(i),
    });
  } catch (err) {
    // Ganache answers a revert with JSON-RPC code -32000 and the revert data, which viem leaves undecoded.
    const withData = (err as BaseError).walk((e) => typeof (e as { data?: unknown }).data === "string");
    const data = (withData as { data?: Hex } | null)?.data;
    name = data ? decodeErrorResult({ abi: spBettingAbi, data }).errorName : "undecoded";
  }
  // And for real: the transaction is mined, reverted, and places nothing.
  const tx = await w.chain.send(i, {
    to: w.betting.betting,
    data: encodeFunctionData({ abi: spBettingAbi, functionName: "placeBet", args }),
  });
  expect((await w.chain.client.getTransactionReceipt({ hash: tx })).status).toBe("reverted");
  return name;
}

describe("POST /api/pred2earn/quote", () => {
  it("signs the current odds for the signed-in wallet until now + QUOTE_TTL_SECONDS", async () => {
    await putEvent(w.t, "q-ok");
    const p = await w.newPlayer();
    const q = dataOf(await quoteRes(p.cookie, { eventId: "q-ok", market: "1x2", outcome: "draw" }));
    expect(q).toEqual({
      eventId: "q-ok",
      market: "1x2",
      outcome: "draw",
      odds: 3.4,
      expiresAt: "2026-11-20T13:00:00.000Z", // NOW + 3600 s
      chainId: LOCAL_CHAIN_ID,
      contract: w.betting.betting,
      quote: {
        bettor: p.wallet,
        marketId: onchainMarketId("q-ok", "1x2"),
        outcome: 1,
        odds: "3400",
        expiry: String(NOW_S + 3600n),
      },
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    });
    const signer = await recoverTypedDataAddress({
      domain: {
        name: "SpBetting",
        version: "1",
        chainId: LOCAL_CHAIN_ID,
        verifyingContract: w.betting.betting,
      },
      types: QUOTE_TYPES,
      primaryType: "Quote",
      message: { ...q.quote, odds: BigInt(q.quote.odds), expiry: BigInt(q.quote.expiry) },
      signature: q.signature,
    });
    expect(signer).toBe(ODDS_SIGNER);
  });

  it("never lets a quote outlive kickoff: expiry is the last second before it", async () => {
    await putEvent(w.t, "q-soon", { kickoffAt: "2026-11-20T12:10:00.000Z" });
    const p = await w.newPlayer();
    const q = dataOf(await quoteRes(p.cookie, { eventId: "q-soon", market: "total", outcome: "under" }));
    expect(q).toMatchObject({
      expiresAt: "2026-11-20T12:09:59.000Z",
      quote: { outcome: 1, odds: "1850", expiry: String(NOW_S + 599n) },
    });
  });

  it("refuses the signed-out (401), a closed event (409), an unknown event, market or outcome (404)", async () => {
    expectError(
      await call(w.t.app, {
        method: "POST",
        url: "/api/pred2earn/quote",
        payload: { eventId: "x", market: "1x2", outcome: "home" },
      }),
      401,
      "UNAUTHENTICATED",
    );
    await putEvent(w.t, "q-gone", { kickoffAt: "2026-11-20T11:00:00.000Z" });
    const p = await w.newPlayer();
    expectError(
      await quoteRes(p.cookie, { eventId: "q-gone", market: "1x2", outcome: "home" }),
      409,
      "EVENT_CLOSED",
    );
    expectError(
      await quoteRes(p.cookie, { eventId: "q-none", market: "1x2", outcome: "home" }),
      404,
      "NOT_FOUND",
    );
    await putEvent(w.t, "q-keys");
    expectError(
      await quoteRes(p.cookie, { eventId: "q-keys", market: "btts", outcome: "yes" }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await quoteRes(p.cookie, { eventId: "q-keys", market: "1x2", outcome: "over" }),
      404,
      "NOT_FOUND",
    );
    expectInvalid(await quoteRes(p.cookie, { eventId: "q-keys", market: "1x2" }), "body.outcome");
  });

  it("refuses an identity-only account (403) and answers 409 QUOTES_UNAVAILABLE without an odds signer", async () => {
    const issuer = await startTestIssuer();
    const bare = await createTestApp({ now: NOW, env: issuer.env, database: w.t.database });
    try {
      // Signed in through `bare` (identity login configured); the session is valid on every app of the database.
      const token = await issuer.token("q-identity", NOW);
      const signedIn = await call(bare.app, {
        method: "POST",
        url: "/api/auth/oidc",
        payload: { idToken: token },
      });
      expect(signedIn.body.data.user.wallet).toBeNull();
      const cookie = `session=${signedIn.cookies.find((c) => c.name === "session")!.value}`;
      await putEvent(w.t, "q-who");
      expectError(
        await quoteRes(cookie, { eventId: "q-who", market: "1x2", outcome: "home" }),
        403,
        "FORBIDDEN",
      );

      const p = await signIn(bare, `0x${"77".repeat(32)}`);
      const none = await post(bare, "/api/pred2earn/quote", p.cookie, {
        eventId: "q-who",
        market: "1x2",
        outcome: "home",
      });
      expectError(none, 409, "QUOTES_UNAVAILABLE");
    } finally {
      await bare.close();
      await issuer.close();
    }
  });
});

describe("GET /api/chain/info", () => {
  it("publishes the chain, contract, USDC (read from the contract) and odds signer, checksummed", async () => {
    expect(dataOf(await call(w.t.app, { method: "GET", url: "/api/chain/info" }))).toEqual({
      chainId: LOCAL_CHAIN_ID,
      bettingContract: w.betting.betting,
      usdc: w.betting.usdc,
      oddsSigner: ODDS_SIGNER,
      payoutSigner: PAYOUT_SIGNER,
      quoteTtlSeconds: 3600,
      confirmations: 2,
      finality: "finalized",
      prizeDistributorAddress: null,
    });
  });

  it("answers nulls without a chain", async () => {
    const bare = await createTestApp({ now: NOW, database: w.t.database });
    try {
      expect(dataOf(await call(bare.app, { method: "GET", url: "/api/chain/info" }))).toEqual({
        chainId: null,
        bettingContract: null,
        usdc: null,
        oddsSigner: null,
        payoutSigner: null,
        quoteTtlSeconds: 60,
        confirmations: 3,
        finality: "finalized",
        prizeDistributorAddress: null,
      });
    } finally {
      await bare.close();
    }
  });
});

describe("what the contract refuses", () => {
  it("reverts altered odds, another bettor, another outcome, another market, an expired or reused quote", async () => {
    await putEvent(w.t, "c-rev");
    const p = await w.newPlayer();
    const q = await w.quote(p, "c-rev", "1x2", "home");
    const altered = (over: Partial<SignedQuote["quote"]>) => ({ ...q, quote: { ...q.quote, ...over } });
    expect(await revertOf(p.i, altered({ odds: "500000" }), 1_000_000n)).toBe("BadQuoteSigner");
    expect(await revertOf(p.i, altered({ outcome: 2 }), 1_000_000n)).toBe("BadQuoteSigner");
    expect(await revertOf(p.i, altered({ marketId: onchainMarketId("c-rev", "total") }), 1_000_000n)).toBe(
      "BadQuoteSigner",
    );
    expect(await revertOf(p.i, altered({ expiry: String(NOW_S + 7200n) }), 1_000_000n)).toBe(
      "BadQuoteSigner",
    );
    const other = await w.newPlayer();
    expect(await revertOf(other.i, q, 1_000_000n)).toBe("NotQuoteBettor");
    const stale = await w.betting.sign({
      bettor: p.wallet as Hex,
      marketId: onchainMarketId("c-rev", "1x2"),
      outcome: 0,
      odds: 2150n,
      expiry: NOW_S - 1n,
    });
    expect(await revertOf(p.i, stale, 1_000_000n)).toBe("QuoteExpired");
    await w.betting.placeBet(p.i, q, 1_000_000n);
    expect(await revertOf(p.i, q, 1_000_000n)).toBe("QuoteAlreadyUsed");
  });

  it("counts nothing placed with a quote the service did not issue, even when the contract took it", async () => {
    // A compromised or mistaken owner hands the contract's signer role to the attacker's key.
    const attackerKey: Hex = `0x${"a7".repeat(32)}`;
    await w.betting.setOddsSigner(privateKeyToAddress(attackerKey));
    try {
      await putEvent(w.t, "c-rogue", {
        markets: [buildMarket("1x2", ["home", "Home", 1.5], ["away", "Away", 2.5])],
      });
      const p = await w.newPlayer();
      const forged = await w.betting.sign(
        {
          bettor: p.wallet as Hex,
          marketId: onchainMarketId("c-rogue", "1x2"),
          outcome: 0,
          odds: 500_000n,
          expiry: NOW_S + 3600n,
        },
        { key: attackerKey },
      );
      const tx = await w.betting.placeBet(p.i, forged, 1_000_000n);
      expect((await w.chain.client.getTransactionReceipt({ hash: tx })).status).toBe("success");
      await w.chain.mine(1);
      await w.index();
      expect(await history(w.t, p.cookie)).toEqual([]);
      const res = await betV2(w.t, p.cookie, homeReport("c-rogue", tx, { stakeUsdc: "1", odds: 500 }));
      expectError(res, 404, "BET_NOT_FOUND");
      expect(res.body.error).toMatch(
        /holds no bet of the betting contract 0x[0-9a-fA-F]{40} placed with a quote of this service$/,
      );
      w.t.clock.set(new Date("2026-11-25T20:00:00.000Z"));
      dataOf(await postResult(w.t, "c-rogue", { status: "finished", winningOutcome: "home" }));
      expect(await weekSp(w.t, p.cookie, 3)).toBe(0);
    } finally {
      w.t.clock.set(NOW);
      await w.betting.setOddsSigner(ODDS_SIGNER);
    }
  });
});

describe("bets found on-chain", () => {
  it("confirms a reported bet at the quote's odds once its block is final, keyed by its log", async () => {
    await putEvent(w.t, "b-ok");
    const p = await w.newPlayer();
    const tx = await w.bet(p, "b-ok", "home", 10_000_000n);
    await w.chain.mine(1);
    const prediction = await report(p, homeReport("b-ok", tx));
    expect(prediction).toMatchObject({
      version: 2,
      status: "open",
      stakeUsdc: "10.000000",
      odds: 2.15,
      txHash: tx,
      chainId: LOCAL_CHAIN_ID,
      rejectReason: null,
      rejectMessage: null,
    });
    const receipt = await w.chain.client.getTransactionReceipt({ hash: tx });
    const stored = (await findPrediction(w.t.database.db, BigInt(prediction.id)))!;
    // The receipt's logs: TestUSDC Transfer (0), then BetPlaced (1), which is the bet.
    expect(stored).toMatchObject({
      logIndex: 1,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      contract: w.betting.betting.toLowerCase(),
    });
    // Reporting again, in any case of the hash, answers the same prediction.
    expect((await report(p, homeReport("b-ok", tx.toUpperCase().replace("0X", "0x") as Hex))).id).toBe(
      prediction.id,
    );
  });

  it("maps a market and outcome through the quote (total/under is index 1)", async () => {
    await putEvent(w.t, "b-under");
    const p = await w.newPlayer();
    const tx = await w.bet(p, "b-under", "under", 4_000_000n, "total");
    await w.chain.mine(1);
    const prediction = await report(
      p,
      homeReport("b-under", tx, { market: "total", outcome: "under", stakeUsdc: "4", odds: 1.85 }),
    );
    expect(prediction).toMatchObject({ status: "open", market: "total", outcome: "under", odds: 1.85 });
  });

  it("keeps a bet pending until its block is final; the indexer then opens it", async () => {
    await putEvent(w.t, "b-later");
    const p = await w.newPlayer();
    const tx = await w.bet(p, "b-later", "home", 10_000_000n);
    const prediction = await report(p, homeReport("b-later", tx)); // 1 confirmation
    expect(prediction.status).toBe("pending");
    await w.index();
    expect((await history(w.t, p.cookie))[0]).toMatchObject({ id: prediction.id, status: "pending" });
    await w.chain.mine(1);
    await w.index();
    expect((await history(w.t, p.cookie))[0]).toMatchObject({ id: prediction.id, status: "open" });
  });

  it("refuses a report of a transaction not mined yet without recording anything; it counts once mined", async () => {
    await putEvent(w.t, "b-pool");
    const p = await w.newPlayer();
    const q = await w.quote(p, "b-pool", "1x2", "home");
    await w.betting.fund(p.i, 10_000_000n);
    await w.chain.stopMining();
    let tx: Hex;
    try {
      tx = await w.betting.placeBet(p.i, q, 10_000_000n, { fund: false, wait: false });
      const early = await betV2(w.t, p.cookie, homeReport("b-pool", tx));
      expectError(early, 404, "BET_NOT_FOUND");
      expect(early.body.error).toBe(
        `Transaction ${tx} is not mined on chain ${LOCAL_CHAIN_ID}; report it once it is`,
      );
      expect(await history(w.t, p.cookie)).toEqual([]);
    } finally {
      await w.chain.startMining();
    }
    await w.chain.mine(2); // mines the transaction, then one block on top
    expect(await report(p, homeReport("b-pool", tx))).toMatchObject({ txHash: tx, status: "open" });
  });

  it("settles a bet at once when its event's result came before its block was final", async () => {
    await putEvent(w.t, "b-settled");
    const p = await w.newPlayer();
    const tx = await w.bet(p, "b-settled", "home", 10_000_000n);
    const prediction = await report(p, homeReport("b-settled", tx));
    expect(prediction.status).toBe("pending");
    w.t.clock.set(new Date("2026-11-25T20:00:00.000Z")); // after kickoff; the chain's clock is still on Nov 20
    try {
      dataOf(await postResult(w.t, "b-settled", { status: "finished", winningOutcome: "home" }));
      await w.chain.mine(1);
      await w.index();
      // floor(10 USDC × 2.15) = 21.5 USDC; SP = 10 × 100 × 2.15 = 2150
      expect((await history(w.t, p.cookie))[0]).toMatchObject({ status: "won", payoutUsdc: "21.500000" });
      expect(await weekSp(w.t, p.cookie, 3)).toBe(2150);
    } finally {
      w.t.clock.set(NOW);
    }
  });

  it("rejects a stake above 1,000,000 USDC, and skips one beyond 64 bits without stopping the indexer", async () => {
    await putEvent(w.t, "b-big");
    const p = await w.newPlayer();
    const big = await w.bet(p, "b-big", "home", 1_000_000_000_001n);
    const huge = await w.bet(p, "b-big", "away", 2n ** 70n);
    const after = await w.bet(p, "b-big", "draw", 1_000_000n);
    await w.chain.mine(1);
    await w.index();
    const mine = await history(w.t, p.cookie);
    expect(mine.map((x) => [x.txHash, x.status, x.rejectReason, x.rejectMessage])).toEqual([
      [after, "open", null, null],
      [
        big,
        "rejected",
        "STAKE_LIMIT",
        "stake 1000000.000001 USDC is outside the 0.000001 to 1000000 USDC a bet counts with",
      ],
    ]);
    expectError(
      await betV2(w.t, p.cookie, homeReport("b-big", huge, { outcome: "away", odds: 3.1 })),
      404,
      "BET_NOT_FOUND",
    );
  });
});

describe("reports that do not match the chain", () => {
  it("refuses a report for another chain than CHAIN_ID (400)", async () => {
    await putEvent(w.t, "r-chain");
    const p = await w.newPlayer();
    const tx = await w.bet(p, "r-chain", "home", 10_000_000n);
    expectInvalid(await betV2(w.t, p.cookie, homeReport("r-chain", tx, { chainId: 1 })), "body.chainId");
  });

  it("refuses a reverted transaction, one that is no bet, and a bet on another contract (404)", async () => {
    await putEvent(w.t, "r-none");
    const p = await w.newPlayer();
    const q = await w.quote(p, "r-none", "1x2", "home");
    const reverted = await w.betting.placeBet(p.i, q, 10_000_000n, { fund: false }); // no allowance
    await w.chain.mine(1);
    const res = await betV2(w.t, p.cookie, homeReport("r-none", reverted));
    expectError(res, 404, "BET_NOT_FOUND");
    expect(res.body.error).toBe(`Transaction ${reverted} reverted: it placed no bet`);

    const transfer = await w.chain.send(p.i, { to: w.chain.address(0), data: "0x" });
    await w.chain.mine(1);
    expectError(await betV2(w.t, p.cookie, homeReport("r-none", transfer)), 404, "BET_NOT_FOUND");

    const elsewhere = await w.betting.placeBet(
      p.i,
      await w.betting.sign(
        {
          bettor: p.wallet as Hex,
          marketId: onchainMarketId("r-none", "1x2"),
          outcome: 0,
          odds: 2150n,
          expiry: NOW_S + 3600n,
        },
        { contract: w.betting.otherBetting },
      ),
      10_000_000n,
      { contract: w.betting.otherBetting },
    );
    await w.chain.mine(1);
    expectError(await betV2(w.t, p.cookie, homeReport("r-none", elsewhere)), 404, "BET_NOT_FOUND");
  });

  it.each([
    ["stake", { stakeUsdc: "11" }, "stake 10.000000 USDC on-chain, reported 11.000000"],
    ["odds", { odds: 2.2 }, "odds 2.15 on-chain, reported 2.2"],
    [
      "outcome",
      { outcome: "away", odds: 3.1 },
      "outcome home on-chain, reported away; odds 2.15 on-chain, reported 3.1",
    ],
    ["market", { market: "total", outcome: "over" }, "the bet is on r-diff/1x2, reported r-diff/total"],
  ])(
    "refuses the bettor's report with another %s (409), which stays free to report",
    async (_, over, reason) => {
      await putEvent(w.t, "r-diff");
      const p = await w.newPlayer();
      const tx = await w.bet(p, "r-diff", "home", 10_000_000n);
      await w.chain.mine(1);
      const res = await betV2(w.t, p.cookie, homeReport("r-diff", tx, over));
      expectError(res, 409, "BET_MISMATCH");
      expect(res.body.error).toBe(`Transaction ${tx} holds your bet, but ${reason}`);
      expect(await report(p, homeReport("r-diff", tx))).toMatchObject({ status: "open" });
    },
  );

  it("answers 503 when the node cannot be reached, and records nothing", async () => {
    const offline = await createTestApp({
      now: NOW,
      database: w.t.database,
      env: { ...w.env, CHAIN_RPC_URL: "http://127.0.0.1:9/" },
    });
    try {
      await putEvent(w.t, "r-offline");
      const p = await w.newPlayer();
      const tx = await w.bet(p, "r-offline", "home", 10_000_000n);
      await w.chain.mine(1);
      expectError(await betV2(offline, p.cookie, homeReport("r-offline", tx)), 503, "SERVICE_UNAVAILABLE");
      expect(await history(w.t, p.cookie)).toEqual([]);
      expect(await report(p, homeReport("r-offline", tx))).toMatchObject({ status: "open" });
    } finally {
      await offline.close();
    }
  });
});

describe("the running chain jobs", () => {
  it("index bets every CHAIN_POLL_MS until stopped: an unreported bet opens in its bettor's history", async () => {
    await w.indexers.release(); // the jobs' indexer needs the leader lock the world's indexer holds
    const config = testConfig({ ...w.env, CHAIN_CONFIRMATIONS: "2", CHAIN_POLL_MS: "100" });
    const jobs = startChainJobs({ config, database: w.t.database, clock: w.t.clock, log: silent });
    try {
      await putEvent(w.t, "j-jobs");
      const p = await w.newPlayer();
      const tx = await w.bet(p, "j-jobs", "home", 10_000_000n);
      await w.chain.mine(1);
      await expect
        .poll(async () => (await history(w.t, p.cookie))[0]?.status, { timeout: 10_000 })
        .toBe("open");
      expect((await history(w.t, p.cookie))[0]).toMatchObject({ txHash: tx });
    } finally {
      await jobs.stop();
    }
  });
});

// Moves the chain's clock past a kickoff: runs last.
describe("kickoff", () => {
  it("rejects a bet mined at or after kickoff (the kickoff moved earlier after the quote)", async () => {
    await putEvent(w.t, "k-late");
    const p = await w.newPlayer();
    const q = await w.quote(p, "k-late", "1x2", "home"); // valid until 13:00
    await putEvent(w.t, "k-late", { kickoffAt: "2026-11-20T12:30:00.000Z" });
    await w.betting.fund(p.i, 10_000_000n);
    await w.chain.setTime(new Date("2026-11-20T12:40:00.000Z"));
    const tx = await w.betting.placeBet(p.i, q, 10_000_000n, { fund: false });
    await w.chain.mine(1);
    const prediction = await report(p, homeReport("k-late", tx));
    expect(prediction.status).toBe("rejected");
    expect(prediction.rejectReason).toBe("EVENT_CLOSED");
    expect(prediction.rejectMessage).toMatch(
      /^the bet was mined at 2026-11-20T12:40:0\d\.000Z, once betting on the event had closed at 2026-11-20T12:30:00\.000Z$/,
    );
  });
});
