/**
 * A version-2 (USDC) bet from the browser wallet, end to end on a real local chain (ganache) with the project's
 * contracts: the page asks `GET /api/chain/info`, gets a signed quote (`POST /api/pred2earn/quote`), the injected
 * test wallet signs and sends `approve` on TestUSDC and `placeBet(quote, signature, amount)` on SpBetting (chain
 * reads are forwarded to ganache), the page reports the transaction (`bet-placed-v2`) and shows pending →
 * confirmed; the chain holds the stake, My bets shows it as money. At 1366×900 and 390×844, axe on each view.
 * Then a Champions prize (issue 15): Week 1's winner sees the week's Merkle root on the prize card, claims the
 * prize from the PrizeDistributor through the wallet, and sees "Claimed" (the prize-claim indexer marks it).
 *
 * SpBetting is deployed as constructor(usdc, oddsSigner, payoutSigner). Skipped without Chromium and on the
 * PostgreSQL pass.
 */
import type { Browser } from "playwright-core";
import { type Address, encodeFunctionData, erc20Abi, type Hex, parseAbi } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prizeDistributorAbi, spBettingAbi } from "../../contracts/abi.js";
import { chainIndexers, startChainJobs } from "../../src/chain/chain-jobs.js";
import { deployBetting, deployPrizeDistributor, deployTestUsdc } from "../../src/demo/deploy-contracts.js";
import { call, signIn, type TestApp, testKey } from "../app.js";
import { ownerDeploy } from "../chain/betting-fixture.js";
import { LOCAL_CHAIN_ID, type LocalChain, startLocalChain } from "../chain/local-chain.js";
import { chromiumAvailable, DESKTOP, launchChromium, PHONE } from "./browser.js";
import { apiData, NOW, settleEvent, startScenarioApp, stopScenarioApp } from "./scenario.js";

/** A signed-in POST through the app; the `data` of its success envelope. */
async function apiPost(t: TestApp, url: string, cookie: string, payload: object) {
  const res = await call(t.app, { method: "POST", url, headers: { cookie }, payload });
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

import { openSession } from "./session.js";
import { ensureWebBuild } from "./web-build.js";

const silent = { warn: () => {}, error: () => {}, info: () => {} };
const ODDS_SIGNER_KEY: Hex = `0x${"0e".repeat(32)}`;
const PAYOUT_SIGNER_KEY: Hex = `0x${"0f".repeat(32)}`;
const usdcAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function balanceOf(address account) view returns (uint256)",
]);

