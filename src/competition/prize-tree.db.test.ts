/**
 * A Champions winner without a wallet (identity sign-in only): their prize is listed as awaiting in their week's
 * tree, and once they link a wallet it is carried into the tree of the next week finalized, whose leaf for them
 * pays it; no root ever changes and nothing is carried twice. Reading a tree never stores one: a week finalized
 * before trees were stored gets its tree from the start-up back-fill.
 *
 * Season of the test config: week 0 = [Mon 2026-11-02, Tue 2026-11-10), week 1 = [11-10, 11-17), week 2 =
 * [11-17, 11-24), week 3 = [11-24, 12-01). PROTOCOL_INCENTIVE_USDC = 100, no fees: every week's pool is 100 USDC.
 * Week 0: Ida (identity only) and W (a wallet) 100 SP each (both eligible for Champions week 1).
 * Week 1: Ida 900 (rank 1: 35 % = 35 USDC), W 800 (rank 2: 30 % = 30 USDC). Weeks 2 and 3: no SP, no prizes.
 */
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";
import { sql } from "drizzle-orm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, createTestApp, FINALIZE, signedSiwe, type TestApp, testKey } from "../../test/app.js";
import { addSp, getData, NO_RATE_LIMITS, putEvent, setNow } from "../../test/competition-api.js";
import { startTestIssuer, type TestIssuer } from "../../test/oidc-issuer.js";
import { dataOf } from "../../test/player-api.js";
import { backfillPrizeTrees } from "./backfill-prize-trees.js";
import { weeksWithoutPrizeTree } from "./prize-tree.repository.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
let issuer: TestIssuer;
let t: TestApp;
let ida: { userId: string; cookie: string };
let w: { userId: string; wallet: string };
const idaKey = testKey(801);
const idaWallet = privateKeyToAccount(idaKey).address;

