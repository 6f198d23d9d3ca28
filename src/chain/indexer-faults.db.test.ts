/**
 * The log indexer (here its fee stream) against an RPC node that misleads it, on a real local chain (ganache): a
 * reorganisation that unseats exactly a batch of 100 stored blocks, a node that is behind (its newest block below
 * what was already read), and a node whose eth_getLogs ignores the address filter. Each replay failed before.
 *
 * The chain's clock starts on Tue 2026-11-10 01:00 UTC (week 1). Each test deploys its own contracts, so its cursor
 * and fees are its own; the reorganisation test reverts the chain, so it runs last.
 */
import { inArray } from "drizzle-orm";
import { createPublicClient, custom, encodeFunctionData, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spBettingAbi } from "../../contracts/abi.js";
import { type BettingFixture, deployBetting } from "../../test/chain/betting-fixture.js";
import { createEngineDatabase } from "../../test/chain/engine-database.js";
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from "../../test/chain/local-chain.js";
import type { Database } from "../db/client.js";
import { type LeaderLock, leaderLockFor } from "../db/leader-lock.js";
import { protocolFees } from "../db/schema.js";
import { DEFAULT_FEE_EVENT, type FeeEvent, parseFeeEvent } from "../shared/fee-event.js";
import { createChainClient } from "./chain-client.js";
import { type FeeIndexerDeps, indexFees } from "./fee-indexer.js";

const CHAIN_START = new Date("2026-11-10T01:00:00.000Z");
const FEE_COLLECTED = parseFeeEvent(DEFAULT_FEE_EVENT, "amount", 6) as FeeEvent;

let chain: LocalChain;
let database: Database;
let databaseUrl: string | null;
const locks: LeaderLock[] = [];
beforeAll(async () => {
  chain = await startLocalChain({ startTime: CHAIN_START, accounts: 2 });
  ({ database, url: databaseUrl } = await createEngineDatabase());
});
afterAll(async () => {
  await Promise.all(locks.map((l) => l.release()));
  await database?.close();
  await chain?.close();
});

let lockKeys = 92_100;
function indexer(b: BettingFixture, over: Partial<FeeIndexerDeps> = {}): FeeIndexerDeps {
  const lock = leaderLockFor(databaseUrl, database, lockKeys++);
  locks.push(lock);
  return {
    db: database.db,
    clock: { now: () => new Date() },
    client: createChainClient(chain.url),
    chainId: LOCAL_CHAIN_ID,
    addresses: [b.betting],
    event: FEE_COLLECTED,
    finality: { mode: "confirmations", confirmations: 1 },
    fromBlock: b.deployedAt,
    blockRange: 1000,
    lock,
    ...over,
  };
}

/** The stored fees of `contracts`, as [amount, block]. */
async function feesOf(...contracts: string[]) {
  const rows = await database.db
    .select()
    .from(protocolFees)
    .where(
      inArray(
        protocolFees.contract,
        contracts.map((c) => c.toLowerCase()),
      ),
    );
  return rows.map((f) => [f.amountMicro, f.blockNumber]);
}

