/**
 * Version-2 bets verified from a real local chain (ganache) by the RPC verifier, driven through the service:
 * players sign in with the wallet that bets on-chain, report the transaction with `bet-placed-v2`, and the
 * background re-check (`recheckPendingBets`, or the running chain jobs) resolves what stayed pending.
 *
 * The chain's clock starts at the service's, Fri 2026-11-20 12:00 UTC; events kick off Wed 2026-11-25 18:00 UTC
 * unless a test says otherwise. CHAIN_CONFIRMATIONS=2: a transaction is confirmed once one more block is mined.
 * Every test uses its own events, players and transactions.
 */
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signIn, type TestApp, testConfig, testKey } from "../../test/app.js";
import { type BetOnChain, type BettingFixture, deployBetting } from "../../test/chain/betting-fixture.js";
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from "../../test/chain/local-chain.js";
import { betV2, dataOf, expectError, postResult, putEvent } from "../../test/player-api.js";
import { findPrediction } from "../predictions/predictions.repository.js";
import { recheckPendingBets } from "../predictions/report-onchain-bet.js";
import { onchainBetDeps, startChainJobs } from "./chain-jobs.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const silent = { warn: () => {}, error: () => {} };

let chain: LocalChain;
let betting: BettingFixture;
let t: TestApp;
let chainEnv: Record<string, string>;
beforeAll(async () => {
  chain = await startLocalChain({ startTime: NOW });
  betting = await deployBetting(chain);
  chainEnv = {
    CHAIN_VERIFIER: "rpc",
    CHAIN_RPC_URL: chain.url,
    BETTING_CONTRACT_ADDRESS: betting.betting,
    CHAIN_ID: String(LOCAL_CHAIN_ID),
    CHAIN_CONFIRMATIONS: "2",
    SIWE_CHAIN_IDS: `1,${LOCAL_CHAIN_ID}`,
  };
  t = await createTestApp({ now: NOW, env: chainEnv });
});
afterAll(async () => {
  await t?.close();
  await chain?.close();
});

let keys = 1;
/** A new player signed in with test key i, which is also a funded account on the chain. */
async function newPlayer() {
  const i = keys++;
  return { i, ...(await signIn(t, testKey(i))) };
}

/** 10 USDC on home (index 0 of market 1x2) at 2.15. */
const homeBet = (eventId: string, over: Partial<BetOnChain> = {}): BetOnChain => ({
  eventId,
  market: "1x2",
  outcome: 0,
  amount: 10_000_000n,
  oddsMilli: 2150n,
  ...over,
});

/** The `bet-placed-v2` body matching `homeBet`, for transaction `txHash`. */
const homeReport = (eventId: string, txHash: Hex, over: Record<string, unknown> = {}) => ({
  eventId,
  market: "1x2",
  outcome: "home",
  stakeUsdc: "10",
  odds: 2.15,
  txHash,
  chainId: LOCAL_CHAIN_ID,
  ...over,
});

async function report(cookie: string, body: Record<string, unknown>) {
  return dataOf(await betV2(t, cookie, body), 201).prediction;
}

/** One run of the background re-check over every pending bet. */
const recheck = () =>
  recheckPendingBets(
    onchainBetDeps({ config: t.config, database: t.database, clock: t.clock, log: silent }),
    {
      afterId: 0n,
      limit: 1000,
    },
  );

/** The player's prediction as `GET /api/user/predictions` serves it. */
async function served(cookie: string, id: string) {
  const res = await call(t.app, {
    method: "GET",
    url: "/api/user/predictions?limit=100",
    headers: { cookie },
  });
  return dataOf(res).items.find((p: { id: string }) => p.id === id);
}

