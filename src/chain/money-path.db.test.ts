/**
 * The money path of issue 20, replayed on a real local chain (ganache) with the compiled contracts: each hole the
 * issue found is a test here that failed on the code before it (a bet placed after the result paid 2,150 SP and
 * 21.5 USDC; a bet placed while the event was live counted; a week finalized without a bet of its last minute; a
 * claimed bet orphaned and mined again was claimable twice; the remote CLI finalized without the finalize secret),
 * plus the on-chain payout itself: vouchers, the payout indexer, solvency and the reconcile report.
 *
 * The service's clock is pinned (Fri 2026-11-20 12:00 UTC unless a test moves it); the chain's clock starts there
 * and runs in real time unless a test sets it. Events kick off Wed 2026-11-25 18:00 UTC (week 3) unless a test
 * says otherwise. CHAIN_CONFIRMATIONS=2: a block is final once one more block is on top of it.
 */
import { type Address, type BaseError, decodeErrorResult, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spBettingAbi } from "../../contracts/abi.js";
import { onchainMarketId } from "../../contracts/bet-encoding.js";
import { ADMIN, call, FINALIZE } from "../../test/app.js";
import type { VoucherJson } from "../../test/chain/betting-fixture.js";
import {
  type ChainWorld,
  history,
  type Player,
  startChainWorld,
  weekSp,
} from "../../test/chain/chain-world.js";
import { LOCAL_CHAIN_ID } from "../../test/chain/local-chain.js";
import { claim, dataOf, expectError, post, postResult, putEvent } from "../../test/player-api.js";
import { runCommand } from "../cli/run-command.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const at = (hhmm: string) => new Date(`2026-11-20T${hhmm}:00.000Z`); // Fri 2026-11-20, hh:mm UTC