async function finalize(week: number) {
  const res = await call(t.app, {
    method: "POST",
    url: `/api/competition/finalize?week=${week}`,
    headers: FINALIZE,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const myClaim = async (week: number) =>
  (await getData(t, `/api/competition/me?week=${week}`, ida.cookie)).prizeClaim;

/** Wallet sign-in while signed in with `cookie`: links the wallet to that account (it has none). */
async function linkWallet(cookie: string, key: `0x${string}`) {
  const { body, cookie: nonceCookie } = await signedSiwe(t, key);
  const res = await call(t.app, {
    method: "POST",
    url: "/api/auth/wallet",
    payload: body,
    headers: { cookie: `${cookie}; ${nonceCookie}` },
  });
  return dataOf(res).user;
}

beforeAll(async () => {
  issuer = await startTestIssuer({ now: () => t.clock.now() });
  t = await createTestApp({
    now: NOW,
    env: { ...NO_RATE_LIMITS, ...issuer.env, PROTOCOL_INCENTIVE_USDC: "100" },
  });
  const res = await call(t.app, {
    method: "POST",
    url: "/api/auth/oidc",
    payload: { idToken: await issuer.token("ida", NOW, { name: "Ida" }) },
  });
  const user = dataOf(res).user;
  expect(user.wallet).toBeNull();
  ida = { userId: user.id, cookie: `session=${res.cookies.find((c) => c.name === "session")!.value}` };
  await putEvent(t, "pt-w0", "2026-11-05T18:00:00.000Z");
  await putEvent(t, "pt-w1", "2026-11-12T18:00:00.000Z");
  const sp = (row: Record<string, unknown>, amount: number, eventId: string) =>
    call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      headers: { authorization: "Bearer test-admin-token" },
      payload: {
        ...row,
        type: "PREDICTION",
        amount,
        eventId,
        externalId: `pt-${eventId}-${JSON.stringify(row)}`,
      },
    });
  expect((await sp({ userId: ida.userId }, 100, "pt-w0")).status).toBe(201);
  expect((await sp({ userId: ida.userId }, 900, "pt-w1")).status).toBe(201);
  const wallet = privateKeyToAccount(testKey(800)).address;
  w = { userId: await addSp(t, { wallet, type: "PREDICTION", amount: 100, eventId: "pt-w0" }), wallet };
  await addSp(t, { wallet, type: "PREDICTION", amount: 800, eventId: "pt-w1" });
  await finalize(0);
  await finalize(1);
});

afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

let root1: string;

it("leaves the wallet-less winner out of the tree and lists their prize as awaiting", async () => {
  const tree = await getData(t, "/api/competition/weeks/1/prize-tree");
  expect(tree).toEqual({
    week: 1,
    root: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    leafEncoding: ["uint256", "address", "uint256"],
    totalUsdc: "30.000000",
    totalMicro: "30000000",
    leaves: [
      {
        account: w.wallet,
        amountUsdc: "30.000000",
        amountMicro: "30000000",
        carriedUsdc: "0.000000",
        claimed: false,
      },
    ],
    awaitingWallet: [{ userId: ida.userId, amountUsdc: "35.000000", paidInWeek: null }],
    carried: [],
  });
  root1 = tree.root;
  expect(await myClaim(1)).toEqual({
    week: 1,
    root: root1,
    account: null,
    amountUsdc: "35.000000",
    amountMicro: "35000000",
    carriedUsdc: "0.000000",
    proof: [],
    claimed: false,
    awaitingWallet: true,
    paidInWeek: null,
  });
});

it("carries the prize into the next finalized week's tree once the winner links a wallet; week 1's root stays", async () => {
  expect((await linkWallet(ida.cookie, idaKey)).wallet).toBe(idaWallet);
  // Linking changes no published tree.
  expect((await getData(t, "/api/competition/weeks/1/prize-tree")).root).toBe(root1);

  await setNow(t, "2026-11-24T00:00:00.000Z"); // the end of week 2
  await finalize(2);
  const tree2 = await getData(t, "/api/competition/weeks/2/prize-tree");
  expect(tree2).toEqual({
    week: 2,
    root: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    leafEncoding: ["uint256", "address", "uint256"],
    totalUsdc: "35.000000",
    totalMicro: "35000000",
    leaves: [
      {
        account: idaWallet,
        amountUsdc: "35.000000",
        amountMicro: "35000000",
        carriedUsdc: "35.000000",
        claimed: false,
      },
    ],
    awaitingWallet: [],
    carried: [{ fromWeek: 1, userId: ida.userId, amountUsdc: "35.000000" }],
  });
  expect(StandardMerkleTree.of([["2", idaWallet, "35000000"]], tree2.leafEncoding).root).toBe(tree2.root);

  const week1 = await getData(t, "/api/competition/weeks/1/prize-tree");
  expect(week1.root).toBe(root1);
  expect(week1.awaitingWallet).toEqual([{ userId: ida.userId, amountUsdc: "35.000000", paidInWeek: 2 }]);
  expect(await myClaim(1)).toMatchObject({ account: null, awaitingWallet: false, paidInWeek: 2 });
  const claim2 = await myClaim(2);
  expect(claim2).toMatchObject({
    week: 2,
    root: tree2.root,
    account: idaWallet,
    amountMicro: "35000000",
    carriedUsdc: "35.000000",
    awaitingWallet: false,
    paidInWeek: null,
  });
  // One leaf: the proof is empty and the root is the leaf itself.
  expect(
    StandardMerkleTree.verify(tree2.root, tree2.leafEncoding, ["2", idaWallet, "35000000"], claim2.proof),
  ).toBe(true);
});

it("never carries a prize twice", async () => {
  await setNow(t, "2026-12-01T00:00:00.000Z"); // the end of week 3
  await finalize(3);
  expect(await getData(t, "/api/competition/weeks/3/prize-tree")).toMatchObject({
    root: null,
    leaves: [],
    carried: [],
  });
});

it("reads never store a tree: a week finalized before trees were stored gets its own prizes' tree from the start-up back-fill, once", async () => {
  // As a week finalized before migration 0009: its tree is not stored.
  await t.database.db.execute(sql`delete from prize_trees where week = 1`);
  expect((await call(t.app, { method: "GET", url: "/api/competition/weeks/1/prize-tree" })).status).toBe(409);
  expect(await weeksWithoutPrizeTree(t.database.db)).toEqual([1]);

  expect(await backfillPrizeTrees(t.database.db)).toEqual([1]);
  // Week 1's own prizes over the accounts as they stand now (Ida has linked a wallet): 35 + 30 USDC, no arrears.
  const tree = await getData(t, "/api/competition/weeks/1/prize-tree");
  expect(tree.totalMicro).toBe("65000000");
  expect(tree.carried).toEqual([]);
  expect(
    StandardMerkleTree.of(
      [
        ["1", idaWallet, "35000000"],
        ["1", w.wallet, "30000000"],
      ],
      tree.leafEncoding,
    ).root,
  ).toBe(tree.root);
  expect(await backfillPrizeTrees(t.database.db)).toEqual([]);
});
