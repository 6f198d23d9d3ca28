/**
 * The competition web app in a real browser (Debian's Chromium, driven by playwright-core) against the real
 * service over HTTP, seeded with the known season of ./scenario.ts. Screenshots of the main views, desktop
 * (1280×800) and phone (390×844), go to test-artifacts/. Skipped when /usr/bin/chromium is absent, and on the
 * PostgreSQL pass (the page does not depend on the engine; one browser run per CI is enough).
 */
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, testKey } from "../app.js";
import {
  chromiumAvailable,
  collectConsoleErrors,
  installTestWallet,
  launchChromium,
  type TestWallet,
} from "./browser.js";
import { apiData as api, startScenarioApp, walletOf } from "./scenario.js";
import { ensureWebBuild } from "./web-build.js";

const ARTIFACTS = "test-artifacts";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The ladder table's rows as "rank | player | sp[ | prize]" strings, with "CUTOFF" where the line is drawn. */
async function ladderRows(page: Page) {
  return page
    .locator(".ladder-table tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) =>
        tr.classList.contains("cutoff-line")
          ? "CUTOFF"
          : [...tr.querySelectorAll("td")].map((td) => td.textContent?.trim() ?? "").join(" | "),
      ),
    );
}

/** The prize card's sources as [label, amount] pairs. */
function poolSources(page: Page) {
  return page
    .locator(".sources > div")
    .evaluateAll((items) =>
      items.map((d) => [d.querySelector("dt")?.textContent ?? "", d.querySelector("dd")?.textContent ?? ""]),
    );
}

const rankOf = (row: string | undefined) => Number(row?.split(" | ")[0]);