/** The only prediction of player p on event `eventId`, as GET /api/user/predictions shows it. */
async function betOn(w: ChainWorld, p: Player, eventId: string) {
  const found = (await history(w.t, p.cookie)).filter((x) => x.eventId === eventId);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The name of the contract error a call of the betting contract from test key i reverts with; "none" when not. */
async function revertName(w: ChainWorld, from: number, data: Hex): Promise<string> {
  try {
    await w.chain.client.call({ account: w.chain.address(from), to: w.betting.betting, data });
    return "none";
  } catch (err) {
    // Ganache answers a revert with JSON-RPC code -32000 and the revert data, which viem leaves undecoded.
    const withData = (err as BaseError).walk((e) => typeof (e as { data?: unknown }).data === "string");
    const raw = (withData as { data?: Hex } | null)?.data;
    return raw ? decodeErrorResult({ abi: spBettingAbi, data: raw }).errorName : "undecoded";
  }
}

describe("betting closes with the event", () => {
  let w: ChainWorld;
  beforeAll(async () => {
    w = await startChainWorld({ now: NOW, env: { CHAIN_CONFIRMATIONS: "2" } });
    await w.betting.fundContract(1_000_000_000n); // house money: 1,000 USDC for the payouts
  });
  afterAll(async () => {
    await w?.close();
  });

  it("rejects a bet mined after the result with EVENT_CLOSED: no SP, no winnings, only its stake back", async () => {
    await putEvent(w.t, "mp-result");
    const early = await w.newPlayer();
    const late = await w.newPlayer();
    const earlyQuote = await w.quote(early, "mp-result", "1x2", "home");
    const lateQuote = await w.quote(late, "mp-result", "1x2", "home"); // before kickoff, valid an hour
    await w.chain.setTime(at("12:10"));
    await w.betting.placeBet(early.i, earlyQuote, 10_000_000n);
    // The result is posted at 12:20, five days before kickoff (the match was brought forward and played).
    w.t.clock.set(at("12:20"));
    dataOf(await postResult(w.t, "mp-result", { status: "finished", winningOutcome: "home" }));
    // The attack: the quote signed before kickoff, used on-chain once the result is known.
    await w.chain.setTime(at("12:30"));
    await w.betting.placeBet(late.i, lateQuote, 10_000_000n);
    await w.chain.mine(1);
    await w.index();

    // The bet of 12:10 counts: 10 USDC × 2.15 = 21.5 USDC, 10 × 100 × 2.15 = 2150 SP.
    expect(await betOn(w, early, "mp-result")).toMatchObject({ status: "won", payoutUsdc: "21.500000" });
    expect(await weekSp(w.t, early.cookie, 3)).toBe(2150);
    const lateBet = await betOn(w, late, "mp-result");
    expect(lateBet).toMatchObject({ status: "rejected", rejectReason: "EVENT_CLOSED", payoutUsdc: null });
    expect(lateBet.rejectMessage).toMatch(
      /^the bet was mined at 2026-11-20T12:30:0\d\.000Z, once betting on the event had closed at 2026-11-20T12:20:00\.000Z$/,
    );
    expect(await weekSp(w.t, late.cookie, 3)).toBe(0);
    // What it can claim is its own 10 USDC back, not 21.5.
    const voucher = dataOf(await claim(w.t, late.cookie, lateBet.id));
    expect(voucher).toMatchObject({ amountMicro: "10000000", amountUsdc: "10.000000", account: late.wallet });
  });

  it("rejects a bet mined while the event is live (status changed before kickoff), and quotes no more", async () => {
    await putEvent(w.t, "mp-live");
    const p = await w.newPlayer();
    const q = await w.quote(p, "mp-live", "1x2", "home");
    w.t.clock.set(at("12:40"));
    await putEvent(w.t, "mp-live", { status: "live" });
    expectError(
      await post(w.t, "/api/pred2earn/quote", p.cookie, {
        eventId: "mp-live",
        market: "1x2",
        outcome: "home",
      }),
      409,
      "EVENT_CLOSED",
    );
    // Back to `scheduled` (an operator's slip) does not reopen it: it closed at 12:40 for good.
    await putEvent(w.t, "mp-live", { status: "scheduled" });
    expectError(
      await post(w.t, "/api/pred2earn/quote", p.cookie, {
        eventId: "mp-live",
        market: "1x2",
        outcome: "home",
      }),
      409,
      "EVENT_CLOSED",
    );
    await w.chain.setTime(at("12:50"));
    await w.betting.placeBet(p.i, q, 10_000_000n);
    await w.chain.mine(1);
    await w.index();
    expect(await betOn(w, p, "mp-live")).toMatchObject({ status: "rejected", rejectReason: "EVENT_CLOSED" });
    dataOf(await postResult(w.t, "mp-live", { status: "finished", winningOutcome: "home" }));
    expect(await weekSp(w.t, p.cookie, 3)).toBe(0);
  });

  it("rejects at settlement a bet judged open whose block came after the close (the block's clock ran ahead)", async () => {
    await putEvent(w.t, "mp-ahead");
    const p = await w.newPlayer();
    const q = await w.quote(p, "mp-ahead", "1x2", "home");
    // Mined at 13:30 by the chain's clock and judged (final) while the service's clock still says 13:00 …
    w.t.clock.set(at("13:00"));
    await w.chain.setTime(at("13:30"));
    await w.betting.placeBet(p.i, q, 10_000_000n);
    await w.chain.mine(1);
    await w.index();
    expect(await betOn(w, p, "mp-ahead")).toMatchObject({ status: "open" });
    // … then the result at 13:10: betting closed before the bet's block.
    w.t.clock.set(at("13:10"));
    dataOf(await postResult(w.t, "mp-ahead", { status: "finished", winningOutcome: "home" }));
    expect(await betOn(w, p, "mp-ahead")).toMatchObject({ status: "rejected", rejectReason: "EVENT_CLOSED" });
    expect(await weekSp(w.t, p.cookie, 3)).toBe(0);
  });

  it("lets the owner close a market on-chain: the contract refuses bets on it", async () => {
    await putEvent(w.t, "mp-close");
    const p = await w.newPlayer();
    const q = await w.quote(p, "mp-close", "1x2", "home");
    await w.betting.closeMarkets([onchainMarketId("mp-close", "1x2")]);
    await w.betting.fund(p.i, 10_000_000n);
    expect(await revertName(w, p.i, w.betting.placeBetData(q, 10_000_000n))).toBe("MarketIsClosed");
    // The other market of the event stays open on-chain.
    const total = await w.quote(p, "mp-close", "total", "over");
    expect(await revertName(w, p.i, w.betting.placeBetData(total, 10_000_000n))).toBe("none");
  });
});

describe("the chain pays", () => {
  let w: ChainWorld;
  beforeAll(async () => {
    w = await startChainWorld({ now: NOW, env: { CHAIN_CONFIRMATIONS: "2" } });
  });
  afterAll(async () => {
    await w?.close();
  });

  /** Places a 10 USDC bet on home at 2.15 for a new player on `eventId` (created), indexed. */
  async function placed(eventId: string) {
    await putEvent(w.t, eventId);
    const p = await w.newPlayer();
    await w.bet(p, eventId, "home", 10_000_000n);
    await w.chain.mine(1);
    await w.index();
    return { p, id: (await betOn(w, p, eventId)).id as string };
  }

  const settle = async (eventId: string, result: Record<string, unknown>) => {
    w.t.clock.set(new Date("2026-11-25T20:00:00.000Z")); // Wed, after kickoff
    try {
      dataOf(await postResult(w.t, eventId, result));
    } finally {
      w.t.clock.set(NOW);
    }
  };

  const reconcile = async () =>
    dataOf(await call(w.t.app, { method: "GET", url: "/api/admin/reconcile", headers: ADMIN }));

  it("refuses a voucher the contract could not pay (INSUFFICIENT_LIQUIDITY), then pays once it is funded", async () => {
    const { p, id } = await placed("pay-won");
    await settle("pay-won", { status: "finished", winningOutcome: "home" });
    // The contract holds the 10 USDC stake and owes 21.5.
    expectError(await claim(w.t, p.cookie, id), 409, "INSUFFICIENT_LIQUIDITY");
    expect(await reconcile()).toMatchObject({
      balanceUsdc: "10.000000",
      liabilities: { bets: 1, amountUsdc: "21.500000" },
      solvent: false,
      shortfallUsdc: "11.500000",
      vouchers: { issued: 0, paid: 0 },
    });

    await w.betting.fundContract(1_000_000_000n);
    const voucher: VoucherJson = dataOf(await claim(w.t, p.cookie, id));
    expect(voucher).toMatchObject({
      predictionId: id,
      account: p.wallet,
      amountMicro: "21500000",
      amountUsdc: "21.500000",
      chainId: LOCAL_CHAIN_ID,
      contract: w.betting.betting,
    });
    expect(voucher.nonce).toMatch(/^0x[0-9a-f]{64}$/);
    // Asked again before it is used: the same voucher, signature and all.
    expect(dataOf(await claim(w.t, p.cookie, id))).toEqual(voucher);
    expect(await betOn(w, p, "pay-won")).toMatchObject({ claimed: false });

    // Anyone may submit it (here the house, test key 0); the USDC goes to the bettor.
    const before = await w.betting.balanceOf(p.wallet as Address);
    await w.betting.claimPayout(0, voucher);
    expect((await w.betting.balanceOf(p.wallet as Address)) - before).toBe(21_500_000n);
    // Once, on-chain: the nonce is spent.
    expect(await revertName(w, p.i, w.betting.claimPayoutData(voucher))).toBe("PayoutAlreadyClaimed");

    // Claimed once the payout log is final and indexed.
    await w.chain.mine(1);
    await w.index();
    expect(await betOn(w, p, "pay-won")).toMatchObject({ status: "won", claimed: true });
    expectError(await claim(w.t, p.cookie, id), 409, "ALREADY_CLAIMED");
    expect(await reconcile()).toMatchObject({
      liabilities: { bets: 0, amountUsdc: "0.000000" },
      solvent: true,
      vouchers: { issued: 1, issuedUsdc: "21.500000", paid: 1, paidUsdc: "21.500000" },
      orphanedClaims: [],
    });
  });

  it("gives a void bet its stake back, and one voucher to 10 concurrent claims", async () => {
    const { p, id } = await placed("pay-void");
    await settle("pay-void", { status: "cancelled" });
    const answers = await Promise.all(Array.from({ length: 10 }, () => claim(w.t, p.cookie, id)));
    const vouchers = answers.map((r) => dataOf(r));
    expect(vouchers[0]).toMatchObject({ amountMicro: "10000000" });
    for (const v of vouchers) expect(v).toEqual(vouchers[0]);
  });

  it("owes nothing for a lost bet or someone else's, and nothing before settlement", async () => {
    const { p, id } = await placed("pay-lost");
    expectError(await claim(w.t, p.cookie, id), 409, "NOT_CLAIMABLE"); // open
    await settle("pay-lost", { status: "finished", winningOutcome: "away" });
    expectError(await claim(w.t, p.cookie, id), 409, "NOT_CLAIMABLE");
    const other = await w.newPlayer();
    expectError(await claim(w.t, other.cookie, id), 404, "NOT_FOUND");
  });

  it("publishes the payout signer: GET /api/chain/info", async () => {
    const info = dataOf(await call(w.t.app, { method: "GET", url: "/api/chain/info" }));
    expect(info.payoutSigner).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(info.payoutSigner).not.toBe(info.oddsSigner);
  });
});

describe("a claimed bet orphaned by a deep reorganisation and mined again", () => {
  let w: ChainWorld;
  beforeAll(async () => {
    w = await startChainWorld({ now: NOW, env: { CHAIN_CONFIRMATIONS: "2" } });
    await w.betting.fundContract(1_000_000_000n);
  });
  afterAll(async () => {
    await w?.close();
  });

  it("is paid once: the re-mined bet's claim is ALREADY_CLAIMED and the old voucher's nonce is spent", async () => {
    await putEvent(w.t, "re-paid");
    const p = await w.newPlayer();
    const q = await w.quote(p, "re-paid", "1x2", "home");
    await w.betting.fund(p.i, 10_000_000n);
    await w.index();
    const betTx = await w.chain.sign(p.i, {
      to: w.betting.betting,
      data: w.betting.placeBetData(q, 10_000_000n),
    });
    const snapshot = await w.chain.snapshot();
    await w.chain.sendRaw(betTx.raw);
    await w.chain.mine(1);
    await w.index();
    w.t.clock.set(new Date("2026-11-25T20:00:00.000Z"));
    dataOf(await postResult(w.t, "re-paid", { status: "finished", winningOutcome: "home" }));
    w.t.clock.set(NOW);
    const first = await betOn(w, p, "re-paid");
    const voucher: VoucherJson = dataOf(await claim(w.t, p.cookie, first.id));
    const payTx = await w.chain.sign(p.i, {
      to: w.betting.betting,
      data: w.betting.claimPayoutData(voucher),
    });
    await w.chain.sendRaw(payTx.raw);
    await w.chain.mine(1);
    await w.index();
    expect((await history(w.t, p.cookie))[0]).toMatchObject({ id: first.id, claimed: true });
    const paidOnce = await w.betting.balanceOf(p.wallet as Address);

    // A reorganisation past both transactions; the same two are mined again in other blocks.
    await w.chain.revert(snapshot);
    await w.chain.mine(3);
    await w.chain.sendRaw(betTx.raw);
    await w.chain.sendRaw(payTx.raw);
    await w.chain.mine(2);
    await w.index();
    const mine = await history(w.t, p.cookie);
    expect(mine.map((x) => [x.status, x.claimed, x.rejectReason])).toEqual([
      ["won", true, null], // the bet again, paid by the same payout
      ["rejected", true, "REORGANISED"], // the orphan: its nonce is paid
    ]);
    expectError(await claim(w.t, p.cookie, mine[0]!.id), 409, "ALREADY_CLAIMED");
    expectError(await claim(w.t, p.cookie, first.id), 409, "ALREADY_CLAIMED");
    expect(await w.betting.balanceOf(p.wallet as Address)).toBe(paidOnce);
    expect(await revertName(w, p.i, w.betting.claimPayoutData(voucher))).toBe("PayoutAlreadyClaimed");

    const report = dataOf(
      await call(w.t.app, { method: "GET", url: "/api/admin/reconcile", headers: ADMIN }),
    );
    expect(report.orphanedClaims).toEqual([
      expect.objectContaining({ predictionId: first.id, nonce: voucher.nonce, amountUsdc: "21.500000" }),
    ]);
    expect(report.orphanedClaims[0].paidAt).not.toBeNull();
  });

  it("whose payout the reorganisation also took back is paid once on the chain that won", async () => {
    await putEvent(w.t, "re-unpaid");
    const p = await w.newPlayer();
    const q = await w.quote(p, "re-unpaid", "1x2", "home");
    await w.betting.fund(p.i, 10_000_000n);
    await w.index();
    const betTx = await w.chain.sign(p.i, {
      to: w.betting.betting,
      data: w.betting.placeBetData(q, 10_000_000n),
    });
    const snapshot = await w.chain.snapshot();
    await w.chain.sendRaw(betTx.raw);
    await w.chain.mine(1);
    await w.index();
    w.t.clock.set(new Date("2026-11-25T20:00:00.000Z"));
    dataOf(await postResult(w.t, "re-unpaid", { status: "finished", winningOutcome: "home" }));
    w.t.clock.set(NOW);
    const first = await betOn(w, p, "re-unpaid");
    const oldVoucher: VoucherJson = dataOf(await claim(w.t, p.cookie, first.id));
    await w.betting.claimPayout(p.i, oldVoucher);
    await w.chain.mine(1);
    await w.index();
    const before = await w.betting.balanceOf(p.wallet as Address);

    // Only the bet comes back: on this chain, nothing was paid for it yet.
    await w.chain.revert(snapshot);
    await w.chain.mine(3);
    await w.chain.sendRaw(betTx.raw);
    await w.chain.mine(2);
    await w.index();
    const again = (await history(w.t, p.cookie))[0]!;
    expect(again).toMatchObject({ status: "won", claimed: false });
    expectError(await claim(w.t, p.cookie, first.id), 409, "NOT_CLAIMABLE"); // the orphan
    const voucher: VoucherJson = dataOf(await claim(w.t, p.cookie, again.id));
    expect(voucher.nonce).toBe(oldVoucher.nonce); // one bet, one nonce
    await w.betting.claimPayout(p.i, voucher);
    expect(await revertName(w, p.i, w.betting.claimPayoutData(oldVoucher))).toBe("PayoutAlreadyClaimed");
    await w.chain.mine(1);
    await w.index();
    expectError(await claim(w.t, p.cookie, again.id), 409, "ALREADY_CLAIMED");
    // Before the reorganisation the balance had the first payout; the chain that won pays it exactly once.
    expect(await w.betting.balanceOf(p.wallet as Address)).toBe(before);
  });
});

describe("finalize waits for the chain", () => {
  const CHAIN_START = new Date("2026-11-17T01:00:00.000Z"); // Tue, week 2
  let w: ChainWorld;
  beforeAll(async () => {
    w = await startChainWorld({
      now: CHAIN_START,
      chainStart: CHAIN_START,
      env: { CHAIN_CONFIRMATIONS: "2" },
    });
  });
  afterAll(async () => {
    await w?.close();
  });

  const finalize = (week: number) =>
    call(w.t.app, { method: "POST", url: `/api/competition/finalize?week=${week}`, headers: FINALIZE });

  it("answers BETS_NOT_INDEXED until the bet indexer has passed the week's end, then counts the last-minute bet", async () => {
    await w.chain.mine(2);
    await w.index(); // the indexer has read blocks of week 2: weeks 0 and 1 can be finalized
    w.t.clock.set(new Date("2026-11-23T23:59:00.000Z")); // Mon, the last minute of week 2
    await putEvent(w.t, "fin-late", { kickoffAt: "2026-11-23T23:59:50.000Z" });
    const p = await w.newPlayer();
    const q = await w.quote(p, "fin-late", "1x2", "home");
    await w.chain.setTime(new Date("2026-11-23T23:59:30.000Z"));
    await w.betting.placeBet(p.i, q, 10_000_000n);

    w.t.clock.set(new Date("2026-11-24T00:10:00.000Z")); // Tue: week 2 has ended
    dataOf(await postResult(w.t, "fin-late", { status: "finished", winningOutcome: "home" }));
    expect(dataOf(await finalize(0)).week).toBe(0);
    expect(dataOf(await finalize(1)).week).toBe(1);
    const early = await finalize(2);
    expectError(early, 409, "BETS_NOT_INDEXED");
    expect(early.body.error).toContain("2026-11-24T00:00:00.000Z");
    // The remote CLI endpoint runs the same use case: the same guard …
    const cli = (headers: Record<string, string>) =>
      call(w.t.app, {
        method: "POST",
        url: "/api/admin/cli",
        headers,
        payload: { argv: ["finalize", "--week", "2"] },
      });
    expectError(await cli({ ...ADMIN, ...FINALIZE }), 409, "BETS_NOT_INDEXED");
    // … and the local CLI too.
    await expect(
      runCommand(
        { database: w.t.database, config: w.t.config, clock: w.t.clock },
        { command: "finalize", week: 2 },
        () => Promise.reject(new Error("no file")),
      ),
    ).rejects.toMatchObject({ code: "BETS_NOT_INDEXED" });

    // Blocks past the week's end, final and read: the bet is in, and the week finalizes with it.
    await w.chain.setTime(new Date("2026-11-24T00:05:00.000Z"));
    await w.chain.mine(2);
    await w.index();
    const done = dataOf(await finalize(2));
    expect(done.qualification.participants).toBe(1);
    const row = dataOf(await call(w.t.app, { method: "GET", url: "/api/competition/leaderboard?week=2" }))
      .rows[0];
    expect(row).toMatchObject({ userId: p.userId, competitiveSp: 2150 }); // 10 × 100 × 2.15
  });

  it("through the remote CLI endpoint needs the finalize secret, not only the admin token", async () => {
    const res = await call(w.t.app, {
      method: "POST",
      url: "/api/admin/cli",
      headers: ADMIN,
      payload: { argv: ["finalize", "--week", "3"] },
    });
    expectError(res, 401, "UNAUTHENTICATED");
    expect(res.body.error).toContain("finalize secret");
  });
});
