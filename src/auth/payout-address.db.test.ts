/**
 * The payout address (SPEC §10): a player proves an address with an EIP-4361 message signed by it, and the prize
 * trees of the weeks finalized from then on pay that address; an identity-only winner sets one to be paid.
 *
 * Season of the test config: week 0 = [Mon 2026-11-02, Tue 2026-11-10), week 1 = [11-10, 11-17), week 2 =
 * [11-17, 11-24). PROTOCOL_INCENTIVE_USDC = 100, no fees: week 1's pool is 100 USDC.
 * Week 0: Ida (identity only) and W (a wallet) 100 SP each, both eligible for Champions week 1.
 * Week 1: Ida 900 SP (rank 1: 35 % = 35 USDC), W 800 SP (rank 2: 30 % = 30 USDC).
 */
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, FINALIZE, signedSiwe, signIn, type TestApp, testKey } from "../../test/app.js";
import { addSp, getData, NO_RATE_LIMITS, putEvent } from "../../test/competition-api.js";
import { startTestIssuer, type TestIssuer } from "../../test/oidc-issuer.js";
import { dataOf, expectError } from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
let issuer: TestIssuer;
let t: TestApp;

/** PUT /api/me/payout-address with a message signed by `key`, as the player of `cookie`. */
async function putPayoutAddress(
  cookie: string,
  key: `0x${string}`,
  opts: { withNonceCookie?: boolean } = {},
) {
  const { body, cookie: nonceCookie } = await signedSiwe(t, key);
  return call(t.app, {
    method: "PUT",
    url: "/api/me/payout-address",
    payload: body,
    headers: { cookie: opts.withNonceCookie === false ? cookie : `${cookie}; ${nonceCookie}` },
  });
}

const getPayoutAddress = (cookie: string) =>
  call(t.app, { method: "GET", url: "/api/me/payout-address", headers: { cookie } });

beforeAll(async () => {
  issuer = await startTestIssuer({ now: () => t.clock.now() });
  t = await createTestApp({
    now: NOW,
    env: { ...NO_RATE_LIMITS, ...issuer.env, PROTOCOL_INCENTIVE_USDC: "100" },
  });
});

afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

describe("PUT / GET /api/me/payout-address", () => {
  it("defaults to the sign-in wallet, unverified, and takes an address that signs for itself", async () => {
    const player = await signIn(t, testKey(900));
    expect(dataOf(await getPayoutAddress(player.cookie))).toEqual({
      address: player.wallet,
      verifiedAt: null,
    });

    const payout = privateKeyToAccount(testKey(901)).address;
    const set = dataOf(await putPayoutAddress(player.cookie, testKey(901)));
    expect(set).toEqual({ address: payout, verifiedAt: NOW.toISOString() });
    expect(dataOf(await getPayoutAddress(player.cookie))).toEqual(set);
  });

  it("refuses a message signed by another key than the address it names, or without the nonce's cookie", async () => {
    const player = await signIn(t, testKey(902));
    const { body, cookie: nonceCookie } = await signedSiwe(t, testKey(903));
    const forged = { ...body, signature: (await signedSiwe(t, testKey(904))).body.signature };
    expectError(
      await call(t.app, {
        method: "PUT",
        url: "/api/me/payout-address",
        payload: forged,
        headers: { cookie: `${player.cookie}; ${nonceCookie}` },
      }),
      401,
      "UNAUTHENTICATED",
    );
    expectError(
      await putPayoutAddress(player.cookie, testKey(903), { withNonceCookie: false }),
      401,
      "UNAUTHENTICATED",
    );
    // Nothing changed.
    expect(dataOf(await getPayoutAddress(player.cookie))).toEqual({
      address: player.wallet,
      verifiedAt: null,
    });
  });

  it("refuses another account's wallet or payout address (409), and a signed-out player (401)", async () => {
    const a = await signIn(t, testKey(905));
    const b = await signIn(t, testKey(906));
    expectError(await putPayoutAddress(a.cookie, testKey(906)), 409, "CONFLICT"); // b's wallet
    dataOf(await putPayoutAddress(a.cookie, testKey(907)));
    expectError(await putPayoutAddress(b.cookie, testKey(907)), 409, "CONFLICT"); // a's payout address
    expectError(await getPayoutAddress(""), 401, "UNAUTHENTICATED");
  });
});

describe("prize trees pay the payout address", () => {
  const finalize = async (week: number) =>
    dataOf(
      await call(t.app, { method: "POST", url: `/api/competition/finalize?week=${week}`, headers: FINALIZE }),
    );

  it("pays an identity-only winner at the address they set, and a wallet winner at theirs", async () => {
    const res = await call(t.app, {
      method: "POST",
      url: "/api/auth/oidc",
      payload: { idToken: await issuer.token("ida-pa", NOW, { name: "Ida" }) },
    });
    const ida = {
      userId: dataOf(res).user.id as string,
      cookie: `session=${res.cookies.find((c) => c.name === "session")!.value}`,
    };
    expect(dataOf(await getPayoutAddress(ida.cookie))).toEqual({ address: null, verifiedAt: null });
    await putEvent(t, "pa-w0", "2026-11-05T18:00:00.000Z");
    await putEvent(t, "pa-w1", "2026-11-12T18:00:00.000Z");
    const idaPayout = privateKeyToAccount(testKey(910)).address;
    dataOf(await putPayoutAddress(ida.cookie, testKey(910)));
    const w = await signIn(t, testKey(911));
    const wPayout = privateKeyToAccount(testKey(912)).address;
    dataOf(await putPayoutAddress(w.cookie, testKey(912)));
    for (const [userId, w0, w1] of [
      [ida.userId, 100, 900],
      [w.userId, 100, 800],
    ] as const) {
      await addSp(t, { userId, type: "PREDICTION", amount: w0, eventId: "pa-w0" });
      await addSp(t, { userId, type: "PREDICTION", amount: w1, eventId: "pa-w1" });
    }
    await finalize(0);
    await finalize(1);
    const tree = await getData(t, "/api/competition/weeks/1/prize-tree");
    // 35 % and 30 % of 100 USDC, in ladder order.
    expect(
      tree.leaves.map((l: { account: string; amountUsdc: string }) => [l.account, l.amountUsdc]),
    ).toEqual([
      [idaPayout, "35.000000"],
      [wPayout, "30.000000"],
    ]);
    expect(tree.awaitingWallet).toEqual([]);
    expect((await getData(t, "/api/competition/me?week=1", ida.cookie)).prizeClaim).toMatchObject({
      account: idaPayout,
      amountUsdc: "35.000000",
      awaitingWallet: false,
    });
  });
});
