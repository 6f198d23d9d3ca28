/**
 * The three attacks of issue 10, replayed on a real local chain (ganache) with the project's contracts compiled by
 * solc and real transactions. Each was first written against the previous code (where it succeeded: 50,150 SP
 * instead of 150; 201 with a rejected prediction for a stranger's report, then 409 for the bettor; a pool of 8.75
 * USDC after the reorganisation) and fails there; the service now withstands each.
 *
 * The service's clock is pinned at Fri 2026-11-20 12:00 UTC (week 2); events kick off Wed 2026-11-25 18:00 UTC
 * (week 3), so their SP count on week 3's ladders.
 */
import { encodeFunctionData, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onchainMarketId } from "../../contracts/bet-encoding.js";
import { call } from "../../test/app.js";
import { ODDS_SIGNER } from "../../test/chain/betting-fixture.js";
import {
  type ChainWorld,
  history,
  homeReport,
  startChainWorld,
  weekSp,
} from "../../test/chain/chain-world.js";
import { LOCAL_CHAIN_ID } from "../../test/chain/local-chain.js";
import { buildMarket } from "../../test/factories.js";
import { betV2, dataOf, expectError, postResult, putEvent } from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const AFTER_KICKOFF = new Date("2026-11-25T20:00:00.000Z"); // Wed, week 3, after the events' kickoff

describe("attacks 1 and 2", () => {
  let w: ChainWorld;
  beforeAll(async () => {
    w = await startChainWorld({ now: NOW, env: { CHAIN_CONFIRMATIONS: "2" } });
  });
  afterAll(async () => {
    await w?.close();
  });

  it("attack 1: a bettor cannot choose their own odds (event at 1.5; a won 1 USDC bet is 150 SP, not 50,000)", async () => {
    await putEvent(w.t, "atk-odds", {
      markets: [buildMarket("1x2", ["home", "Home", 1.5], ["away", "Away", 2.5])],
    });
    const p = await w.newPlayer();
    // The attack as the issue replays it: placeBet(keccak("ev/1x2"), 0, 1000000, 500000), the former signature.
    await w.betting.fund(p.i, 1_000_000n);
    const legacy = parseAbi([
      "function placeBet(bytes32 eventId, uint8 outcome, uint256 amount, uint256 odds)",
    ]);
    const attack = await w.chain.send(p.i, {
      to: w.betting.betting,
      data: encodeFunctionData({
        abi: legacy,
        functionName: "placeBet",
        args: [onchainMarketId("atk-odds", "1x2"), 0, 1_000_000n, 500_000n],
      }),
    });
    await w.chain.mine(1);
    expect((await w.chain.client.getTransactionReceipt({ hash: attack })).status).toBe("reverted");
    expectError(
      await betV2(w.t, p.cookie, homeReport("atk-odds", attack, { stakeUsdc: "1", odds: 500 })),
      404,
      "BET_NOT_FOUND",
    );
    // The same player's honest 1 USDC bet at the offered 1.5.
    const honest = await w.bet(p, "atk-odds", "home", 1_000_000n);
    await w.chain.mine(1);
    await betV2(w.t, p.cookie, homeReport("atk-odds", honest, { stakeUsdc: "1", odds: 1.5 }));
    await w.index();

    w.t.clock.set(AFTER_KICKOFF);
    try {
      dataOf(await postResult(w.t, "atk-odds", { status: "finished", winningOutcome: "home" }));
      // 1 USDC × 100 SP/USDC × 1.5 = 150 SP, from the honest bet only.
      expect(await weekSp(w.t, p.cookie, 3)).toBe(150);
    } finally {
      w.t.clock.set(NOW);
    }
  });

  it("attack 2: another player's report of a bet does not block the bettor's own report", async () => {
    await putEvent(w.t, "atk-block");
    const bettor = await w.newPlayer();
    const other = await w.newPlayer();
    const tx = await w.bet(bettor, "atk-block", "home", 10_000_000n);
    await w.chain.mine(1);

    const stolen = await betV2(w.t, other.cookie, homeReport("atk-block", tx));
    expectError(stolen, 403, "FORBIDDEN");
    expect(stolen.body.error).toBe(
      `The bet in transaction ${tx} was placed by ${bettor.wallet}, not by your wallet ${other.wallet}: a bet belongs to the wallet that placed it`,
    );
    expect(await history(w.t, other.cookie)).toEqual([]);

    const own = dataOf(await betV2(w.t, bettor.cookie, homeReport("atk-block", tx)), 201).prediction;
    expect(own).toMatchObject({ status: "open", txHash: tx, stakeUsdc: "10.000000", odds: 2.15 });
  });

  it("attack 2: a bettor's own mistyped report does not burn the hash", async () => {
    await putEvent(w.t, "atk-typo");
    const bettor = await w.newPlayer();
    const tx = await w.bet(bettor, "atk-typo", "home", 10_000_000n);
    await w.chain.mine(1);

    const typo = await betV2(w.t, bettor.cookie, homeReport("atk-typo", tx, { stakeUsdc: "100" }));
    expectError(typo, 409, "BET_MISMATCH");
    expect(typo.body.error).toBe(
      `Transaction ${tx} holds your bet, but stake 10.000000 USDC on-chain, reported 100.000000`,
    );

    const own = dataOf(await betV2(w.t, bettor.cookie, homeReport("atk-typo", tx)), 201).prediction;
    expect(own).toMatchObject({ status: "open", txHash: tx });
  });

  it("a bet nobody reported appears in its bettor's history", async () => {
    await putEvent(w.t, "atk-silent");
    const bettor = await w.newPlayer();
    const tx = await w.bet(bettor, "atk-silent", "home", 10_000_000n);
    await w.chain.mine(1);
    await w.index();
    expect(await history(w.t, bettor.cookie)).toMatchObject([
      { eventId: "atk-silent", status: "open", txHash: tx, stakeUsdc: "10.000000", odds: 2.15 },
    ]);
  });

  it("the contract's signer is published: GET /api/chain/info names it", async () => {
    const info = dataOf(await call(w.t.app, { method: "GET", url: "/api/chain/info" }));
    expect(info).toMatchObject({ chainId: LOCAL_CHAIN_ID, oddsSigner: ODDS_SIGNER, confirmations: 2 });
  });
});

