/**
 * The fee indexer against a real local chain (ganache): FeeCollected logs become protocol fee records stamped
 * with their block's time, only past the confirmation depth, exactly once across restarts, crashes and rewinds,
 * by one instance at a time; and the prize-pool estimate then counts them.
 *
 * The chain's clock starts on Tue 2026-11-10 01:00 UTC (week 1) and runs in real time; only the last test moves it
 * (to weeks 2 and 3). CHAIN_CONFIRMATIONS=2 throughout. Each test deploys its own betting contract, so its cursor
 * and its fees are its own.
 */
import { inArray } from "drizzle-orm";
import type { TransactionReceipt } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onchainMarketId } from "../../contracts/bet-encoding.js";
import { ADMIN, call, createTestApp, type TestApp, testConfig } from "../../test/app.js";
import { type BettingFixture, deployBetting } from "../../test/chain/betting-fixture.js";
import { createEngineDatabase } from "../../test/chain/engine-database.js";
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from "../../test/chain/local-chain.js";
import { dataOf } from "../../test/player-api.js";
import type { Database } from "../db/client.js";
import { type LeaderLock, leaderLockFor } from "../db/leader-lock.js";
import { protocolFees } from "../db/schema.js";
import { DEFAULT_FEE_EVENT, type FeeEvent, parseFeeEvent } from "../shared/fee-event.js";
import { advanceCursor, readCursor } from "./chain.repository.js";
import { createChainClient } from "./chain-client.js";
import { startChainJobs } from "./chain-jobs.js";
import { type FeeIndexerDeps, feeCursorName, indexFees } from "./fee-indexer.js";

const CHAIN_START = new Date("2026-11-10T01:00:00.000Z"); // Tue, week 1
const NOW = new Date("2026-11-26T12:00:00.000Z"); // Thu, week 3 = [Tue 2026-11-24, Tue 2026-12-01)
const silent = { warn: () => {}, error: () => {} };

let chain: LocalChain;
let database: Database;
let databaseUrl: string | null;
let t: TestApp;
const locks: LeaderLock[] = [];
beforeAll(async () => {
  chain = await startLocalChain({ startTime: CHAIN_START, accounts: 2 });
  ({ database, url: databaseUrl } = await createEngineDatabase());
  t = await createTestApp({ now: NOW, database });
});
afterAll(async () => {
  await Promise.all(locks.map((l) => l.release()));
  await t?.close();
  await database?.close();
  await chain?.close();
});

const FEE_COLLECTED = parseFeeEvent(DEFAULT_FEE_EVENT, "amount", 6) as FeeEvent;
/** The fee cursor of `b`'s contract with the default event. */
const cursorOf = (b: BettingFixture) => feeCursorName(LOCAL_CHAIN_ID, FEE_COLLECTED.topic0, [b.betting]);

let lockKeys = 91_100;
/**
 * A leader lock as the server builds it (advisory on PostgreSQL, in-process on PGlite); a key of its own unless
 * given, so that independent indexers of this file do not exclude each other.
 */
function newLock(key = lockKeys++): LeaderLock {
  const lock = leaderLockFor(databaseUrl, database, key);
  locks.push(lock);
  return lock;
}

/** An indexer of `b`'s contract from its deployment block, as a freshly started instance would build it. */
function indexer(b: BettingFixture, over: Partial<FeeIndexerDeps> = {}): FeeIndexerDeps {
  return {
    db: database.db,
    clock: t.clock,
    client: createChainClient(chain.url),
    chainId: LOCAL_CHAIN_ID,
    addresses: [b.betting],
    event: FEE_COLLECTED,
    finality: { mode: "finalized", confirmations: 2 },
    fromBlock: b.deployedAt,
    blockRange: 1000,
    lock: newLock(),
    ...over,
  };
}

/** The stored fees of these receipts' FeeCollected logs, as [txHash, logIndex, amountMicro, occurredAt ISO]. */
async function storedFees(receipts: TransactionReceipt[]) {
  const rows = await database.db
    .select()
    .from(protocolFees)
    .where(
      inArray(
        protocolFees.txHash,
        receipts.map((r) => r.transactionHash),
      ),
    )
    .orderBy(protocolFees.txHash, protocolFees.logIndex);
  return rows.map((r) => [r.txHash, r.logIndex, r.amountMicro, r.occurredAt.toISOString()]);
}

/** What `storedFees` should hold for these receipts: one row per FeeCollected log, stamped with its block time. */
async function expectedFees(receipts: TransactionReceipt[], b: BettingFixture) {
  const rows: Array<[string, number, bigint, string]> = [];
  for (const r of receipts) {
    const block = await chain.client.getBlock({ blockNumber: r.blockNumber });
    const at = new Date(Number(block.timestamp) * 1000).toISOString();
    for (const log of r.logs) {
      if (log.address.toLowerCase() !== b.betting.toLowerCase()) continue;
      rows.push([r.transactionHash, log.logIndex, BigInt(log.data), at]);
    }
  }
  return rows.sort((x, y) => (x[0] === y[0] ? x[1] - y[1] : x[0] < y[0] ? -1 : 1));
}