describe.skipIf(!chromiumAvailable || process.env.TEST_DB === "postgres")(
  "competition web app (Chromium)",
  () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let desktop: BrowserContext;
    let page: Page;
    const wallet: TestWallet = { key: null, chainId: 1, decline: false };
    const consoleErrors: string[] = [];

    async function openContext(viewport: { width: number; height: number }, mobile = false) {
      const context = await browser.newContext({
        viewport,
        isMobile: mobile,
        hasTouch: mobile,
        deviceScaleFactor: 1,
      });
      await installTestWallet(context, wallet);
      const p = await context.newPage();
      collectConsoleErrors(p, consoleErrors);
      return { context, page: p };
    }

    const shot = (p: Page, name: string) =>
      p.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });

    async function visit(query = "") {
      await page.goto(`${base}/${query}`);
      await page.locator(".ladder-table, .ladder-state.empty").first().waitFor();
    }

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      await ensureWebBuild();
      ({ t, base } = await startScenarioApp());
      browser = await launchChromium();
      ({ context: desktop, page } = await openContext(DESKTOP));
    }, 300_000); // building the page and seeding ~200 rows can be slow on a busy CI machine

    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it("serves the page, its hashed assets and the SPA fallback; /api stays JSON", async () => {
      const index = await fetch(`${base}/`);
      expect(index.status).toBe(200);
      expect(index.headers.get("content-type")).toMatch(/^text\/html/);
      expect(index.headers.get("cache-control")).toBe("no-cache");
      const html = await index.text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${base}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const again = await fetch(`${base}${script}`, {
        headers: { "if-none-match": asset.headers.get("etag")! },
      });
      expect(again.status).toBe(304);

      const head = await fetch(`${base}/`, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-type")).toMatch(/^text\/html/);

      const view = await fetch(`${base}/some/view?week=1`);
      expect(view.status).toBe(200);
      expect(await view.text()).toBe(html);
      for (const path of ["/assets/missing.js", "/nothing.png", "/api/nope"]) {
        const res = await fetch(`${base}${path}`);
        expect(res.status, path).toBe(404);
        expect((await res.json()).code, path).toBe("NOT_FOUND");
      }
      // No way out of web/dist (fetch would normalize "..", so the raw path goes through inject).
      for (const url of [
        "/..%2f..%2fpackage.json",
        "/%2e%2e/%2e%2e/package.json",
        "/..%5c..%5cpackage.json",
      ]) {
        const res = await t.app.inject({ method: "GET", url });
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toContain("sp-competition");
      }
      const post = await fetch(`${base}/`, { method: "POST" });
      expect(post.status).toBe(404);
      expect((await post.json()).code).toBe("NOT_FOUND");
    });

    it("opens on the live week: rail, countdown, Qualification ladder with its cutoff line, prize card", async () => {
      await visit();
      const rail = await page
        .locator(".rail-week")
        .evaluateAll((links) =>
          links.map((a) => [
            a.querySelector(".rail-label")?.textContent,
            a.querySelector(".status")?.textContent,
            a.getAttribute("aria-current"),
          ]),
        );
      expect(rail).toEqual([
        ["Opening week", "Finalized", null],
        ["Week 1", "Finalized", null],
        ["Week 2", "Live", "page"],
        ["Week 3", "Upcoming", null],
      ]);
      expect(await page.locator("#ladder-title").textContent()).toBe("Week 2 · Qualification");
      expect(await page.locator(".ladder .badge").textContent()).toBe("Provisional");

      const rows = await ladderRows(page);
      expect(rows.filter((r) => r !== "CUTOFF")).toHaveLength(50);
      const line = rows.indexOf("CUTOFF");
      expect(rows.lastIndexOf("CUTOFF")).toBe(line);
      expect(rankOf(rows[line - 1])).toBe(25);
      expect(rankOf(rows[line + 1])).toBe(26);
      expect(await page.locator(".cutoff-line").textContent()).toContain("top 25 plus ties");
      const api2 = await api(t, "/api/competition/leaderboard?week=2&type=qualification&limit=1");
      expect(rows[0]).toBe(
        `1 | ${api2.rows[0].displayName} | ${api2.rows[0].competitiveSp.toLocaleString("en-US")}`,
      );

      // The countdown counts down from the server's clock (3.5 days left) and ticks.
      const timer = page.locator(".timer time");
      expect(await page.locator("#countdown-title").textContent()).toBe("Week 2 ends in");
      expect(await timer.getAttribute("datetime")).toBe("2026-11-24T00:00:00.000Z");
      const first = await timer.textContent();
      expect(first).toMatch(/^3d 1[12]h \d\dm \d\ds$/);
      await expect.poll(() => timer.textContent(), { timeout: 5000 }).not.toBe(first);

      // The prize card shows the API's strings: Week 2 = Week 1 fees + incentive.
      const pool = await api(t, "/api/competition/prize-pool-estimate?week=2");
      expect(pool).toMatchObject({
        estimatedUsdc: "2600.500000",
        fundingWeekIndex: 1,
        sources: { protocolFeesWeek: "2500.500000", protocolIncentiveUsdc: "100.000000" },
      });
      expect(await page.getByTestId("pool-estimate").textContent()).toBe(`${pool.estimatedUsdc}USDC`);
      expect(await poolSources(page)).toEqual([
        ["Protocol fees of Week 1", "2500.500000 USDC"],
        ["Protocol incentive", "100.000000 USDC"],
      ]);
      await shot(page, "desktop-week2-qualification");
    });

    it("pages through a large ladder with offset/limit, 50 per page", async () => {
      await visit("?week=2");
      await page.getByRole("link", { name: "Next →" }).click();
      await expect.poll(() => page.url()).toBe(`${base}/?week=2&page=2`);
      await expect.poll(async () => (await ladderRows(page)).length).toBe(10);
      const rows = await ladderRows(page);
      expect(rows).not.toContain("CUTOFF");
      expect(rankOf(rows[0])).toBe(51);
      expect(await page.locator(".pager-status").textContent()).toBe("51–60 of 60 · Page 2 of 2");
      await page.getByRole("link", { name: "← Previous" }).click();
      await expect.poll(() => page.url()).toBe(`${base}/?week=2`);
      await expect.poll(async () => rankOf((await ladderRows(page))[0])).toBe(1);
    });

    it("shows the live Champions ladder with projected prizes on paid rows and the top-10 cutoff", async () => {
      await visit("?week=2");
      await page.getByRole("link", { name: "Champions", exact: true }).click();
      await expect.poll(() => page.url()).toBe(`${base}/?week=2&type=champions`);
      await page.locator(".ladder-table").waitFor();
      expect(await page.locator("#ladder-title").textContent()).toBe("Week 2 · Champions");
      const rows = await ladderRows(page);
      const api2 = await api(t, "/api/competition/leaderboard?week=2&type=champions&limit=100");
      expect(api2.total).toBe(35);
      expect(rows.filter((r) => r !== "CUTOFF")).toHaveLength(35);
      const line = rows.indexOf("CUTOFF");
      expect(rankOf(rows[line - 1])).toBe(10);
      expect(rankOf(rows[line + 1])).toBe(11);
      expect(await page.locator(".ladder-table th").last().textContent()).toBe("Projected prize (USDC)");
      const prizes = rows.filter((r) => r !== "CUTOFF").map((r) => r.split(" | ")[3]);
      expect(prizes.slice(0, 5)).toEqual(api2.rows.slice(0, 5).map((r: any) => r.prizeUsdc));
      expect(prizes.slice(5).every((p) => p === "—")).toBe(true);
      await shot(page, "desktop-week2-champions");
    });

    it("shows a finalized week as final with its paid prizes", async () => {
      await visit("?week=2&type=champions");
      await page.locator('.rail-week[data-week="1"]').click();
      await expect.poll(() => page.url()).toBe(`${base}/?week=1&type=champions`);
      await expect.poll(() => page.locator("#ladder-title").textContent()).toBe("Week 1 · Champions");
      await page.locator(".ladder-table").waitFor();
      expect(await page.locator(".ladder .badge").textContent()).toBe("Final");
      expect(await page.locator(".ladder-table th").last().textContent()).toBe("Prize (USDC)");
      const rows = (await ladderRows(page)).filter((r) => r !== "CUTOFF");
      expect(rows).toHaveLength(26);
      // Pool 1100 USDC (Opening week fees 1000 + incentive 100), split 35/30/20/10/5 %.
      expect(rows.slice(0, 6).map((r) => r.split(" | ")[3])).toEqual([
        "385.000000",
        "330.000000",
        "220.000000",
        "110.000000",
        "55.000000",
        "—",
      ]);
      expect(rows[0]).toContain(`${walletOf(26).slice(0, 6)}…${walletOf(26).slice(-4)}`);
      expect(await page.getByTestId("pool-estimate").textContent()).toBe("1100.000000USDC");
      await shot(page, "desktop-week1-champions");
    });

    it("says Champions starts in Week 1 for the opening week, and draws the cutoff after the tie at 25", async () => {
      await visit("?week=1&type=champions");
      await page.getByRole("link", { name: /^Opening week/ }).click();
      await expect.poll(() => page.url()).toBe(`${base}/?week=0&type=champions`);
      await page.getByText("Champions starts in Week 1", { exact: true }).waitFor();
      expect(await page.locator(".ladder-table").count()).toBe(0);
      expect(await poolSources(page)).toEqual([
        ["Protocol fees", "0.000000 USDC"],
        ["Protocol incentive", "100.000000 USDC"],
      ]);
      await shot(page, "desktop-opening-week-champions");

      await page.getByRole("link", { name: "See the Opening week Qualification ladder" }).click();
      await expect.poll(() => page.url()).toBe(`${base}/?week=0`);
      await page.locator(".ladder-table").waitFor();
      const rows = await ladderRows(page);
      const line = rows.indexOf("CUTOFF");
      expect(rows.slice(line - 2, line + 2).map(rankOf)).toEqual([25, 25, Number.NaN, 27]);
    });

    it("reproduces a view from its link, and shows an empty upcoming week", async () => {
      await visit("?week=1&page=2");
      expect(await page.locator('.rail-week[aria-current="page"] .rail-label').textContent()).toBe("Week 1");
      expect(await page.locator('.tab[aria-current="page"]').textContent()).toBe("Qualification");
      expect(rankOf((await ladderRows(page))[0])).toBe(51);

      await visit("?week=3");
      expect(await page.locator(".empty-title").textContent()).toBe("No ranked players yet");
      expect(await page.getByTestId("pool-estimate").textContent()).toBe("140.250000USDC");
      await shot(page, "desktop-week3-empty");

      await visit("?week=99&type=champions");
      await expect.poll(() => page.url()).toBe(`${base}/?type=champions`);
      expect(await page.locator("#ladder-title").textContent()).toBe("Week 2 · Champions");
    });

    it("is reachable with the keyboard", async () => {
      await visit();
      let focused = "";
      for (let i = 0; i < 12 && !focused.startsWith("Week 1"); i++) {
        await page.keyboard.press("Tab");
        focused = await page.evaluate(() => document.activeElement?.textContent ?? "");
      }
      expect(focused).toMatch(/^Week 1/);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.url()).toBe(`${base}/?week=1`);
      // The focus is visible: an outline is drawn on the focused link.
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
      expect(outline).toBe("solid");
      await page.screenshot({ path: `${ARTIFACTS}/desktop-keyboard-focus.png` });
    });

    it("signs in with the browser wallet: a qualified player sees 'Qualified — rank N' and their row", async () => {
      wallet.key = testKey(60);
      await visit();
      await page.getByRole("button", { name: "Sign in with wallet" }).click();
      const champions = page.getByTestId("champions-status");
      await champions.waitFor();

      const ladder = await api(t, "/api/competition/leaderboard?week=2&type=champions&limit=100");
      const mine = ladder.rows.find((r: any) => r.wallet === walletOf(60));
      const quali = await api(t, "/api/competition/leaderboard?week=2&limit=100");
      const myQuali = quali.rows.find((r: any) => r.wallet === walletOf(60));
      expect(await champions.textContent()).toBe(`Qualified — rank ${mine.rank}`);
      expect(await page.getByTestId("qualification-status").textContent()).toBe(`Rank ${myQuali.rank}`);
      const expectedNext = myQuali.withinCutoff
        ? "On track to qualify via the Qualification top 25"
        : mine.withinCutoff
          ? "On track to qualify via the Champions top 10"
          : "Not on track to qualify yet";
      expect(await page.getByTestId("next-week-status").textContent()).toBe(expectedNext);
      const highlighted = page.locator("tr.is-mine");
      await highlighted.waitFor();
      expect(await highlighted.getAttribute("data-user-id")).toBe(myQuali.userId);
      expect(await highlighted.locator(".you-tag").textContent()).toBe("You");
      await shot(page, "desktop-signed-in-qualified");

      // The session survives a reload.
      await page.reload();
      await champions.waitFor();
      expect(await champions.textContent()).toBe(`Qualified — rank ${mine.rank}`);

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("button", { name: "Sign in with wallet" }).waitFor();
      expect(await page.locator("tr.is-mine").count()).toBe(0);
      expect((await desktop.cookies()).some((c) => c.name === "session")).toBe(false);
    });

    it("shows 'Not qualified' to a player outside Champions, and their Week 1 place", async () => {
      wallet.key = testKey(5);
      await visit();
      await page.getByRole("button", { name: "Sign in with wallet" }).click();
      const champions = page.getByTestId("champions-status");
      await champions.waitFor();
      expect(await champions.textContent()).toBe("Not qualified");
      const quali = await api(t, "/api/competition/leaderboard?week=2&limit=100");
      const myQuali = quali.rows.find((r: any) => r.wallet === walletOf(5));
      expect(await page.getByTestId("qualification-status").textContent()).toBe(`Rank ${myQuali.rank}`);
      await shot(page, "desktop-signed-in-not-qualified");

      // In Week 1 player 5 was in Champions: 150 SP, rank 22 of players 1..26 (26 → 360 SP first).
      await page.locator('.rail-week[data-week="1"]').click();
      await expect.poll(() => champions.textContent()).toBe("Qualified — rank 22");
      expect(await page.getByTestId("next-week-status").textContent()).toBe("Not qualified");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("button", { name: "Sign in with wallet" }).waitFor();
    });

    it("explains a declined wallet request", async () => {
      await visit();
      wallet.decline = true;
      try {
        await page.getByRole("button", { name: "Sign in with wallet" }).click();
        await page.getByText("You declined the request in your wallet.").waitFor();
      } finally {
        wallet.decline = false;
      }
    });

    it("works on a phone-sized screen", async () => {
      wallet.key = testKey(60);
      const phone = await openContext(PHONE, true);
      try {
        const p = phone.page;
        await p.goto(`${base}/`);
        await p.locator(".ladder-table").waitFor();
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await shot(p, "phone-week2-qualification");
        await p.goto(`${base}/?week=1&type=champions`);
        await p.locator(".ladder-table").waitFor();
        await shot(p, "phone-week1-champions");
        await p.getByRole("button", { name: "Sign in with wallet" }).click();
        await p.getByTestId("champions-status").waitFor();
        await p.screenshot({ path: `${ARTIFACTS}/phone-signed-in.png` });
        await p.getByRole("button", { name: "Sign out" }).click();
        await p.getByRole("button", { name: "Sign in with wallet" }).waitFor();
      } finally {
        await phone.context.close();
      }
    });

    it("shows loading and error states, and recovers", async () => {
      const errors: string[] = [];
      const { context, page: p } = await openContext(DESKTOP);
      // This page's failures are deliberate: its console goes to its own list.
      p.removeAllListeners("console");
      p.removeAllListeners("pageerror");
      collectConsoleErrors(p, errors);
      try {
        let release!: () => void;
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const leaderboard = (url: URL) => url.pathname === "/api/competition/leaderboard";
        await p.route(leaderboard, async (route) => {
          await held;
          await route.fulfill({
            status: 503,
            contentType: "application/json",
            body: JSON.stringify({ success: false, error: "Service busy", status: 503, code: "UNAVAILABLE" }),
          });
        });
        await p.goto(`${base}/?week=2`);
        await p.getByText("Loading the ladder…").waitFor();
        await shot(p, "desktop-loading");
        release();
        await p.getByText("Couldn't load the ladder: Service busy").waitFor();
        await shot(p, "desktop-error");
        await p.unroute(leaderboard);
        await p.getByRole("button", { name: "Try again" }).click();
        await p.locator(".ladder-table").waitFor();
        expect(errors.every((e) => e.includes("503"))).toBe(true);
      } finally {
        await context.close();
      }
    });

    it("logged no console errors", async () => {
      await desktop.close();
      expect(consoleErrors).toEqual([]);
    });
  },
);