describe("confirmed bets", () => {
  it("confirms a bet whose receipt matches the report, with the configured confirmations", async () => {
    await putEvent(t, "oc-ok");
    const p = await newPlayer();
    const tx = await betting.placeBet(p.i, homeBet("oc-ok"));
    await chain.mine(1); // 2 confirmations
    const prediction = await report(p.cookie, homeReport("oc-ok", tx));
    expect(prediction).toMatchObject({
      version: 2,
      status: "open",
      stakeUsdc: "10.000000",
      odds: 2.15,
      txHash: tx,
      chainId: LOCAL_CHAIN_ID,
      rejectReason: null,
    });
    // The receipt's logs: TestUSDC Transfer (0), then BetPlaced (1), which backs the prediction.
    const stored = await findPrediction(t.database.db, BigInt(prediction.id));
    expect(stored?.logIndex).toBe(1);
  });

  it("maps a market and an outcome to the on-chain eventId and outcome index (total/under is index 1)", async () => {
    await putEvent(t, "oc-under");
    const p = await newPlayer();
    const tx = await betting.placeBet(
      p.i,
      homeBet("oc-under", { market: "total", outcome: 1, oddsMilli: 1850n }),
    );
    await chain.mine(1);
    const prediction = await report(
      p.cookie,
      homeReport("oc-under", tx, { market: "total", outcome: "under", odds: 1.85 }),
    );
    expect(prediction.status).toBe("open");
  });

  it("keeps a bet pending until it has the confirmations, then the re-check confirms it", async () => {
    await putEvent(t, "oc-later");
    const p = await newPlayer();
    const tx = await betting.placeBet(p.i, homeBet("oc-later"));
    const prediction = await report(p.cookie, homeReport("oc-later", tx)); // 1 confirmation
    expect(prediction.status).toBe("pending");
    await recheck();
    expect((await served(p.cookie, prediction.id)).status).toBe("pending");
    await chain.mine(1);
    await recheck();
    expect(await served(p.cookie, prediction.id)).toMatchObject({ status: "open", rejectReason: null });
  });

  it("keeps a reported transaction that is not mined yet pending, and confirms it once mined", async () => {
    await putEvent(t, "oc-pool");
    const p = await newPlayer();
    await betting.fund(p.i, 10_000_000n);
    await chain.stopMining();
    let tx: Hex;
    try {
      tx = await betting.placeBet(p.i, homeBet("oc-pool"), { fund: false, wait: false });
      const prediction = await report(p.cookie, homeReport("oc-pool", tx));
      expect(prediction.status).toBe("pending");
      await recheck();
      expect((await served(p.cookie, prediction.id)).status).toBe("pending");
    } finally {
      await chain.startMining();
    }
    await chain.mine(2); // mines the transaction, then one block on top
    await recheck();
    const [mine] = (
      await call(t.app, { method: "GET", url: "/api/user/predictions", headers: { cookie: p.cookie } })
    ).body.data.items;
    expect(mine).toMatchObject({ txHash: tx, status: "open" });
  });

  it("settles a bet confirmed after its event's result at once", async () => {
    await putEvent(t, "oc-settled");
    const p = await newPlayer();
    const tx = await betting.placeBet(p.i, homeBet("oc-settled"));
    const prediction = await report(p.cookie, homeReport("oc-settled", tx));
    expect(prediction.status).toBe("pending");
    t.clock.set(new Date("2026-11-25T20:00:00.000Z")); // after kickoff; the chain's clock is still on Nov 20
    try {
      dataOf(await postResult(t, "oc-settled", { status: "finished", winningOutcome: "home" }));
      await chain.mine(1);
      await recheck();
      // floor(10 USDC × 2.15) = 21.5 USDC
      expect(await served(p.cookie, prediction.id)).toMatchObject({ status: "won", payoutUsdc: "21.500000" });
    } finally {
      t.clock.set(NOW);
    }
  });
});