describe.skipIf(!chromiumAvailable || process.env.TEST_DB === "postgres")(
  "USDC bets from the browser wallet (Chromium, ganache)",
  () => {
    let chain: LocalChain;
    let usdc: Address;
    let betting: Address;
    let distributor: Address;
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let jobs: { stop(): Promise<void> } | null = null;
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      await ensureWebBuild();
      chain = await startLocalChain({ startTime: NOW });
      const deploy = ownerDeploy(chain);
      usdc = (await deployTestUsdc(deploy)).address;
      distributor = (await deployPrizeDistributor(deploy, usdc)).address;
      betting = (
        await deployBetting(deploy, usdc, {
          oddsSigner: privateKeyToAddress(ODDS_SIGNER_KEY),
          payoutSigner: privateKeyToAddress(PAYOUT_SIGNER_KEY),
        })
      ).address;
      ({ t, base } = await startScenarioApp({
        play: true,
        // The seeding finalizes weeks 0 and 1: the bet indexer must have read the chain past their end.
        beforeSeed: async (app) => {
          const indexers = chainIndexers({
            config: app.config,
            database: app.database,
            clock: app.clock,
            log: silent,
          });
          await indexers.bets?.();
          await indexers.release();
        },
        env: {
          CHAIN_VERIFIER: "rpc",
          CHAIN_RPC_URL: chain.url,
          CHAIN_ID: String(LOCAL_CHAIN_ID),
          SIWE_CHAIN_IDS: `1,${LOCAL_CHAIN_ID}`,
          BETTING_CONTRACT_ADDRESS: betting,
          USDC_ADDRESS: usdc,
          ODDS_SIGNER_PRIVATE_KEY: ODDS_SIGNER_KEY,
          PAYOUT_SIGNER_PRIVATE_KEY: PAYOUT_SIGNER_KEY,
          // The service's clock is pinned while the chain's runs in real time.
          QUOTE_TTL_SECONDS: "3600",
          CHAIN_CONFIRMATIONS: "1",
          CHAIN_POLL_MS: "500",
          PRIZE_DISTRIBUTOR_ADDRESS: distributor,
        },
      }));
      jobs = startChainJobs({ config: t.config, database: t.database, clock: t.clock, log: silent });
      browser = await launchChromium();
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await jobs?.stop();
      await stopScenarioApp(t);
      await chain?.close();
    });

    it.each([
      ["desktop", DESKTOP, 7, "play-fb-3"],
      ["phone", PHONE, 8, "play-fb-4"],
    ] as const)(
      "places a 10 USDC bet through the wallet and shows it confirmed (%s)",
      async (name, viewport, i, eventId) => {
        await chain.send(i, {
          to: usdc,
          data: encodeFunctionData({
            abi: usdcAbi,
            functionName: "mint",
            args: [chain.address(i), 50_000_000n],
          }),
        });
        const s = await openSession(browser, {
          base,
          name: `usdc-${name}`,
          viewport,
          timezoneId: "UTC",
          consoleErrors,
          wallets: [
            {
              wallet: { key: testKey(i), chainId: 1, decline: false },
              options: { name: "E2E Wallet", rdns: "test.e2e.wallet", rpcUrl: chain.url },
            },
          ],
        });
        try {
          const p = s.page;
          await p.goto(`${base}/play`);
          await s.signInWith("E2E Wallet");
          const event = p.locator(`.event[data-event-id="${eventId}"]`);
          await event.locator(".outcome").first().click();
          const slip = await s.openSlip();
          await slip.getByText("USDC (wallet)").click();
          await slip.getByLabel("Stake (USDC)").fill("10");
          await slip.getByRole("button", { name: "Get a price" }).click();
          await slip.getByTestId("usdc-quote").waitFor();
          expect(await slip.getByTestId("usdc-quote").textContent()).toMatch(
            /^Price 2\.15, guaranteed in (01h 00m 00s|00h 59m \d\ds)\. Returns \$21\.50 if it wins\.$/,
          );
          await s.check("usdc-quote");
          await slip.getByRole("button", { name: "Bet 10 USDC at 2.15" }).click();
          await expect
            .poll(() => slip.getByTestId("usdc-step").textContent(), { timeout: 60_000 })
            .toBe("Bet confirmed on-chain.");
          await s.check("usdc-confirmed");

          const balance = await chain.client.readContract({
            address: usdc,
            abi: usdcAbi,
            functionName: "balanceOf",
            args: [chain.address(i)],
          });
          expect(balance).toBe(40_000_000n);
          const cookie = (await s.context.cookies()).find((c) => c.name === "session")!;
          const mine = await apiData(t, "/api/user/predictions", `session=${cookie.value}`);
          expect(mine.items[0]).toMatchObject({
            version: 2,
            eventId,
            stakeUsdc: "10.000000",
            odds: 2.15,
            status: "open",
          });

          await p.locator(".main-nav").getByRole("link", { name: "My bets" }).click();
          const bet = p.locator(".bet").first();
          await bet.waitFor();
          expect(await bet.locator(".bet-figures dd").first().textContent()).toBe("$10.00");
          expect(await bet.getByTestId("bet-status").textContent()).toBe("Open");
          await s.check("usdc-bets");
        } finally {
          await s.close();
        }
      },
    );

    it("pays Week 1's Champions winner through the wallet: the root on the prize card, Claim, then Claimed", async () => {
      // Scenario: Week 1's pool is 1000 USDC of fees + 100 of incentive; player 26 leads its Champions ladder:
      // 35 % of 1100 = 385 USDC. The owner (key 0) publishes the week's root and funds the distributor.
      const winner = 26;
      const tree = await apiData(t, "/api/competition/weeks/1/prize-tree");
      const mined = (hash: Hex) => chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      await mined(
        await chain.send(0, {
          to: distributor,
          data: encodeFunctionData({
            abi: prizeDistributorAbi,
            functionName: "setRoot",
            args: [1n, tree.root],
          }),
        }),
      );
      await mined(
        await chain.send(0, {
          to: usdc,
          data: encodeFunctionData({
            abi: usdcAbi,
            functionName: "mint",
            args: [distributor, BigInt(tree.totalMicro)],
          }),
        }),
      );
      const s = await openSession(browser, {
        base,
        name: "prize-claim",
        viewport: DESKTOP,
        timezoneId: "UTC",
        consoleErrors,
        wallets: [
          {
            wallet: { key: testKey(winner), chainId: 1, decline: false },
            options: { name: "E2E Wallet", rdns: "test.e2e.wallet", rpcUrl: chain.url },
          },
        ],
      });
      try {
        const p = s.page;
        await p.goto(`${base}/?week=1&type=champions`);
        await s.signInWith("E2E Wallet");
        const card = p.locator(".prize");
        await card.getByTestId("prize-root").waitFor();
        expect(await card.getByTestId("prize-root").textContent()).toBe(tree.root);
        expect(await card.getByTestId("my-prize-amount").textContent()).toBe("$385.00");
        await s.check("prize-unclaimed");
        await card.getByRole("button", { name: "Claim" }).click();
        await card.getByTestId("prize-claimed").waitFor({ timeout: 60_000 });
        const balance = await chain.client.readContract({
          address: usdc,
          abi: usdcAbi,
          functionName: "balanceOf",
          args: [chain.address(winner)],
        });
        expect(balance).toBe(385_000_000n);
        // The prize-claim indexer reads the PrizeClaimed log: /me says claimed, also after a reload.
        const cookie = (await s.context.cookies()).find((c) => c.name === "session")!;
        await expect
          .poll(
            async () =>
              (await apiData(t, "/api/competition/me?week=1", `session=${cookie.value}`)).prizeClaim.claimed,
            { timeout: 30_000 },
          )
          .toBe(true);
        await p.reload();
        await card.getByTestId("prize-claimed").waitFor();
        await s.check("prize-claimed");
      } finally {
        await s.close();
      }
    });

    it("collects a won USDC bet's winnings through the wallet: the voucher sent, the pending transaction, then paid", async () => {
      // Player 9 bets 10 USDC on play-fb-5 (Sat 2026-11-21 23:00 UTC) at 2.15 straight on-chain with a quote of the
      // service; the house has funded the contract; the event is settled home. 10 × 2.15 = 21.50 USDC.
      const i = 9;
      const eventId = "play-fb-5";
      const mined = (hash: Hex) => chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      const mint = (to: Address, amount: bigint) =>
        chain
          .send(0, {
            to: usdc,
            data: encodeFunctionData({ abi: usdcAbi, functionName: "mint", args: [to, amount] }),
          })
          .then(mined);
      await mint(chain.address(i), 10_000_000n);
      await mint(betting, 1_000_000_000n);
      const player = await signIn(t, testKey(i));
      const quote = await apiPost(t, "/api/pred2earn/quote", player.cookie, {
        eventId,
        market: "1x2",
        outcome: "home",
      });
      await mined(
        await chain.send(i, {
          to: usdc,
          data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [betting, 10_000_000n] }),
        }),
      );
      await mined(
        await chain.send(i, {
          to: betting,
          data: encodeFunctionData({
            abi: spBettingAbi,
            functionName: "placeBet",
            args: [
              {
                bettor: quote.quote.bettor,
                marketId: quote.quote.marketId,
                outcome: quote.quote.outcome,
                odds: BigInt(quote.quote.odds),
                expiry: BigInt(quote.quote.expiry),
              },
              quote.signature,
              10_000_000n,
            ],
          }),
        }),
      );
      await chain.mine(1);
      await expect
        .poll(async () => (await apiData(t, "/api/user/predictions", player.cookie)).items[0]?.status, {
          timeout: 30_000,
        })
        .toBe("open");
      t.clock.set(new Date("2026-11-22T01:00:00.000Z")); // after kickoff
      await settleEvent(t, eventId, "home");
      t.clock.set(NOW);
      const before = await chain.client.readContract({
        address: usdc,
        abi: usdcAbi,
        functionName: "balanceOf",
        args: [chain.address(i)],
      });

      const s = await openSession(browser, {
        base,
        name: "usdc-payout",
        viewport: DESKTOP,
        timezoneId: "UTC",
        consoleErrors,
        wallets: [
          {
            wallet: { key: testKey(i), chainId: 1, decline: false },
            options: { name: "E2E Wallet", rdns: "test.e2e.wallet", rpcUrl: chain.url },
          },
        ],
      });
      try {
        const p = s.page;
        await p.goto(`${base}/bets`);
        await s.signInWith("E2E Wallet");
        const bet = p.locator(`.bet[data-status="won"]`).first();
        await bet.getByTestId("claim-button").waitFor();
        expect(await bet.getByTestId("claim-button").textContent()).toBe("Claim winnings · $21.50");
        await s.check("usdc-claim");
        await bet.getByTestId("claim-button").click();
        await bet.getByTestId("payout-tx").waitFor({ timeout: 60_000 });
        await bet.getByTestId("claimed").waitFor({ timeout: 60_000 });
        expect(await bet.getByTestId("claimed").textContent()).toMatch(
          /^Paid \$21\.50 to 0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\.$/,
        );
        const after = await chain.client.readContract({
          address: usdc,
          abi: usdcAbi,
          functionName: "balanceOf",
          args: [chain.address(i)],
        });
        expect(after - before).toBe(21_500_000n);
        // The payout indexer reads the PayoutClaimed log: the bet is claimed, also after a reload.
        await expect
          .poll(async () => (await apiData(t, "/api/user/predictions", player.cookie)).items[0]?.claimed, {
            timeout: 30_000,
          })
          .toBe(true);
        await p.reload();
        await p.locator(`.bet[data-status="won"]`).first().getByTestId("claimed").waitFor();
        await s.check("usdc-claimed");
      } finally {
        await s.close();
      }
    });

    it("logged no console errors", () => {
      expect(consoleErrors).toEqual([]);
    });
  },
);