describe("attack 3: a deep reorganisation", () => {
  const CHAIN_START = new Date("2026-11-17T01:00:00.000Z"); // Tue, week 2: fees fund week 3's pool
  let w: ChainWorld;
  beforeAll(async () => {
    w = await startChainWorld({
      now: NOW,
      chainStart: CHAIN_START,
      env: { CHAIN_CONFIRMATIONS: "3", FEE_INDEXER: "on" },
    });
  });
  afterAll(async () => {
    await w?.close();
  });

  const pool = async () =>
    dataOf(await call(w.t.app, { method: "GET", url: "/api/competition/prize-pool-estimate?week=3" }))
      .estimatedUsdc;

  it("brings the pool, the bet and its SP back to what the chain holds (CHAIN_CONFIRMATIONS=3)", async () => {
    await putEvent(w.t, "atk-reorg");
    const p = await w.newPlayer();
    await w.betting.collectFees([3_750_000n]);
    await w.chain.mine(3);
    await w.index();
    expect(await pool()).toBe("3.750000");

    const snapshot = await w.chain.snapshot();
    const tx = await w.bet(p, "atk-reorg", "home", 10_000_000n);
    await w.betting.collectFees([5_000_000n]);
    await w.chain.mine(3);
    await betV2(w.t, p.cookie, homeReport("atk-reorg", tx));
    await w.index();
    expect(await pool()).toBe("8.750000");
    expect(await history(w.t, p.cookie)).toMatchObject([{ txHash: tx, status: "open" }]);
    w.t.clock.set(AFTER_KICKOFF);
    dataOf(await postResult(w.t, "atk-reorg", { status: "finished", winningOutcome: "home" }));
    // 10 USDC × 100 × 2.15 = 2150 SP
    expect(await weekSp(w.t, p.cookie, 3)).toBe(2150);

    // A reorganisation 6+ blocks deep: the blocks since the snapshot are replaced by 8 empty ones.
    await w.chain.revert(snapshot);
    await w.chain.mine(8);
    await w.index();
    expect(await pool()).toBe("3.750000");
    expect(await history(w.t, p.cookie)).toMatchObject([{ txHash: tx, status: "rejected" }]);
    expect(await weekSp(w.t, p.cookie, 3)).toBe(0);
  });
});