describe("rejected bets", () => {
  /** Places `onChain` from player p (or from test key `from`), mines a block on top, reports `body`. */
  async function rejectedReason(
    onChain: BetOnChain,
    body: (tx: Hex) => Record<string, unknown>,
    from?: number,
  ) {
    await putEvent(t, onChain.eventId);
    const p = await newPlayer();
    const tx = await betting.placeBet(from ?? p.i, onChain);
    await chain.mine(1);
    const prediction = await report(p.cookie, body(tx));
    expect(prediction.status).toBe("rejected");
    return { reason: prediction.rejectReason as string, player: p };
  }

  it("rejects a reverted transaction", async () => {
    await putEvent(t, "oc-revert");
    const p = await newPlayer();
    const tx = await betting.placeBet(p.i, homeBet("oc-revert"), { fund: false }); // no allowance: reverts
    expect((await chain.client.getTransactionReceipt({ hash: tx })).status).toBe("reverted");
    await chain.mine(1);
    const prediction = await report(p.cookie, homeReport("oc-revert", tx));
    expect(prediction).toMatchObject({ status: "rejected", rejectReason: "the transaction reverted" });
  });

  it("rejects a bet placed by another wallet than the signed-in one", async () => {
    const other = keys++;
    const { reason, player } = await rejectedReason(
      homeBet("oc-bettor"),
      (tx) => homeReport("oc-bettor", tx),
      other,
    );
    expect(reason).toBe(
      `the bet was placed by ${chain.address(other)}, not by the signed-in wallet ${player.wallet}`,
    );
  });

  it("rejects a bet placed on another contract", async () => {
    await putEvent(t, "oc-contract");
    const p = await newPlayer();
    const tx = await betting.placeBet(p.i, homeBet("oc-contract"), { contract: betting.otherBetting });
    await chain.mine(1);
    const prediction = await report(p.cookie, homeReport("oc-contract", tx));
    expect(prediction.status).toBe("rejected");
    expect(prediction.rejectReason).toMatch(
      /^the transaction has no BetPlaced event of the betting contract 0x/,
    );
  });

  it("rejects a transaction that is not a bet at all", async () => {
    await putEvent(t, "oc-nobet");
    const p = await newPlayer();
    const tx = await chain.send(p.i, { to: chain.address(0), data: "0x" });
    await chain.mine(1);
    const prediction = await report(p.cookie, homeReport("oc-nobet", tx));
    expect(prediction.rejectReason).toMatch(/^the transaction has no BetPlaced event/);
  });

  it.each([
    ["amount", {}, { stakeUsdc: "11" }, "stake 10.000000 USDC on-chain, reported 11.000000"],
    ["odds", {}, { odds: 2.2 }, "odds 2.15 on-chain, reported 2.2"],
    ["outcome", { outcome: 2 }, {}, "outcome index 2 on-chain, but home is index 0"],
    ["market", { market: "total" }, {}, "the bet is on another event or market than oc-market/1x2"],
  ])("rejects a bet whose %s differs from the report", async (what, chainOver, reportOver, expected) => {
    const eventId = `oc-${what}`;
    const { reason } = await rejectedReason(homeBet(eventId, chainOver), (tx) =>
      homeReport(eventId, tx, reportOver),
    );
    expect(reason).toBe(expected);
  });

  it("rejects a report for another chain than CHAIN_ID without asking the node", async () => {
    await putEvent(t, "oc-chain");
    const p = await newPlayer();
    const tx = await betting.placeBet(p.i, homeBet("oc-chain"));
    const prediction = await report(p.cookie, homeReport("oc-chain", tx, { chainId: 1 }));
    expect(prediction).toMatchObject({
      status: "rejected",
      rejectReason: `bets are verified on chain ${LOCAL_CHAIN_ID}, not on chain 1`,
    });
  });
});

describe("duplicate reports", () => {
  it("keeps one prediction per transaction: a replay returns it, another player's report is 409", async () => {
    await putEvent(t, "oc-dup");
    const p = await newPlayer();
    const q = await newPlayer();
    const tx = await betting.placeBet(p.i, homeBet("oc-dup"));
    const first = await report(p.cookie, homeReport("oc-dup", tx));
    expect(first.status).toBe("pending");
    expect((await report(p.cookie, homeReport("oc-dup", tx))).id).toBe(first.id);
    await chain.mine(1);
    await recheck();
    const again = await report(p.cookie, homeReport("oc-dup", `0x${tx.slice(2).toUpperCase()}`));
    expect(again).toMatchObject({ id: first.id, status: "open" });
    expectError(await betV2(t, q.cookie, homeReport("oc-dup", tx)), 409, "CONFLICT");
    const mine = await call(t.app, {
      method: "GET",
      url: "/api/user/predictions",
      headers: { cookie: p.cookie },
    });
    expect(dataOf(mine).items.filter((x: { txHash: string }) => x.txHash === tx)).toHaveLength(1);
  });
});