describe("indexing", () => {
  it("stores each FeeCollected log once it has the confirmations, at its block's time", async () => {
    const b = await deployBetting(chain);
    const two = await b.collectFees([1_500_000n, 2_000_000n]); // two logs in one transaction
    const quote = {
      bettor: chain.address(1),
      marketId: onchainMarketId("fi-bet", "1x2"),
      outcome: 0,
      odds: 2000n,
      expiry: 2n ** 40n,
    };
    await b.placeBet(1, await b.sign(quote), 5_000_000n); // a BetPlaced log, not a fee

    const last = await b.collectFees([250_000n]); // the head block: 1 confirmation
    const deps = indexer(b);

    expect(await indexFees(deps)).toMatchObject({
      status: "indexed",
      created: 2,
      nextBlock: last.blockNumber,
    });
    expect(await storedFees([two, last])).toEqual(await expectedFees([two], b));
    expect((await storedFees([two]))[0]?.[2]).toBe(1_500_000n); // micro-USDC, 6 decimals

    await chain.mine(1);
    expect(await indexFees(deps)).toMatchObject({
      status: "indexed",
      created: 1,
      nextBlock: last.blockNumber + 1n,
    });
    expect(await storedFees([two, last])).toEqual(await expectedFees([two, last], b));
    expect(await indexFees(deps)).toMatchObject({ status: "caught-up", created: 0 });
  });

  it("resumes after a restart mid-range: no gap, no duplicate", async () => {
    const b = await deployBetting(chain);
    const receipts = [];
    for (const amount of [1n, 2n, 3n, 4n]) receipts.push(await b.collectFees([amount, amount * 10n]));
    await chain.mine(1);
    // Ranges of 4 blocks from the deployment block d: d+1 deploys another contract, then each collectFees is two
    // blocks (mint, then collect), so the first range [d, d+3] holds the first collect only.
    const first = await indexFees(indexer(b, { blockRange: 4 }), { maxRanges: 1 });
    expect(first).toMatchObject({ status: "indexed", ranges: 1, created: 2, nextBlock: b.deployedAt + 4n });
    expect(await storedFees(receipts)).toEqual(await expectedFees(receipts.slice(0, 1), b));

    // A new instance (new client, new lock, same database) carries on from the stored cursor.
    const rest = await indexFees(indexer(b, { blockRange: 4 }));
    expect(rest).toMatchObject({ status: "indexed", created: 6 });
    expect(await storedFees(receipts)).toEqual(await expectedFees(receipts, b));
  });

  it("stores nothing of a range whose transaction fails, and reads the range again next time", async () => {
    const b = await deployBetting(chain);
    const receipt = await b.collectFees([5n, 6n]);
    await chain.mine(1);
    // The database as the indexer sees it, except that every transaction fails after its work, before commit.
    const crashing = new Proxy(database.db, {
      get: (target, prop, receiver) =>
        prop === "transaction"
          ? (fn: Parameters<Database["db"]["transaction"]>[0]) =>
              target.transaction(async (tx) => {
                await fn(tx);
                throw new Error("crash before commit");
              })
          : Reflect.get(target, prop, receiver),
    });
    await expect(indexFees(indexer(b, { db: crashing }))).rejects.toThrow("crash before commit");
    expect(await storedFees([receipt])).toEqual([]);
    expect(await readCursor(database.db, cursorOf(b))).toBeNull();

    expect(await indexFees(indexer(b))).toMatchObject({ status: "indexed", created: 2 });
    expect(await storedFees([receipt])).toEqual(await expectedFees([receipt], b));
  });

  it("re-reading blocks already indexed (a rewound cursor) stores no duplicate", async () => {
    const b = await deployBetting(chain);
    const receipt = await b.collectFees([7n, 8n, 9n]);
    await chain.mine(1);
    const done = await indexFees(indexer(b));
    expect(done.created).toBe(3);
    const name = cursorOf(b);
    await database.db.transaction((tx) =>
      advanceCursor(tx, name, done.nextBlock, b.deployedAt, t.clock.now()),
    );
    expect(await indexFees(indexer(b))).toMatchObject({
      status: "indexed",
      created: 0,
      nextBlock: done.nextBlock,
    });
    expect(await storedFees([receipt])).toEqual(await expectedFees([receipt], b));
  });

  it("keeps a fee the feed API recorded first, without a duplicate", async () => {
    const b = await deployBetting(chain);
    const receipt = await b.collectFees([11n]);
    await chain.mine(1);
    const log = receipt.logs.find((l) => l.address.toLowerCase() === b.betting.toLowerCase())!;
    const fed = await call(t.app, {
      method: "POST",
      url: "/api/admin/protocol-fees",
      headers: ADMIN,
      payload: {
        txHash: receipt.transactionHash.toUpperCase().replace("0X", "0x"),
        logIndex: log.logIndex,
        amountUsdc: "0.000011",
        occurredAt: "2026-11-10T02:00:00.000Z",
      },
    });
    dataOf(fed, 201);
    expect(await indexFees(indexer(b))).toMatchObject({ status: "indexed", created: 0 });
    expect(await storedFees([receipt])).toEqual([
      [receipt.transactionHash, log.logIndex, 11n, "2026-11-10T02:00:00.000Z"],
    ]);
  });

  it("refuses to index a node that serves another chain than CHAIN_ID", async () => {
    const b = await deployBetting(chain);
    await expect(indexFees(indexer(b, { chainId: 8453 }))).rejects.toThrow(
      `CHAIN_RPC_URL serves chain ${LOCAL_CHAIN_ID}, not CHAIN_ID 8453`,
    );
  });
});

