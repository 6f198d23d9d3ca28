/**
 * Champions prizes paid by the Merkle distributor, with real transactions on a local chain (ganache) and the
 * service's own API, CLI and indexer: finalize builds the tree, the CLI gives the operator the root and the
 * calldata, the owner sets the root and funds the contract, each winner claims with the proof /me gives, and the
 * prize-claim indexer marks the claims.
 *
 * Season of the test config: week 0 = [Mon 2026-11-02, Tue 2026-11-10), week 1 = [11-10, 11-17). The service's
 * clock is Fri 2026-11-20 12:00 (week 2 live, week 1 ended). PROTOCOL_INCENTIVE_USDC = 100.000001 and no fees:
 * week 1's pool is 100.000001 USDC = 100,000,001 micro-USDC.
 * Week 0: players A..F, 100 SP each (all within the Qualification top 25: all eligible for Champions week 1).
 * Week 1 Champions ladder: A 900 (rank 1), B 800 and C 800 (tied at rank 2), D 700 (rank 4), E 600 (rank 5),
 * F 500 (rank 6, unpaid). Prizes, floored to the micro-USDC:
 *   A: floor(100000001 × 35 / 100) = 35,000,000;  B, C: floor(100000001 × 30 / 200) = 15,000,000 each;
 *   D: floor(100000001 × 10 / 100) = 10,000,000;  E: floor(100000001 × 5 / 100) = 5,000,000.
 * Distributed 80,000,000; undistributed 100,000,001 − 80,000,000 = 20,000,001 (rank 3's 20 % and 1 of dust).
 */
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import {
  type Address,
  type BaseError,
  decodeErrorResult,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  type Hex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prizeDistributorAbi } from "../../contracts/abi.js";
import { compileContracts } from "../../contracts/compile.js";
import { call, FINALIZE } from "../../test/app.js";
import { OWNER } from "../../test/chain/betting-fixture.js";
import { type ChainWorld, type Player, startChainWorld } from "../../test/chain/chain-world.js";
import type { LocalChain } from "../../test/chain/local-chain.js";
import { addSp, getData, putEvent } from "../../test/competition-api.js";
import { dataOf } from "../../test/player-api.js";
import { prizeRootCommand } from "../cli/commands.js";
import { prizeClaims } from "../db/schema.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const POOL = 100_000_001n;
const UNDISTRIBUTED = 20_000_001n;

let w: ChainWorld;
let distributor: Address;
let usdcAbi: Parameters<typeof encodeFunctionData>[0]["abi"];
const players: Record<string, Player> = {};
const prizes: Record<string, bigint> = {
  A: 35_000_000n,
  B: 15_000_000n,
  C: 15_000_000n,
  D: 10_000_000n,
  E: 5_000_000n,
};

const mined = (chain: LocalChain, hash: Hex) =>
  chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });

async function deployDistributor(chain: LocalChain, usdc: Address) {
  const { PrizeDistributor } = await compileContracts();
  const receipt = await mined(
    chain,
    await chain.send(OWNER, {
      data: encodeDeployData({
        abi: prizeDistributorAbi,
        bytecode: PrizeDistributor!.bytecode,
        args: [usdc],
      }),
      gas: 2_000_000n,
    }),
  );
  return { address: getAddress(receipt.contractAddress!), deployedAt: receipt.blockNumber };
}

const balanceOf = async (account: Address) =>
  (await w.chain.client.readContract({
    address: w.betting.usdc,
    abi: usdcAbi,
    functionName: "balanceOf",
    args: [account],
  })) as bigint;

async function send(i: number, to: Address, data: Hex) {
  return mined(w.chain, await w.chain.send(i, { to, data }));
}

const claimData = (week: bigint, account: string, amount: bigint, proof: string[]) =>
  encodeFunctionData({
    abi: prizeDistributorAbi,
    functionName: "claim",
    args: [week, account as Address, amount, proof as Hex[]],
  });

/** The name of the error `data` sent from test key i to the distributor reverts with (simulated, then mined). */
async function revertOf(i: number, data: Hex): Promise<string> {
  let name = "none";
  try {
    await w.chain.client.call({ to: distributor, data, account: w.chain.address(i) });
  } catch (err) {
    // Ganache answers a revert with JSON-RPC code -32000 and the revert data, which viem leaves undecoded.
    const withData = (err as BaseError).walk((e) => typeof (e as { data?: unknown }).data === "string");
    const raw = (withData as { data?: Hex } | null)?.data;
    name = raw ? decodeErrorResult({ abi: prizeDistributorAbi, data: raw }).errorName : "undecoded";
  }
  const receipt = await send(i, distributor, data);
  expect(receipt.status).toBe("reverted");
  return name;
}

const me = async (p: Player) =>
  dataOf(
    await call(w.t.app, { method: "GET", url: "/api/competition/me?week=1", headers: { cookie: p.cookie } }),
  );

