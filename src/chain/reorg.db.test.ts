/**
 * Reorganisations of bets on a real local chain (ganache), beyond issue 10's attack 3 (attacks.db.test.ts): a
 * reported bet whose block is replaced before it is final, a bet that comes back in another block, and a finalized
 * week whose snapshot stays as it was paid. A reorganisation is played with `evm_snapshot` / `evm_revert`, then new
 * blocks. CHAIN_CONFIRMATIONS=3.
 *
 * The service's clock is pinned at Fri 2026-11-20 12:00 UTC (week 2); events kick off Wed 2026-11-25 18:00 UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, FINALIZE, signIn, testKey } from "../../test/app.js";
import {
  type ChainWorld,
  history,
  homeReport,
  startChainWorld,
  weekSp,
} from "../../test/chain/chain-world.js";
import { betV2, dataOf, postResult, putEvent } from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z");

let w: ChainWorld;
beforeAll(async () => {
  w = await startChainWorld({ now: NOW, env: { CHAIN_CONFIRMATIONS: "3" } });
});
afterAll(async () => {
  await w?.close();
});

describe("a bet whose block leaves the chain", () => {
  it("is rejected when the indexer reaches its height and the chain holds another block there", async () => {
    await putEvent(w.t, "o-pending");
    const p = await w.newPlayer();
    const q = await w.quote(p, "o-pending", "1x2", "home");
    await w.betting.fund(p.i, 10_000_000n);
    const snapshot = await w.chain.snapshot();
    const tx = await w.betting.placeBet(p.i, q, 10_000_000n, { fund: false });
    const block = (await w.chain.client.getTransactionReceipt({ hash: tx })).blockNumber;
    const reported = dataOf(await betV2(w.t, p.cookie, homeReport("o-pending", tx)), 201).prediction;
    expect(reported.status).toBe("pending"); // 1 confirmation of 3

    await w.chain.revert(snapshot);
    await w.chain.mine(5);
    await w.index();
    expect(await history(w.t, p.cookie)).toMatchObject([
      {
        id: reported.id,
        status: "rejected",
        rejectReason: "REORGANISED",
        rejectMessage: `block ${block} holding the bet left the canonical chain (reorganisation)`,
      },
    ]);
  });

  it("is recorded afresh when the same transaction is mined again in another block; the orphan stays rejected", async () => {
    await putEvent(w.t, "o-again");
    const p = await w.newPlayer();
    const q = await w.quote(p, "o-again", "1x2", "home");
    await w.betting.fund(p.i, 10_000_000n);
    await w.index(); // the indexer has read the chain up to here
    const signed = await w.chain.sign(p.i, {
      to: w.betting.betting,
      data: w.betting.placeBetData(q, 10_000_000n),
    });
    const snapshot = await w.chain.snapshot();
    await w.chain.sendRaw(signed.raw);
    await w.chain.mine(3);
    const first = dataOf(await betV2(w.t, p.cookie, homeReport("o-again", signed.hash)), 201).prediction;
    expect(first.status).toBe("open");
    await w.index();

    // The reorganisation drops the block; the transaction goes back to the pool and is mined again, later.
    await w.chain.revert(snapshot);
    await w.chain.mine(2);
    await w.chain.sendRaw(signed.raw);
    await w.chain.mine(3);
    await w.index();
    const mine = await history(w.t, p.cookie);
    expect(mine.map((x) => [x.txHash, x.status])).toEqual([
      [signed.hash, "open"],
      [signed.hash, "rejected"],
    ]);
    expect(mine[1]).toMatchObject({ id: first.id });
    expect(mine[1]!.rejectReason).toBe("REORGANISED");
    expect(mine[1]!.rejectMessage).toMatch(
      /^block \d+ holding the bet left the canonical chain \(reorganisation below block \d+\)$/,
    );
    // The report still answers the bet, now the new one.
    const again = dataOf(await betV2(w.t, p.cookie, homeReport("o-again", signed.hash)), 201).prediction;
    expect(again).toMatchObject({ id: mine[0]!.id, status: "open" });
  });
});

// Finalizes weeks 0 to 3 (the clock moves to December): runs last.
describe("a finalized week", () => {
  it("keeps its snapshot when a reorganisation later takes back a bet it counted; the live totals follow", async () => {
    await putEvent(w.t, "o-final");
    const p = await w.newPlayer();
    await w.index();
    const snapshot = await w.chain.snapshot();
    const tx = await w.bet(p, "o-final", "home", 10_000_000n);
    await w.chain.mine(3);
    dataOf(await betV2(w.t, p.cookie, homeReport("o-final", tx)), 201);
    await w.index();

    w.t.clock.set(new Date("2026-12-01T00:00:00.000Z")); // Tue: week 3 has ended
    dataOf(await postResult(w.t, "o-final", { status: "finished", winningOutcome: "home" }));
    // Finalize waits until the bet indexer has read final blocks past the end of week 3 (BETS_NOT_INDEXED).
    await w.chain.setTime(new Date("2026-12-01T00:00:05.000Z"));
    await w.chain.mine(3);
    await w.index();
    for (const week of [0, 1, 2, 3]) {
      const res = await call(w.t.app, {
        method: "POST",
        url: `/api/competition/finalize?week=${week}`,
        headers: FINALIZE,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const ladder = async () =>
      dataOf(
        await call(w.t.app, { method: "GET", url: "/api/competition/leaderboard?week=3&limit=100" }),
      ).rows.find((r: { userId: string }) => r.userId === p.userId);
    // 10 USDC × 100 SP/USDC × 2.15 = 2150
    expect(await ladder()).toMatchObject({ competitiveSp: 2150 });
    // A week later the first session has expired: sign in again.
    const { cookie } = await signIn(w.t, testKey(p.i));
    const totalSp = async () =>
      dataOf(await call(w.t.app, { method: "GET", url: "/api/leaderboard/user-row", headers: { cookie } }))
        .totalSp;
    expect(await totalSp()).toBe(2150);

    await w.chain.revert(snapshot);
    await w.chain.mine(5);
    await w.index();
    expect((await history(w.t, cookie))[0]).toMatchObject({
      txHash: tx,
      status: "rejected",
      payoutUsdc: null,
    });
    expect(await ladder()).toMatchObject({ competitiveSp: 2150 }); // as finalized and paid
    expect(await totalSp()).toBe(0); // 2150 − 2150: the compensating ledger row
    expect(await weekSp(w.t, cookie, 3)).toBe(2150); // week 3 is read from its snapshot
  });
});