/** A client of the local chain whose answers `edit` may change (a node that misleads). */
function misleadingClient(
  edit: (
    method: string,
    params: unknown[],
    forward: (m: string, p: unknown[]) => Promise<unknown>,
  ) => Promise<unknown>,
): PublicClient {
  const forward = async (method: string, params: unknown[]) => {
    const res = await fetch(chain.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result;
  };
  return createPublicClient({
    cacheTime: 0,
    transport: custom({
      request: ({ method, params }: { method: string; params: unknown[] }) => edit(method, params, forward),
    }),
  }) as PublicClient;
}

describe("a node that misleads the indexer", () => {
  it("stores nothing when eth_getLogs answers logs of a contract it was not asked about", async () => {
    // Before: the other contract's 900,000 USDC fee was stored (and counted in the prize pool) beside ours.
    const b = await deployBetting(chain);
    await b.collectFees([1_000_000n]);
    const mint = encodeFunctionData({
      abi: [
        {
          type: "function",
          name: "mint",
          inputs: [
            { name: "to", type: "address" },
            { name: "amount", type: "uint256" },
          ],
          outputs: [],
          stateMutability: "nonpayable",
        },
      ],
      functionName: "mint",
      args: [b.otherBetting, 900_000_000_000n],
    });
    await chain.client.waitForTransactionReceipt({ hash: await chain.send(0, { to: b.usdc, data: mint }) });
    const collect = encodeFunctionData({
      abi: spBettingAbi,
      functionName: "collectFees",
      args: [[900_000_000_000n]],
    });
    await chain.client.waitForTransactionReceipt({
      hash: await chain.send(0, { to: b.otherBetting, data: collect }),
    });
    await chain.mine(2);
    // A node whose eth_getLogs ignores the address filter.
    const sloppy = misleadingClient((method, params, forward) =>
      forward(method, method === "eth_getLogs" ? [{ ...(params[0] as object), address: undefined }] : params),
    );
    await expect(indexFees(indexer(b, { client: sloppy }))).rejects.toThrow(
      /eth_getLogs answered a log it was not asked for/,
    );
    expect(await feesOf(b.betting, b.otherBetting)).toEqual([]);
    // An honest node: our fee only.
    const run = await indexFees(indexer(b));
    expect(run.created).toBe(1);
    expect(await feesOf(b.betting, b.otherBetting)).toEqual([[1_000_000n, expect.any(BigInt)]]);
  });

  it("rolls nothing back when the node is behind what was read, and stores nothing twice once it catches up", async () => {
    // Before: the stored block the lagging node did not have counted as a reorganisation: the fee was rolled back
    // and read again (for a bet: rejected as REORGANISED, then recorded a second time).
    const b = await deployBetting(chain);
    const receipt = await b.collectFees([5_000_000n]);
    await chain.mine(8);
    const deps = indexer(b);
    expect((await indexFees(deps)).status).toBe("indexed");
    expect(await feesOf(b.betting)).toEqual([[5_000_000n, receipt.blockNumber]]);

    let lag = 6n;
    const behind = misleadingClient(async (method, params, forward) => {
      const real = BigInt((await forward("eth_blockNumber", [])) as string);
      const head = real - lag;
      if (method === "eth_blockNumber") return `0x${head.toString(16)}`;
      if (method === "eth_getBlockByNumber") {
        const tag = params[0] as string;
        const n = ["latest", "finalized", "safe"].includes(tag) ? head : BigInt(tag);
        return n > head ? null : forward(method, [`0x${n.toString(16)}`, params[1]]);
      }
      return forward(method, params);
    });
    const lagging = { ...deps, client: behind };
    const run = await indexFees(lagging);
    expect(run).toMatchObject({ status: "node-behind", rolledBack: 0 });
    expect(await feesOf(b.betting)).toEqual([[5_000_000n, receipt.blockNumber]]);
    lag = 0n;
    await chain.mine(2);
    expect(await indexFees(lagging)).toMatchObject({ rolledBack: 0, created: 0 });
    expect(await feesOf(b.betting)).toEqual([[5_000_000n, receipt.blockNumber]]);
  });

  it("after a reorganisation below exactly 100 stored blocks, drops the losing chain's fee and reads the winning one's", async () => {
    // Before: the walk back committed a rollback per batch of 100 stored blocks, and the next pass returned at
    // once: the losing chain's 111 USDC stayed, the winning chain's 222 was never read.
    const b = await deployBetting(chain);
    await b.fundContract(333_000_000n);
    const fork = await chain.client.getBlockNumber();
    const snapshot = await chain.snapshot();
    const collect = async (amount: bigint) =>
      chain.client.waitForTransactionReceipt({
        hash: await chain.send(0, {
          to: b.betting,
          data: encodeFunctionData({ abi: spBettingAbi, functionName: "collectFees", args: [[amount]] }),
        }),
        pollingInterval: 10,
      });
    const losing = await collect(111_000_000n);
    // 199 more blocks: with ranges of 2 blocks from the block before the fork, exactly 100 stored blocks lie
    // above the fork.
    await chain.mine(199);
    const deps = indexer(b, { fromBlock: fork - 1n, blockRange: 2 });
    await indexFees(deps);
    expect(await feesOf(b.betting)).toEqual([[111_000_000n, losing.blockNumber]]);

    await chain.revert(snapshot);
    const winning = await collect(222_000_000n);
    await chain.mine(250);
    const run = await indexFees(deps);
    expect(run.rolledBack).toBe(1);
    expect(await feesOf(b.betting)).toEqual([[222_000_000n, winning.blockNumber]]);
  });
});
