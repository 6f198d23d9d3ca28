/**
 * The fee indexer pointed at fee events by configuration alone, on a real local chain (ganache): another
 * protocol's event shape (MockFeeProtocol: other name, arguments and 18 decimals), amounts beyond what is stored,
 * and finalize waiting for the fees of the funding week (409 FEES_NOT_INDEXED). Each describe has its own chain.
 */
import { inArray } from "drizzle-orm";
import { keccak256, stringToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, FINALIZE } from "../../test/app.js";
import { deployMockFeeProtocol } from "../../test/chain/betting-fixture.js";
import { type ChainWorld, startChainWorld } from "../../test/chain/chain-world.js";
import { dataOf, expectError } from "../../test/player-api.js";
import { protocolFees } from "../db/schema.js";
import { createChainClient } from "./chain-client.js";
import { indexFees } from "./fee-indexer.js";

/** Fees only: no bet verifier, no quotes; FEE_INDEXER=on with 2 confirmations. */
const ONLY_FEES = {
  CHAIN_VERIFIER: "none",
  ODDS_SIGNER_PRIVATE_KEY: "",
  PAYOUT_SIGNER_PRIVATE_KEY: "",
  FEE_INDEXER: "on",
  CHAIN_CONFIRMATIONS: "2",
};

async function pool(w: ChainWorld, week: number) {
  const res = await call(w.t.app, {
    method: "GET",
    url: `/api/competition/prize-pool-estimate?week=${week}`,
  });
  return dataOf(res).sources.protocolFeesWeek as string;
}

describe("another protocol's fee event, by configuration alone", () => {
  const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2: week 3's pool is funded by week 2's fees
  let w: ChainWorld;
  let mock: Awaited<ReturnType<typeof deployMockFeeProtocol>>;
  beforeAll(async () => {
    w = await startChainWorld({
      now: NOW,
      chainStart: new Date("2026-11-17T01:00:00.000Z"), // Tue, week 2
      env: ONLY_FEES,
      prepare: async (chain) => {
        mock = await deployMockFeeProtocol(chain);
        return {
          BETTING_CONTRACT_ADDRESS: "",
          FEE_CONTRACT_ADDRESSES: mock.address,
          FEE_INDEXER_FROM_BLOCK: String(mock.deployedAt),
          FEE_EVENT_SIGNATURE:
            "event ProtocolFeePaid(address indexed payer, bytes32 indexed marketRef, uint256 feeAmount, uint64 paidAt)",
          FEE_EVENT_AMOUNT_ARG: "feeAmount",
          FEE_TOKEN_DECIMALS: "18",
        };
      },
    });
  });
  afterAll(async () => {
    await w?.close();
  });

  it("counts ProtocolFeePaid.feeAmount (18 decimals, floored to micro-USDC) and nothing else on the chain", async () => {
    const ref = keccak256(stringToHex("epl-2026-ars-che/1x2"));
    const first = await mock.payFee(1, ref, 1_500_000_000_000_000_000n); // 1.5
    const second = await mock.payFee(2, ref, 250_000_000_000_999_999n); // 0.250000000000999999 → 0.25
    await w.betting.collectFees([7_000_000n]); // SpBetting's FeeCollected: not a configured source
    await w.chain.mine(1);
    await w.index();

    const rows = await w.t.database.db
      .select()
      .from(protocolFees)
      .where(inArray(protocolFees.txHash, [first.transactionHash, second.transactionHash]))
      .orderBy(protocolFees.amountMicro);
    // Each payFee emits ProtocolFeePaid (log 0) and Noise(feeAmount) (log 1): only log 0 is a fee.
    expect(rows.map((r) => [r.txHash, r.logIndex, r.amountMicro, r.contract])).toEqual([
      [second.transactionHash, 0, 250_000n, mock.address.toLowerCase()],
      [first.transactionHash, 0, 1_500_000n, mock.address.toLowerCase()],
    ]);
    expect(await pool(w, 3)).toBe("1.750000");
  });
});

