/**
 * One browser session of the e2e tests: a Chromium context at a screen size and time zone, with test wallets
 * injected, the app's documents served under a strict CSP, console errors collected, and helpers to take a
 * screenshot, check a view with axe-core and the phone's sideways overflow, and sign in through the page.
 */
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { testKey } from "../app.js";
import {
  axeViolations,
  collectConsoleErrors,
  DESKTOP,
  enforceStrictCsp,
  horizontalOverflow,
  installTestWallet,
  overflowingElements,
  PHONE,
  type TestWallet,
  type WalletOptions,
} from "./browser.js";

export const ARTIFACTS = "test-artifacts";

export interface E2ESession {
  context: BrowserContext;
  page: Page;
  /** "desktop" or "phone": the screenshot file prefix. */
  name: string;
  /** Full-page screenshot to test-artifacts/<name>-<view>.png. */
  shot(view: string, opts?: { fullPage?: boolean }): Promise<void>;
  /**
   * The view as it is now passes axe-core with zero violations and, on a phone, reaches no further than the
   * screen's width; then it is photographed.
   */
  check(view: string): Promise<void>;
  /** Opens the sign-in panel from the header and signs in with the named wallet. */
  signInWith(walletName: string): Promise<void>;
  signOut(): Promise<void>;
  /** The bet slip, opened from the bottom bar on a phone (it sits beside the events on a desktop). */
  openSlip(): Promise<Locator>;
  close(): Promise<void>;
}

export async function openSession(
  browser: Browser,
  opts: {
    base: string;
    name: string;
    viewport: { width: number; height: number };
    timezoneId: string;
    wallets?: { wallet: TestWallet; options?: WalletOptions }[];
    consoleErrors: string[];
  },
): Promise<E2ESession> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const phone = opts.viewport.width < 600;
  const context = await browser.newContext({
    viewport: opts.viewport,
    isMobile: phone,
    hasTouch: phone,
    deviceScaleFactor: 1,
    locale: "en-US",
    timezoneId: opts.timezoneId,
  });
  for (const w of opts.wallets ?? []) await installTestWallet(context, w.wallet, w.options);
  await enforceStrictCsp(context, opts.base);
  const page = await context.newPage();
  collectConsoleErrors(page, opts.consoleErrors);
  const shot = async (view: string, o: { fullPage?: boolean } = {}) => {
    await page.screenshot({ path: `${ARTIFACTS}/${opts.name}-${view}.png`, fullPage: o.fullPage ?? true });
  };
  return {
    context,
    page,
    name: opts.name,
    shot,
    check: async (view) => {
      expect(await axeViolations(page), `axe on ${opts.name} ${view}`).toEqual([]);
      if (phone) {
        const overflow = await horizontalOverflow(page);
        expect(overflow, `${opts.name} ${view} overflows: ${await overflowingElements(page)}`).toBe(0);
      }
      await shot(view);
    },
    signInWith: async (walletName) => {
      const panel = page.getByTestId("sign-in-panel");
      if (!(await panel.isVisible())) {
        await page.locator(".site-header").getByRole("button", { name: "Sign in" }).click();
      }
      await panel.getByRole("button", { name: `Sign in with ${walletName}` }).click();
      await page.locator(".site-header").getByRole("button", { name: "Sign out" }).waitFor();
    },
    openSlip: async () => {
      const slip = page.getByTestId("bet-slip");
      if (phone && !(await slip.isVisible())) await page.locator(".slip-bar-button").click();
      await slip.waitFor();
      return slip;
    },
    signOut: async () => {
      await page.locator(".site-header").getByRole("button", { name: "Sign out" }).click();
      await page.locator(".site-header").getByRole("button", { name: "Sign in" }).waitFor();
    },
    close: () => context.close(),
  };
}

/** An injected wallet of test key `i` on chain 1 that signs what it is asked. */
export const signingWallet = (i: number): TestWallet => ({ key: testKey(i), chainId: 1, decline: false });

/**
 * The two sessions most browser tests drive: `<prefix>-desktop` at 1366 px and `<prefix>-phone` at 390 px, each in
 * its own time zone with its own signing wallet (test keys `wallets[0]` and `wallets[1]`).
 */
export async function openDesktopAndPhone(
  browser: Browser,
  opts: {
    base: string;
    prefix: string;
    timezones: [desktop: string, phone: string];
    wallets: [desktop: number, phone: number];
    consoleErrors: string[];
  },
): Promise<{ desktop: E2ESession; phone: E2ESession }> {
  const open = (which: 0 | 1) =>
    openSession(browser, {
      base: opts.base,
      name: `${opts.prefix}-${which === 0 ? "desktop" : "phone"}`,
      viewport: which === 0 ? DESKTOP : PHONE,
      timezoneId: opts.timezones[which],
      consoleErrors: opts.consoleErrors,
      wallets: [{ wallet: signingWallet(opts.wallets[which]) }],
    });
  const desktop = await open(0);
  const phone = await open(1);
  return { desktop, phone };
}

/** Collects into `into` the body of every bet report (`POST /api/pred2earn/bet-placed`) the page sends. */
export function recordBetReports(page: Page, into: unknown[]): void {
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/pred2earn/bet-placed")) into.push(r.postDataJSON());
  });
}