describe("one indexer at a time", () => {
  it("lets only the holder of the leader lock index; another takes over once it is released", async () => {
    const b = await deployBetting(chain);
    const first = await b.collectFees([21n]);
    await chain.mine(1);
    const a = indexer(b, { lock: newLock(91_002) });
    const c = indexer(b, { lock: newLock(91_002) });
    expect(await indexFees(a)).toMatchObject({ status: "indexed", created: 1 });
    expect(await indexFees(c)).toMatchObject({ status: "not-leader", created: 0 });

    const second = await b.collectFees([22n]);
    await chain.mine(1);
    await a.lock.release();
    expect(await indexFees(c)).toMatchObject({ status: "indexed", created: 1 });
    expect(await indexFees(a)).toMatchObject({ status: "not-leader" });
    expect(await storedFees([first, second])).toEqual(await expectedFees([first, second], b));
  });

  it("moves a cursor only from where it was read", async () => {
    const name = "fees:test:cas";
    await database.db.transaction(async (tx) => {
      expect(await advanceCursor(tx, name, null, 10n, t.clock.now())).toBe(true);
      expect(await advanceCursor(tx, name, null, 20n, t.clock.now())).toBe(false);
      expect(await advanceCursor(tx, name, 5n, 20n, t.clock.now())).toBe(false);
      expect(await advanceCursor(tx, name, 10n, 20n, t.clock.now())).toBe(true);
    });
    expect(await readCursor(database.db, name)).toBe(20n);
  });
});

// This test moves the chain's clock to weeks 2 and 3: it runs last.
describe("the prize-pool estimate", () => {
  it("counts the indexed fees of week W−1 (by block time) in week W's pool", async () => {
    const b = await deployBetting(chain);
    await chain.setTime(new Date("2026-11-18T09:00:00.000Z")); // Wed, week 2
    await b.collectFees([100_000_000n, 23_450_000n]);
    await chain.setTime(new Date("2026-11-24T00:00:00.000Z")); // Tue, week 3 starts
    await b.collectFees([7_000_000n]);
    await chain.mine(1);

    const config = testConfig({
      FEE_INDEXER: "on",
      CHAIN_RPC_URL: chain.url,
      BETTING_CONTRACT_ADDRESS: b.betting,
      CHAIN_ID: String(LOCAL_CHAIN_ID),
      CHAIN_CONFIRMATIONS: "2",
      CHAIN_POLL_MS: "100",
      FEE_INDEXER_FROM_BLOCK: String(b.deployedAt),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const jobs = startChainJobs({ config, database, clock: t.clock, log: silent });
    try {
      const name = cursorOf(b);
      const head = await chain.client.getBlockNumber();
      await expect.poll(() => readCursor(database.db, name), { timeout: 15_000 }).toBe(head);
    } finally {
      await jobs.stop();
    }

    const pool = async (week: number) =>
      dataOf(await call(t.app, { method: "GET", url: `/api/competition/prize-pool-estimate?week=${week}` }));
    // Week 3's pool: fees of week 2 = [Tue 11-17, Tue 11-24) = 100 + 23.45 USDC.
    expect(await pool(3)).toMatchObject({
      selectedWeek: 3,
      fundingWeekIndex: 2,
      feeWindowStart: "2026-11-17T00:00:00.000Z",
      feeWindowEnd: "2026-11-24T00:00:00.000Z",
      estimatedUsdc: "123.450000",
      sources: { protocolFeesWeek: "123.450000", protocolIncentiveUsdc: "0.000000", entries: "0.000000" },
    });
    // Week 4's pool so far: fees of week 3 up to now (Thu 11-26 12:00) = the 7 USDC collected on Tue 11-24.
    expect((await pool(4)).sources.protocolFeesWeek).toBe("7.000000");
  });
});
