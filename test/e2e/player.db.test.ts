/**
 * A player's whole round in Chromium (playwright-core) against the real service: browse events, sign in with an
 * injected EIP-1193 wallet found through EIP-6963 (or with the identity provider), bet free credits (including
 * odds that moved), see the bet settle (the test settles through the admin API), claim, claim the daily credits,
 * invite a friend with the share link and redeem the referral, read the raffle, profile, past weeks and the
 * all-time leaderboard. Player A plays at 1366×900 (Europe/Berlin, UTC+1), player B — invited by A's link — at
 * 390×844 (Asia/Tokyo, UTC+9); C, invited by B, plays through the API. Every view passes axe-core with zero
 * violations, nothing on the phone scrolls sideways, the page runs under a strict CSP, and screenshots go to
 * test-artifacts/. Skipped without Chromium and on the PostgreSQL pass.
 *
 * Clock pinned at Fri 2026-11-20 12:00 UTC (week 2). Hand-computed figures:
 * - A: 100 credits on Liverpool (play-fb-1 home) at 2.15 → 215; 100 on the draw of play-fb-2 after its odds moved
 *   from 3.40 to 3.60 → 360. Balance 1000 − 100 − 100 = 800, + 360 + 215 = 1375, + 1000 daily = 2375.
 *   Week 2 SP 575: the scenario's Week 2 SP are 20, 30, …, 610, so only 580, 590, 600, 610 are above → 5th.
 *   All-time 575 + 500 (B's referral) = 1075: every scenario player has more (≥ 1400 + 110 + 20), so A is 61st.
 * - B: 100 on Everton (play-fb-1 away) at 3.10, lost. Balance 900, + 1000 daily = 1900. All-time 500 (C's
 *   referral) → 62nd.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, signIn, type TestApp, testKey } from "../app.js";
import { startTestIssuer, type TestIssuer } from "../oidc-issuer.js";
import { chromiumAvailable, DESKTOP, launchChromium, PHONE, type TestWallet } from "./browser.js";
import {
  apiData,
  playEvent,
  putAdminEvent,
  settleEvent,
  startScenarioApp,
  stopScenarioApp,
  walletOf,
} from "./scenario.js";
import { type E2ESession, openSession } from "./session.js";
import { ensureWebBuild } from "./web-build.js";

const A = 101;
const B = 102;
const C = 103;

describe.skipIf(!chromiumAvailable || process.env.TEST_DB === "postgres")("the player app (Chromium)", () => {
  let t: TestApp;
  let issuer: TestIssuer;
  let base: string;
  let browser: Browser;
  let desktop: E2ESession;
  let phone: E2ESession;
  const consoleErrors: string[] = [];

  /** The session cookie of a browser session, for reading the API as that player. */
  const cookieOf = async (s: E2ESession) => {
    const c = (await s.context.cookies()).find((k) => k.name === "session");
    if (!c) throw new Error("not signed in");
    return `session=${c.value}`;
  };
  const chip = (s: E2ESession) => s.page.locator(".site-header .chip");
  const card = (s: E2ESession, eventId: string) => s.page.locator(`.event[data-event-id="${eventId}"]`);
  const cardTitles = (s: E2ESession) => s.page.locator(".event .event-title").allTextContents();
  /** The odds button of an outcome in an event card. */
  const outcome = (s: E2ESession, eventId: string, label: string, odds: string) =>
    card(s, eventId).locator(".outcome", { hasText: label }).filter({ hasText: odds });
  /** Follows a link of the main navigation. */
  const go = (s: E2ESession, label: string) =>
    s.page.locator(".main-nav").getByRole("link", { name: label, exact: true }).click();

  beforeAll(async () => {
    await ensureWebBuild();
    issuer = await startTestIssuer({ now: () => t.clock.now() });
    ({ t, base } = await startScenarioApp({ play: true, env: issuer.env }));
    browser = await launchChromium();
    const wallet = (i: number): TestWallet => ({ key: testKey(i), chainId: 1, decline: false });
    desktop = await openSession(browser, {
      base,
      name: "player-desktop",
      viewport: DESKTOP,
      timezoneId: "Europe/Berlin",
      consoleErrors,
      wallets: [
        { wallet: wallet(A), options: { name: "E2E Wallet", rdns: "test.e2e.wallet" } },
        { wallet: wallet(104), options: { name: "Other Wallet", rdns: "test.other.wallet" } },
      ],
    });
    phone = await openSession(browser, {
      base,
      name: "player-phone",
      viewport: PHONE,
      timezoneId: "Asia/Tokyo",
      consoleErrors,
      wallets: [{ wallet: wallet(B), options: { name: "E2E Wallet", rdns: "test.e2e.wallet" } }],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stopScenarioApp(t);
    await issuer?.close();
  });

  it("lists upcoming events with odds and kickoff in the player's time; filters by sport and league; pages", async () => {
    const p = desktop.page;
    await p.goto(`${base}/play`);
    await p.locator(".event").first().waitFor();
    expect(await p.locator(".event").count()).toBe(10);
    const first = card(desktop, "play-fb-1");
    expect(await first.locator(".event-title").textContent()).toBe("Liverpool v Everton");
    const kickoff = first.locator("time");
    expect(await kickoff.textContent()).toBe("Sat, Nov 21, 16:00 GMT+1");
    expect(await kickoff.getAttribute("title")).toBe("Sat, Nov 21, 2026, 15:00 UTC");
    expect(await first.locator(".outcome").allTextContents()).toEqual([
      "Liverpool2.15",
      "Draw3.40",
      "Everton3.10",
    ]);
    await p.getByRole("button", { name: "Show more events" }).click();
    await expect.poll(() => p.locator(".event").count()).toBe(14);
    expect(await p.getByRole("button", { name: "Show more events" }).count()).toBe(0);

    await p.locator("#filter-sport").selectOption("basketball");
    await expect.poll(() => p.url()).toBe(`${base}/play?sport=basketball`);
    await expect.poll(() => cardTitles(desktop)).toEqual(["Lakers v Celtics", "Knicks v Bulls"]);
    expect(await card(desktop, "play-bb-1").locator(".outcome").allTextContents()).toEqual([
      "Lakers1.80",
      "Celtics2.05",
    ]);
    expect(await p.locator("#filter-league option").allTextContents()).toEqual(["All leagues", "NBA"]);

    await p.locator("#filter-sport").selectOption("football");
    await p.locator("#filter-league").selectOption("Serie A");
    await expect.poll(() => p.url()).toBe(`${base}/play?sport=football&league=Serie+A`);
    await expect.poll(() => p.locator(".event").count()).toBe(4);
    await p.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => p.locator(".event").count()).toBe(10);
    await desktop.check("play");
  });

  it("signs in from the bet slip with one of the wallets found (EIP-6963), and places a free-credit bet", async () => {
    const p = desktop.page;
    await outcome(desktop, "play-fb-1", "Liverpool", "2.15").click();
    const slip = p.getByTestId("bet-slip");
    await slip.getByRole("button", { name: "Sign in to bet" }).click();
    const panel = p.getByTestId("sign-in-panel");
    // The wallets announce themselves and the providers load after the panel opens: wait for the list.
    await expect
      .poll(() => panel.getByRole("button").allTextContents(), { timeout: 10_000 })
      .toEqual([
        "Close",
        "Sign in with E2E Wallet",
        "Sign in with Other Wallet",
        "Sign in with id.test.example",
      ]);
    await desktop.check("sign-in");
    await panel.getByRole("button", { name: "Sign in with E2E Wallet" }).click();
    await expect.poll(() => chip(desktop).textContent()).toBe("1,000 credits");

    // The pick survived the sign-in; no USDC option without a chain.
    expect(await slip.locator(".mode").count()).toBe(0);
    expect(await slip.getByLabel("Stake on Liverpool (credits)").inputValue()).toBe("100");
    expect(await slip.getByTestId("slip-returns").textContent()).toBe(
      "Returns 215 credits (profit 115) and 215 SP if it wins.",
    );
    await desktop.check("bet-slip");
    await slip.getByRole("button", { name: "Place 100 credits at 2.15" }).click();
    await slip.getByText("Bet placed: 100 credits on Liverpool at 2.15.").waitFor();
    await expect.poll(() => chip(desktop).textContent()).toBe("900 credits");

    const mine = await apiData(t, "/api/user/predictions", await cookieOf(desktop));
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({
      eventId: "play-fb-1",
      outcome: "home",
      stake: 100,
      odds: 2.15,
      status: "open",
    });
  });

  it("shows both prices when the odds moved before the bet, stakes nothing, and bets at the new price when asked", async () => {
    const slip = desktop.page.getByTestId("bet-slip");
    // The slip reads the picked event once when it is added; the price moves after that read (and before the
    // slip's next one), so it is the server that refuses the stale price.
    const read = desktop.page.waitForResponse((r) => r.url().endsWith("/api/events/play-fb-2"));
    await outcome(desktop, "play-fb-2", "Draw", "3.40").click();
    await read;
    const moved = playEvent("football", "Premier League", "Fulham", "Brentford", "2026-11-21T17:00:00.000Z");
    moved.markets[0]!.outcomes[1]!.odds = 3.6;
    // The price moves while the bet is on its way (the live stream would otherwise show it in the slip first):
    // the server refuses it.
    const betUrl = `${base}/api/pred2earn/bet-placed`;
    await desktop.page.route(betUrl, async (route) => {
      await putAdminEvent(t, "play-fb-2", moved);
      await route.continue();
    });

    const logged = consoleErrors.length;
    // The stream may show the new price before the server's 409 arrives: the notice is read after the answer.
    const refused = desktop.page.waitForResponse((r) => r.url() === betUrl);
    await slip.getByRole("button", { name: "Place 100 credits at 3.40" }).click();
    await refused;
    const notice = slip.getByTestId("odds-changed");
    await notice.waitFor();
    expect(await notice.locator("p").textContent()).toBe(
      "The odds moved from 3.40 to 3.60 before your bet was placed. Nothing was staked.",
    );
    // The slip keeps the price the player saw until he accepts the new one.
    expect(await slip.getByTestId("slip-odds").textContent()).toBe("3.40");
    expect(await slip.getByRole("button", { name: /^Place/ }).isDisabled()).toBe(true);
    // The browser logs the 409 ODDS_CHANGED answer; it is this test's point, not a fault.
    const answered = consoleErrors.splice(logged);
    expect(
      answered.every((e) => e.includes("409") && e.includes("/api/pred2earn/bet-placed")),
      String(answered),
    ).toBe(true);
    expect(await chip(desktop).textContent()).toBe("900 credits");
    expect((await apiData(t, "/api/user/predictions", await cookieOf(desktop))).items).toHaveLength(1);
    await desktop.check("odds-changed");
    await desktop.page.unroute(betUrl);

    await slip.getByRole("button", { name: "Accept new odds" }).click();
    expect(await slip.getByTestId("slip-odds").textContent()).toBe("3.60");
    await slip.getByRole("button", { name: "Place 100 credits at 3.60" }).click();
    await slip.getByText("Bet placed: 100 credits on Draw at 3.60.").waitFor();
    await expect.poll(() => chip(desktop).textContent()).toBe("800 credits");
  });

  it("shares an invite link that fills the code in at a friend's sign-up (on a phone)", async () => {
    await desktop.page.goto(`${base}/rewards`);
    const code = (await desktop.page.getByTestId("referral-code").textContent())!;
    expect(code).toMatch(/^[A-Z0-9]{4,16}$/);
    const link = await desktop.page.getByTestId("invite-link").inputValue();
    expect(link).toBe(`${base}/?ref=${code}`);

    const p = phone.page;
    await p.goto(link);
    await expect.poll(() => p.url()).toBe(`${base}/`); // the code leaves the address bar
    await p.locator(".site-header").getByRole("button", { name: "Sign in" }).click();
    expect(await p.getByLabel("Invite code (optional)").inputValue()).toBe(code);
    await phone.check("sign-in-invited");
    await phone.signInWith("E2E Wallet");
    await expect.poll(() => chip(phone).textContent()).toBe("1,000 credits");
    const referrals = await apiData(t, "/api/referrals", await cookieOf(desktop));
    expect(referrals.referredCount).toBe(1);
    expect(referrals.referees[0]).toMatchObject({
      displayName: `${walletOf(B).slice(0, 6)}…${walletOf(B).slice(-4)}`,
      status: "waiting",
    });
    await phone.check("weekly-signed-in");
  });

  it("bets on a phone", async () => {
    await go(phone, "Play");
    const event = card(phone, "play-fb-1");
    await outcome(phone, "play-fb-1", "Everton", "3.10").click();
    expect(await event.locator("time").textContent()).toBe("Sun, Nov 22, 00:00 GMT+9"); // 15:00 UTC in Tokyo
    const slip = await phone.openSlip();
    await slip.getByText("Returns 310 credits (profit 210) and 310 SP if it wins.").waitFor();
    await phone.check("bet-slip");
    await slip.getByRole("button", { name: "Place 100 credits at 3.10" }).click();
    await slip.getByText("Bet placed: 100 credits on Everton at 3.10.").waitFor();
    await expect.poll(() => chip(phone).textContent()).toBe("900 credits");
  });

  it("sees the bets settle and claims the winnings once", async () => {
    // C joins with B's code and bets through the API.
    const codeB = (await apiData(t, "/api/referrals", await cookieOf(phone))).code;
    const c = await signIn(t, testKey(C), { referralCode: codeB });
    const cBet = await call(t.app, {
      method: "POST",
      url: "/api/pred2earn/bet-placed",
      headers: { cookie: c.cookie },
      payload: { eventId: "play-fb-1", market: "1x2", outcome: "home", stake: 50 },
    });
    expect(cBet.status).toBe(201);
    await settleEvent(t, "play-fb-1", "home");
    await settleEvent(t, "play-fb-2", "draw");

    const p = desktop.page;
    await go(desktop, "My bets");
    await p.locator(".bet").first().waitFor();
    expect(await p.getByTestId("bet-status").allTextContents()).toEqual(["Won", "Won"]);
    await desktop.check("bets-won");
    await p.getByRole("button", { name: "Claim 360 credits" }).click();
    await p.getByText("Claimed 360 credits.").waitFor();
    await expect.poll(() => chip(desktop).textContent()).toBe("1,160 credits");
    await p.getByRole("button", { name: "Claim 215 credits" }).click();
    await p.getByText("Claimed 215 credits.").waitFor();
    await expect.poll(() => chip(desktop).textContent()).toBe("1,375 credits");
    await p.reload();
    await p.locator(".bet").first().waitFor();
    expect(await p.getByRole("button", { name: /^Claim/ }).count()).toBe(0);
    expect(await p.locator(".bet-actions").allTextContents()).toEqual(["Claimed", "Claimed"]);

    const q = phone.page;
    await go(phone, "My bets");
    await q.locator(".bet").first().waitFor();
    expect(await q.getByTestId("bet-status").allTextContents()).toEqual(["Lost"]);
    expect(await q.getByRole("button", { name: /^Claim/ }).count()).toBe(0);
    await phone.check("bets-lost");
  });

  it("claims the daily free credits, then counts down to the next claim in the player's time", async () => {
    for (const [s, balance, nextLocal] of [
      [desktop, "2,375 credits", "Sat, Nov 21, 01:00 GMT\\+1"],
      [phone, "1,900 credits", "Sat, Nov 21, 09:00 GMT\\+9"],
    ] as const) {
      const p = s.page;
      await go(s, "Rewards");
      await p.getByRole("button", { name: "Claim 1,000 credits" }).click();
      await p.getByText(`+1,000 credits. Your balance is ${balance}.`).waitFor();
      await expect.poll(() => chip(s).textContent()).toBe(balance);
      const next = p.getByTestId("next-claim");
      expect(await next.textContent()).toMatch(
        new RegExp(
          `^Claimed today\\. The next 1,000 credits in (11h 59m \\d\\ds|12h 00m 00s) \\(${nextLocal}\\)\\.$`,
        ),
      );
      expect(await next.locator("time").last().getAttribute("title")).toBe("Sat, Nov 21, 2026, 00:00 UTC");
    }
    // Claiming twice the same UTC day is refused by the server; the page no longer offers it.
    expect(await desktop.page.getByRole("button", { name: "Claim 1,000 credits" }).count()).toBe(0);
  });

  it("redeems referral rewards once the friend's bet has settled", async () => {
    for (const s of [desktop, phone]) {
      const p = s.page;
      expect(await p.getByTestId("pending-referral-sp").textContent()).toBe("500 SP");
      await p.getByRole("button", { name: "Redeem 500 SP" }).click();
      await p.getByText("Redeemed 500 SP from 1 referral.").waitFor();
      await expect.poll(() => p.getByTestId("pending-referral-sp").textContent()).toBe("0 SP");
      expect(await p.getByTestId("raffle-status").textContent()).toBe("You're in today's draw.");
      await s.check("rewards");
    }
  });

  it("shows the profile, my weeks and where I stand, and the all-time leaderboard with my row pinned", async () => {
    const p = desktop.page;
    await go(desktop, "Profile");
    await p.locator(".weeks-table").waitFor();
    expect(await p.getByTestId("total-sp").textContent()).toBe("1,075");
    expect(await p.getByTestId("bets-summary").textContent()).toBe("2 won · 0 lost · 0 open · 0 void");
    const week2 = p.locator('.weeks-table tr[data-week="2"]');
    expect(await week2.locator("td").first().textContent()).toBe("5th575 SP");
    expect(await p.locator(".weeks-table tbody tr").count()).toBe(3);
    await desktop.check("profile");

    await go(desktop, "Weekly");
    await p.getByTestId("qualification-status").waitFor();
    expect(await p.getByTestId("qualification-status").textContent()).toBe("Rank 5");
    expect(await p.getByTestId("rank-movement").textContent()).toBe("new: unranked in Week 1");
    expect(await p.getByTestId("to-qualification-line").count()).toBe(0); // already inside the top 25
    await desktop.check("weekly-top-5");

    for (const [s, rank, sp] of [
      [desktop, "61", "1,075"],
      [phone, "62", "500"],
    ] as const) {
      await go(s, "Leaderboard");
      const pinned = s.page.getByTestId("pinned-row");
      await pinned.waitFor();
      const cells = await pinned.locator("td").allTextContents();
      expect([cells[0], cells[2]]).toEqual([rank, sp]);
      await s.check("leaderboard");
    }
    await go(phone, "Profile");
    await phone.page.locator(".weeks-table").waitFor();
    await phone.check("profile");
  });

  it("signs in with the identity provider when the browser has no wallet", async () => {
    const s = await openSession(browser, {
      base,
      name: "player-identity",
      viewport: DESKTOP,
      timezoneId: "UTC",
      consoleErrors,
    });
    try {
      issuer.signInAs = { sub: "e2e-identity-1", name: "Identity Player" };
      const p = s.page;
      await p.goto(`${base}/rewards`);
      await p.getByRole("button", { name: "Sign in" }).first().click();
      const panel = p.getByTestId("sign-in-panel");
      // The wallets announce themselves and the providers load after the panel opens: wait for the list.
      await expect
        .poll(() => panel.getByRole("button").allTextContents(), { timeout: 10_000 })
        .toEqual(["Close", "Sign in with id.test.example"]);
      await panel.getByRole("button", { name: "Sign in with id.test.example" }).click();
      await expect.poll(() => p.locator(".site-header .account-name").textContent()).toBe("Identity Player");
      expect(p.url()).toBe(`${base}/rewards`); // back where the player started, the token out of the URL
      const request = issuer.authorizations.at(-1)!;
      expect(request).toMatchObject({
        response_type: "id_token",
        client_id: issuer.env.OIDC_AUDIENCE,
        redirect_uri: `${base}/`,
        scope: "openid profile",
      });
      expect(request.state).toMatch(/^[0-9a-f]{32}$/);
      expect(request.nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(await p.getByTestId("raffle-status").textContent()).toBe(
        "Place at least one prediction today to enter",
      );
      await s.check("identity-signed-in");
    } finally {
      await s.close();
    }
  });

  it("logged no console errors (and no CSP violation)", async () => {
    await desktop.close();
    await phone.close();
    expect(consoleErrors).toEqual([]);
  });
});