describe("fee amounts beyond what is stored", () => {
  const NOW = new Date("2026-11-20T12:00:00.000Z");
  let w: ChainWorld;
  const warnings: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    w = await startChainWorld({ now: NOW, chainStart: new Date("2026-11-17T01:00:00.000Z"), env: ONLY_FEES });
  });
  afterAll(async () => {
    await w?.close();
  });

  it("skips a fee above one billion USDC with a warning and keeps indexing", async () => {
    const huge = await w.betting.collectFees([2n ** 200n, 1_000_000_000_000_001n, 1_000_000_000_000_000n]);
    await w.betting.collectFees([2_500_000n]);
    await w.chain.mine(1);
    const config = w.t.config;
    const run = await indexFees({
      db: w.t.database.db,
      clock: w.t.clock,
      client: createChainClient(w.chain.url),
      chainId: config.chain!.chainId,
      addresses: config.feeIndexer!.addresses,
      event: config.feeIndexer!.event,
      finality: { mode: "finalized", confirmations: 2 },
      fromBlock: config.feeIndexer!.fromBlock,
      blockRange: 1000,
      lock: { acquire: async () => true, release: async () => {} },
      log: { warn: (details) => warnings.push(details as Record<string, unknown>) },
    });
    expect(run).toMatchObject({ status: "indexed", created: 2 });
    expect(warnings.map((d) => d.amount)).toEqual([String(2n ** 200n), "1000000000000001"]);
    // 1,000,000,000 USDC (the largest stored) + 2.5 USDC
    expect(await pool(w, 3)).toBe("1000000002.500000");
    const stored = await w.t.database.db
      .select()
      .from(protocolFees)
      .where(inArray(protocolFees.txHash, [huge.transactionHash]));
    expect(stored.map((r) => r.amountMicro)).toEqual([1_000_000_000_000_000n]);
  });
});

describe("finalize while the fee indexer is behind", () => {
  const NOW = new Date("2026-11-17T12:00:00.000Z"); // Tue, week 2: weeks 0 and 1 have ended
  let w: ChainWorld;
  beforeAll(async () => {
    // The chain's clock starts Mon 2026-11-09 01:00 UTC, in week 0 = [Mon 11-02, Tue 11-10).
    w = await startChainWorld({ now: NOW, chainStart: new Date("2026-11-09T01:00:00.000Z"), env: ONLY_FEES });
  });
  afterAll(async () => {
    await w?.close();
  });

  const finalize = (week: number) =>
    call(w.t.app, { method: "POST", url: `/api/competition/finalize?week=${week}`, headers: FINALIZE });

  it("answers 409 FEES_NOT_INDEXED until the indexer has read past the end of week W−1, then freezes the pool", async () => {
    await w.betting.collectFees([3_000_000n]);
    // Week 0 has no fee window: it finalizes whatever the indexer has read.
    expect(dataOf(await finalize(0)).week).toBe(0);
    // Nothing indexed yet.
    expectError(await finalize(1), 409, "FEES_NOT_INDEXED");
    await w.chain.mine(1);
    await w.index(); // read up to Mon 11-09 01:00: still inside week 0
    const behind = await finalize(1);
    expectError(behind, 409, "FEES_NOT_INDEXED");
    expect(behind.body.error).toMatch(
      /up to 2026-11-10T00:00:00.000Z, the end of week 0's fees \(read up to 2026-11-09T01:/,
    );

    await w.chain.setTime(new Date("2026-11-10T00:00:00.000Z"));
    await w.chain.mine(1); // the first block of week 1, not yet final (2 confirmations)
    await w.index();
    expectError(await finalize(1), 409, "FEES_NOT_INDEXED");
    await w.chain.mine(1);
    await w.index();
    const done = dataOf(await finalize(1));
    expect(done).toMatchObject({ week: 1, alreadyFinalized: false, pool: { estimatedUsdc: "3.000000" } });
  });
});
