/**
 * The demo chain's faucet against a real local chain (ganache) with TestUSDC deployed: `POST /api/demo/faucet`
 * sends a fixed 1,000 USDC and 1 coin of gas, once a minute per address, none once the address holds the cap; it
 * is 404 on a service that is not the demo. Also: `npm run demo` refuses NODE_ENV=production, and its season.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { type Address, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, type TestApp, testKey } from "../../test/app.js";
import { ownerDeploy } from "../../test/chain/betting-fixture.js";
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from "../../test/chain/local-chain.js";
import { expectError } from "../../test/player-api.js";
import { demoSeason } from "./demo-season.js";
import { deployTestUsdc } from "./deploy-contracts.js";
import { Faucet } from "./faucet.js";

const NOW = new Date("2026-11-20T12:00:00.000Z");
const usdcAbi = parseAbi(["function balanceOf(address account) view returns (uint256)"]);

describe("the faucet (demo mode)", () => {
  let chain: LocalChain;
  let usdc: Address;
  let t: TestApp;

  beforeAll(async () => {
    chain = await startLocalChain({ startTime: NOW, accounts: 2 });
    usdc = (await deployTestUsdc(ownerDeploy(chain))).address;
    t = await createTestApp({
      now: NOW,
      env: { RATE_LIMIT_AUTH_PER_MIN: "1000" },
      demo: (clock) => ({
        faucet: new Faucet({
          rpcUrl: chain.url,
          chainId: LOCAL_CHAIN_ID,
          usdc,
          funderKey: testKey(0),
          clock,
        }),
      }),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  const fund = (address: string) =>
    call(t.app, { method: "POST", url: "/api/demo/faucet", payload: { address } });
  const usdcOf = (a: Address) =>
    chain.client.readContract({ address: usdc, abi: usdcAbi, functionName: "balanceOf", args: [a] });

  it("sends 1,000 USDC and 1 coin of gas to a new address, given in any case", async () => {
    const address = "0x00000000000000000000000000000000000000ab" as Address;
    const res = await fund(address);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      address: "0x00000000000000000000000000000000000000AB",
      usdc: "1000.000000",
      gasWei: "1000000000000000000",
    });
    expect(res.body.data.transactions).toHaveLength(2);
    expect(await usdcOf(address)).toBe(1_000_000_000n);
    expect(await chain.client.getBalance({ address })).toBe(10n ** 18n);
  });

  it("refuses the same address again within a minute (429, retry-after), sends nothing, then funds it again", async () => {
    const address = "0x00000000000000000000000000000000000000cd" as Address;
    expect((await fund(address)).status).toBe(200);
    t.clock.set(new Date(NOW.getTime() + 20_000));
    const again = await fund(address.toUpperCase().replace("0X", "0x"));
    expectError(again, 429, "RATE_LIMITED");
    expect(again.headers["retry-after"]).toBe("40");
    expect(await usdcOf(address)).toBe(1_000_000_000n);
    t.clock.set(new Date(NOW.getTime() + 60_000));
    expect((await fund(address)).status).toBe(200);
    expect(await usdcOf(address)).toBe(2_000_000_000n);
    t.clock.set(NOW);
  });

  it("answers two requests racing for one address once", async () => {
    const address = "0x00000000000000000000000000000000000000ef" as Address;
    const answers = await Promise.all([fund(address), fund(address)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429]);
    expect(await usdcOf(address)).toBe(1_000_000_000n);
  });

  it("sends no USDC or gas to an address already holding the cap", async () => {
    // Test key 1 holds 1,000 coins of gas on the local chain; it gets USDC only until it holds 10,000.
    const rich = chain.address(1);
    const first = await fund(rich);
    expect(first.body.data).toMatchObject({ usdc: "1000.000000", gasWei: "0" });
    expect(first.body.data.transactions).toHaveLength(1);
    const capped = new Faucet({
      rpcUrl: chain.url,
      chainId: LOCAL_CHAIN_ID,
      usdc,
      funderKey: testKey(0),
      clock: t.clock,
      usdcCapMicro: 1_000_000_000n,
    });
    expect(await capped.fund(rich)).toMatchObject({ usdc: "0.000000", gasWei: "0", transactions: [] });
    expect(await usdcOf(rich)).toBe(1_000_000_000n);
  });

  it("refuses a malformed address (400) and changes nothing", async () => {
    for (const address of ["0x12", "not-an-address", `0x${"g".repeat(40)}`]) {
      expectError(await fund(address), 400, "VALIDATION_FAILED");
    }
    expectError(
      await call(t.app, {
        method: "POST",
        url: "/api/demo/faucet",
        payload: { address: `0x${"1".repeat(40)}`, x: 1 },
      }),
      400,
      "VALIDATION_FAILED",
    );
  });
});

describe("outside the demo", () => {
  it("has no faucet: 404", async () => {
    const t = await createTestApp({ now: NOW });
    try {
      const res = await call(t.app, {
        method: "POST",
        url: "/api/demo/faucet",
        payload: { address: `0x${"1".repeat(40)}` },
      });
      expectError(res, 404, "NOT_FOUND");
    } finally {
      await t.close();
    }
  });

  it("npm run demo refuses NODE_ENV=production before starting anything", async () => {
    const run = promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
      env: { ...process.env, NODE_ENV: "production", DEMO_CHAIN_PORT: "0", PORT: "0" },
      timeout: 60_000,
    });
    const failure = await run.then(
      () => null,
      (err: { code?: number; stderr?: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain("refuses NODE_ENV=production");
  }, 70_000);
});

describe("the demo's season", () => {
  it("puts week 1 on the Tuesday two to three weeks back, the 8-day opening week before it", () => {
    // Wed 2026-11-25 → the Tuesday before is Nov 24, two weeks earlier Nov 10.
    expect(demoSeason(new Date("2026-11-25T18:57:00.000Z"))).toEqual({
      seasonStart: "2026-11-02T00:00:00.000Z",
      weekOneStart: "2026-11-10T00:00:00.000Z",
    });
    // A Tuesday itself counts: Tue 2026-12-01 → Nov 17.
    expect(demoSeason(new Date("2026-12-01T00:00:00.000Z")).weekOneStart).toBe("2026-11-17T00:00:00.000Z");
    // Mon 2026-11-30 → Tue Nov 24 − 14 days = Nov 10.
    expect(demoSeason(new Date("2026-11-30T23:59:59.000Z")).weekOneStart).toBe("2026-11-10T00:00:00.000Z");
  });
});