beforeAll(async () => {
  usdcAbi = (await compileContracts()).TestUSDC!.abi;
  w = await startChainWorld({
    now: NOW,
    env: {
      CHAIN_VERIFIER: "none",
      ODDS_SIGNER_PRIVATE_KEY: "",
      PAYOUT_SIGNER_PRIVATE_KEY: "",
      CHAIN_CONFIRMATIONS: "2",
      PROTOCOL_INCENTIVE_USDC: "100.000001",
    },
    prepare: async (chain, betting) => {
      const deployed = await deployDistributor(chain, betting.usdc);
      distributor = deployed.address;
      return {
        PRIZE_DISTRIBUTOR_ADDRESS: deployed.address,
        PRIZE_INDEXER_FROM_BLOCK: String(deployed.deployedAt),
      };
    },
  });
  await putEvent(w.t, "pd-w0", "2026-11-05T18:00:00.000Z");
  await putEvent(w.t, "pd-w1", "2026-11-12T18:00:00.000Z");
  const week1: Record<string, number> = { A: 900, B: 800, C: 800, D: 700, E: 600, F: 500 };
  for (const [name, sp] of Object.entries(week1)) {
    const p = await w.newPlayer();
    players[name] = p;
    await addSp(w.t, { wallet: p.wallet, type: "PREDICTION", amount: 100, eventId: "pd-w0" });
    await addSp(w.t, { wallet: p.wallet, type: "PREDICTION", amount: sp, eventId: "pd-w1" });
  }
  for (const week of [0, 1]) {
    const res = await call(w.t.app, {
      method: "POST",
      url: `/api/competition/finalize?week=${week}`,
      headers: FINALIZE,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await w?.close();
});

describe("a finalized week's prizes, paid on-chain", () => {
  let tree: any;
  let cli: Awaited<ReturnType<typeof prizeRootCommand>>;

  it("publishes one leaf per paid winner (B and C tied at rank 2 each get theirs), rebuildable by a third party", async () => {
    tree = await getData(w.t, "/api/competition/weeks/1/prize-tree");
    const leaf = (name: string, amountUsdc: string) => ({
      account: players[name]!.wallet,
      amountUsdc,
      amountMicro: String(prizes[name]),
      carriedUsdc: "0.000000",
      claimed: false,
    });
    expect(tree).toEqual({
      week: 1,
      root: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      leafEncoding: ["uint256", "address", "uint256"],
      totalUsdc: "80.000000",
      totalMicro: "80000000",
      leaves: [
        leaf("A", "35.000000"),
        leaf("B", "15.000000"),
        leaf("C", "15.000000"),
        leaf("D", "10.000000"),
        leaf("E", "5.000000"),
      ],
      awaitingWallet: [],
      carried: [],
    });
    const values = tree.leaves.map((l: any) => [String(tree.week), l.account, l.amountMicro]);
    expect(StandardMerkleTree.of(values, tree.leafEncoding).root).toBe(tree.root);
    // The finalize answer agrees: pool 100.000001, distributed 80, undistributed 20.000001.
    const finalized = await call(w.t.app, {
      method: "POST",
      url: "/api/competition/finalize?week=1",
      headers: FINALIZE,
    });
    expect(dataOf(finalized).pool).toEqual({
      estimatedUsdc: "100.000001",
      distributedUsdc: "80.000000",
      undistributedUsdc: "20.000001",
    });
  });

  it("the CLI gives the operator the root, the total and the calldata; the owner sets the root once", async () => {
    cli = await prizeRootCommand(
      { database: w.t.database, config: w.t.config, clock: w.t.clock },
      { week: 1 },
    );
    expect(cli).toMatchObject({
      week: 1,
      root: tree.root,
      leaves: 5,
      totalMicro: "80000000",
      totalUsdc: "80.000000",
      distributor,
      setRoot: { to: distributor },
      fund: { token: "USDC" },
    });
    // Nobody but the owner can set a root.
    expect(await revertOf(players.A!.i, cli.setRoot!.data)).toBe("OwnableUnauthorizedAccount");
    expect((await send(OWNER, distributor, cli.setRoot!.data)).status).toBe("success");
    expect(
      await w.chain.client.readContract({
        address: distributor,
        abi: prizeDistributorAbi,
        functionName: "roots",
        args: [1n],
      }),
    ).toBe(tree.root);
    // A published root is never replaced.
    expect(await revertOf(OWNER, cli.setRoot!.data)).toBe("RootAlreadySet");

    // Funding: the owner mints the week's whole pool (test USDC), sends the CLI's transfer (the 80 USDC the leaves
    // pay), then the undistributed 20.000001, so the contract holds the pool: 100.000001 USDC.
    const mint = encodeFunctionData({
      abi: usdcAbi,
      functionName: "mint",
      args: [w.chain.address(OWNER), POOL],
    });
    await send(OWNER, w.betting.usdc, mint);
    expect((await send(OWNER, w.betting.usdc, cli.fund!.data)).status).toBe("success");
    const rest = encodeFunctionData({
      abi: usdcAbi,
      functionName: "transfer",
      args: [distributor, UNDISTRIBUTED],
    });
    await send(OWNER, w.betting.usdc, rest);
    expect(await balanceOf(distributor)).toBe(POOL);
  });

  it("each winner claims exactly their share once with the proof /me gives", async () => {
    for (const name of ["A", "B", "C", "D", "E"]) {
      const p = players[name]!;
      const claim = (await me(p)).prizeClaim;
      expect(claim, name).toEqual({
        week: 1,
        root: tree.root,
        account: p.wallet,
        amountUsdc: tree.leaves.find((l: any) => l.account === p.wallet).amountUsdc,
        amountMicro: String(prizes[name]),
        carriedUsdc: "0.000000",
        proof: expect.any(Array),
        claimed: false,
        awaitingWallet: false,
        paidInWeek: null,
      });
      expect(await balanceOf(p.wallet as Address)).toBe(0n);
      const receipt = await send(p.i, distributor, claimData(1n, p.wallet, prizes[name]!, claim.proof));
      expect(receipt.status, name).toBe("success");
      expect(await balanceOf(p.wallet as Address), name).toBe(prizes[name]);
    }
    // F holds no paid rank: no claim on /me.
    expect((await me(players.F!)).prizeClaim).toBeNull();
    // Everything paid; the contract keeps exactly the undistributed remainder.
    expect(await balanceOf(distributor)).toBe(UNDISTRIBUTED);
  });

  it("reverts a second claim, a wrong proof or amount, and a claim for another week", async () => {
    const a = players.A!;
    const b = players.B!;
    const proofA = (await me(a)).prizeClaim.proof as string[];
    const proofB = (await me(b)).prizeClaim.proof as string[];
    expect(await revertOf(a.i, claimData(1n, a.wallet, prizes.A!, proofA))).toBe("AlreadyClaimed");
    // F claims with A's proof, for F or for more than A's amount: not a leaf.
    const f = players.F!;
    expect(await revertOf(f.i, claimData(1n, f.wallet, prizes.A!, proofA))).toBe("InvalidProof");
    expect(await revertOf(f.i, claimData(1n, f.wallet, 15_000_000n, proofB))).toBe("InvalidProof");
    // Week 2 has no root.
    expect(await revertOf(a.i, claimData(2n, a.wallet, prizes.A!, proofA))).toBe("NoRoot");
    // Week 1's root published under another week does not pay week 1's leaves there: the leaf binds the week.
    await send(
      OWNER,
      distributor,
      encodeFunctionData({ abi: prizeDistributorAbi, functionName: "setRoot", args: [99n, tree.root] }),
    );
    expect(await revertOf(a.i, claimData(99n, a.wallet, prizes.A!, proofA))).toBe("InvalidProof");
    expect(await balanceOf(distributor)).toBe(UNDISTRIBUTED);
    expect(await balanceOf(a.wallet as Address)).toBe(prizes.A);
  });

  it("the indexer records each claim once from final blocks; /me and the tree show them claimed", async () => {
    await w.chain.mine(2);
    await w.index();
    await w.index(); // a second run changes nothing
    const rows = await w.t.database.db.select().from(prizeClaims).orderBy(prizeClaims.blockNumber);
    expect(rows.map((r) => [r.week, r.account, r.amountMicro, r.contract])).toEqual(
      ["A", "B", "C", "D", "E"].map((n) => [
        1,
        players[n]!.wallet.toLowerCase(),
        prizes[n],
        distributor.toLowerCase(),
      ]),
    );
    for (const name of ["A", "B", "C", "D", "E"]) {
      expect((await me(players[name]!)).prizeClaim.claimed, name).toBe(true);
    }
    const after = await getData(w.t, "/api/competition/weeks/1/prize-tree");
    expect(after.leaves.map((l: any) => l.claimed)).toEqual([true, true, true, true, true]);
    expect(after.root).toBe(tree.root); // never changed
    const info = dataOf(await call(w.t.app, { method: "GET", url: "/api/chain/info" }));
    expect(info.prizeDistributorAddress).toBe(distributor);
  });

  it("a claim whose block a reorganisation removes is unmarked, and marked again once claimed anew", async () => {
    // On a fork that will be dropped: the owner publishes a root for week 7 holding G alone, and G claims 1 USDC
    // of the remainder.
    const mark = await w.chain.snapshot();
    const g = await w.newPlayer();
    const gTree = StandardMerkleTree.of([["7", g.wallet, "1000000"]], ["uint256", "address", "uint256"]);
    await send(
      OWNER,
      distributor,
      encodeFunctionData({
        abi: prizeDistributorAbi,
        functionName: "setRoot",
        args: [7n, gTree.root as Hex],
      }),
    );
    await send(g.i, distributor, claimData(7n, g.wallet, 1_000_000n, gTree.getProof(0)));
    await w.chain.mine(2);
    await w.index();
    const count = async () => (await w.t.database.db.select().from(prizeClaims)).length;
    expect(await count()).toBe(6);
    await w.chain.revert(mark);
    await w.chain.mine(5); // the canonical chain moves on without the claim
    await w.index();
    expect(await count()).toBe(5);
    expect(await balanceOf(distributor)).toBe(UNDISTRIBUTED);
  });
});
