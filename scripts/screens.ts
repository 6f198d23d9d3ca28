/**
 * `npm run screens`: regenerates docs/screens/*.png, what a player sees at 1366×900 and at 390×844 (viewport
 * screenshots, not full pages: the phone's fixed header and slip bar are where a player sees them). It serves the
 * browser tests' scenario season (test/e2e/scenario.ts: the real app on a random 127.0.0.1 port, clock pinned at
 * Fri 2026-11-20 12:00 UTC) and walks the app in Debian's Chromium with injected test wallets, moving a price and
 * settling an event through the admin API on the way (shown live: the price highlighted and asked about in the
 * slip, a toast), and stopping the server at the end (the offline banner). Deterministic apart from countdowns. Needs /usr/bin/chromium.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { testKey } from "../test/app.js";
import {
  chromiumAvailable,
  DESKTOP,
  enforceStrictCsp,
  installTestWallet,
  launchChromium,
  PHONE,
} from "../test/e2e/browser.js";
import {
  playEvent,
  putAdminEvent,
  settleEvent,
  startScenarioApp,
  stopScenarioApp,
} from "../test/e2e/scenario.js";
import { ensureWebBuild } from "../test/e2e/web-build.js";

const out = fileURLToPath(new URL("../docs/screens/", import.meta.url));

async function session(
  browser: Browser,
  base: string,
  viewport: typeof DESKTOP,
  timezoneId: string,
  key: number,
) {
  const phone = viewport.width < 600;
  const context: BrowserContext = await browser.newContext({
    viewport,
    isMobile: phone,
    hasTouch: phone,
    deviceScaleFactor: 1,
    locale: "en-US",
    timezoneId,
  });
  await installTestWallet(context, { key: testKey(key), chainId: 1, decline: false });
  await enforceStrictCsp(context, base);
  const page = await context.newPage();
  return { context, page };
}

async function signIn(page: Page): Promise<void> {
  await page.locator(".site-header").getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("sign-in-panel").getByRole("button", { name: "Sign in with E2E Wallet" }).click();
  await page.locator(".site-header").getByRole("button", { name: "Sign out" }).waitFor();
}

const shot = async (page: Page, name: string) => {
  // Let refreshes and transitions settle; the caret would blink into the picture.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, `${name}.png`) });
  console.log(`docs/screens/${name}.png`);
};

const pick = (page: Page, eventId: string, label: string) =>
  page.locator(`.event[data-event-id="${eventId}"] .outcome`, { hasText: label }).click();

async function main(): Promise<void> {
  if (!chromiumAvailable) throw new Error("npm run screens needs Debian's Chromium at /usr/bin/chromium");
  mkdirSync(out, { recursive: true });
  await ensureWebBuild();
  const { t, base } = await startScenarioApp({ play: true });
  const browser = await launchChromium();
  let stopped = false;
  try {
    // Desktop: player 60 (in Week 2 Champions), Berlin time.
    const d = await session(browser, base, DESKTOP, "Europe/Berlin", 60);
    await d.page.goto(`${base}/`);
    await signIn(d.page);
    await d.page.getByTestId("qualification-status").waitFor();
    await shot(d.page, "desktop-weekly");

    await d.page.locator(".main-nav").getByRole("link", { name: "Play" }).click();
    await d.page.locator(".event").first().waitFor();
    await pick(d.page, "play-fb-1", "Liverpool");
    await pick(d.page, "play-fb-2", "Draw");
    await pick(d.page, "play-bb-1", "Lakers");
    await d.page
      .locator('.slip-line[data-selection^="play-fb-2/"]')
      .getByLabel("Stake on Draw (credits)")
      .fill("250");
    await d.page
      .locator('.slip-line[data-selection^="play-bb-1/"]')
      .getByLabel("Stake on Lakers (credits)")
      .fill("50");
    await shot(d.page, "desktop-slip-three-bets");

    const moved = playEvent("football", "Premier League", "Fulham", "Brentford", "2026-11-21T17:00:00.000Z");
    moved.markets[0]!.outcomes[1]!.odds = 3.6;
    // Live: the new price arrives through the stream, highlighted in the list, and the slip asks.
    await putAdminEvent(t, "play-fb-2", moved);
    await d.page.getByTestId("odds-changed").waitFor();
    await d.page.getByTestId("odds-changed").scrollIntoViewIfNeeded();
    await shot(d.page, "desktop-slip-odds-changed");

    await d.page.getByRole("button", { name: "Accept new odds" }).click();
    await d.page.getByRole("button", { name: "Place 3 bets for 400 credits" }).click();
    await d.page.getByText("Bet placed: 50 credits on Lakers at 1.80.").waitFor();
    await d.page.locator(".recent .pill").nth(2).waitFor();
    await shot(d.page, "desktop-slip-placed");

    // Live: the event is settled through the admin API; the page says so by itself.
    await settleEvent(t, "play-fb-1", "home");
    await d.page.getByTestId("toast").waitFor();
    await d.page.locator('.event[data-event-id="play-fb-1"] [data-testid="event-closed"]').waitFor();
    await d.page.evaluate(() => scrollTo(0, 0));
    await shot(d.page, "desktop-live-settled");
    await d.page.getByTestId("toast").getByRole("button", { name: "Dismiss" }).click();

    await d.page.getByTestId("bet-slip").getByLabel("Odds format").selectOption("fractional");
    await shot(d.page, "desktop-fractional-odds");
    await d.page.getByTestId("bet-slip").getByLabel("Odds format").selectOption("decimal");

    await d.page.locator(".main-nav").getByRole("link", { name: "How it works" }).click();
    await d.page.getByRole("heading", { name: "The bet slip" }).waitFor();
    await shot(d.page, "desktop-how-it-works");
    await d.context.close();

    // Phone: player 61 (a new player), Tokyo time.
    const p = await session(browser, base, PHONE, "Asia/Tokyo", 61);
    await p.page.goto(`${base}/play`);
    await signIn(p.page);
    await p.page.locator(".event").first().waitFor();
    await pick(p.page, "play-fb-4", "Chelsea");
    await pick(p.page, "play-fb-5", "Draw");
    await p.page.getByRole("button", { name: "Show more events" }).scrollIntoViewIfNeeded();
    await shot(p.page, "phone-play-slip-bar");
    await p.page.locator(".slip-bar-button").click();
    await p.page.getByTestId("bet-slip").waitFor();
    await shot(p.page, "phone-slip-sheet");
    await p.page.getByRole("button", { name: "Place 2 bets for 200 credits" }).click();
    await p.page.getByText("Bet placed: 100 credits on Draw at 3.40.").waitFor();
    await shot(p.page, "phone-slip-placed");
    await p.page.getByRole("button", { name: "Close" }).click();

    await p.page.goto(`${base}/?week=2&type=champions`);
    await p.page.locator(".ladder-table").waitFor();
    await shot(p.page, "phone-weekly-champions");

    // The server goes away: the offline banner.
    await p.page.locator(".main-nav").getByRole("link", { name: "Play" }).click();
    await p.page.locator(".event").first().waitFor();
    await stopScenarioApp(t);
    stopped = true;
    await p.page.getByTestId("offline-banner").waitFor({ timeout: 10_000 });
    await shot(p.page, "phone-offline-banner");
    await p.context.close();
  } finally {
    await browser.close();
    if (!stopped) await stopScenarioApp(t);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