describe("an unreachable node", () => {
  it("leaves the bet pending; the re-check confirms it once the node answers", async () => {
    const offline = await createTestApp({
      now: NOW,
      database: t.database,
      env: { ...chainEnv, CHAIN_RPC_URL: "http://127.0.0.1:9/" },
    });
    try {
      await putEvent(t, "oc-offline");
      const p = await newPlayer();
      const tx = await betting.placeBet(p.i, homeBet("oc-offline"));
      await chain.mine(1);
      const prediction = dataOf(await betV2(offline, p.cookie, homeReport("oc-offline", tx)), 201).prediction;
      expect(prediction.status).toBe("pending");
      await recheck(); // through the configured node
      expect((await served(p.cookie, prediction.id)).status).toBe("open");
    } finally {
      await offline.close();
    }
  });
});

describe("the running chain jobs", () => {
  it("re-check pending bets every CHAIN_POLL_MS until stopped", async () => {
    const config = testConfig({ ...chainEnv, CHAIN_POLL_MS: "100" });
    const jobs = startChainJobs({ config, database: t.database, clock: t.clock, log: silent });
    try {
      await putEvent(t, "oc-jobs");
      const p = await newPlayer();
      const tx = await betting.placeBet(p.i, homeBet("oc-jobs"));
      const prediction = await report(p.cookie, homeReport("oc-jobs", tx));
      expect(prediction.status).toBe("pending");
      await chain.mine(1);
      await expect
        .poll(async () => (await served(p.cookie, prediction.id)).status, { timeout: 10_000 })
        .toBe("open");
    } finally {
      await jobs.stop();
    }
  });
});

// These move the chain's clock past kickoffs: they run last.
describe("kickoff", () => {
  it("rejects a reported transaction never mined (dropped or replaced) once the confirmed chain passes kickoff", async () => {
    await putEvent(t, "oc-dropped", { kickoffAt: "2026-11-21T00:00:00.000Z" });
    const p = await newPlayer();
    await betting.fund(p.i, 10_000_000n);
    // Ganache mines both transactions of a same-nonce replacement, so a replaced transaction is stood in for by
    // one signed and never sent: either way its hash never gets a receipt.
    const { hash } = await chain.sign(p.i, {
      to: betting.betting,
      data: betting.placeBetData(homeBet("oc-dropped")),
    });
    const prediction = await report(p.cookie, homeReport("oc-dropped", hash));
    expect(prediction.status).toBe("pending");
    await recheck();
    expect((await served(p.cookie, prediction.id)).status).toBe("pending");

    await chain.setTime(new Date("2026-11-21T00:00:00.000Z"));
    await chain.mine(1); // the head is at kickoff, but with 1 confirmation only
    await recheck();
    expect((await served(p.cookie, prediction.id)).status).toBe("pending");
    await chain.mine(1);
    await recheck();
    expect(await served(p.cookie, prediction.id)).toMatchObject({
      status: "rejected",
      rejectReason: "the transaction was not mined before kickoff",
    });
  });

  it("rejects a bet mined at or after kickoff, even when reported before it", async () => {
    await putEvent(t, "oc-late", { kickoffAt: "2026-11-22T00:00:00.000Z" });
    const p = await newPlayer();
    await betting.fund(p.i, 10_000_000n);
    await chain.setTime(new Date("2026-11-22T00:00:00.000Z"));
    const tx = await betting.placeBet(p.i, homeBet("oc-late"), { fund: false });
    await chain.mine(1);
    const prediction = await report(p.cookie, homeReport("oc-late", tx)); // the service's clock: Nov 20
    expect(prediction.status).toBe("rejected");
    expect(prediction.rejectReason).toMatch(
      /^the bet was mined at 2026-11-22T00:00:0\d\.000Z, not before kickoff$/,
    );
  });
});
