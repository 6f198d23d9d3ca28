/**
 * Debian's Chromium driven by playwright-core, and test wallets: EIP-1193 providers injected into every page and
 * announced through EIP-6963 (optionally also as the legacy `window.ethereum`). Accounts, `personal_sign` and
 * `eth_sendTransaction` are served from Node by a viem local account for a test private key; chain reads
 * (`eth_call`, receipts, …) are forwarded to a JSON-RPC node (ganache) when one is given.
 * Also: a strict Content-Security-Policy on the page (no inline script or style), axe-core checks, and the page's
 * console errors.
 */
import { existsSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { type Hex, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/**
 * Debian's headless shell (package chromium-headless-shell, the "old" headless mode that Chrome moved into a binary
 * of its own) when it is installed, else the full browser in its new headless mode. The same Blink renders both;
 * the shell carries no browser UI, and the browser tests' Chromium used 29 % less CPU with it (docs/performance.md,
 * "Session 15").
 */
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
export const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium";
export const chromiumAvailable = existsSync(CHROMIUM);

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
}

/** What an injected wallet does; change it between requests. */
export interface TestWallet {
  /** The signing key, or null for a wallet that shares no account. */
  key: Hex | null;
  chainId: number;
  /** When set, every request is refused with EIP-1193 code 4001 (the user declined). */
  decline: boolean;
}

export interface WalletOptions {
  /** EIP-6963 name and rdns. */
  name: string;
  rdns: string;
  /** Announce through EIP-6963 (default true). */
  announce?: boolean;
  /** Also set `window.ethereum` (default false). */
  legacy?: boolean;
  /** JSON-RPC node for chain reads and raw transactions (default: none). */
  rpcUrl?: string;
  /** Chains `wallet_switchEthereumChain` may switch to (default: any). */
  switchableChains?: number[];
}

type WalletAnswer = { result: unknown } | { error: { code: number; message: string } };

const ICON =
  "data:image/svg+xml;base64," +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><rect width="20" height="20" rx="4" fill="#0f7b45"/></svg>',
  ).toString("base64");

async function rpc(url: string, method: string, params: unknown[]): Promise<WalletAnswer> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  return body.error ? { error: body.error } : { result: body.result ?? null };
}

/** Answers one EIP-1193 request of the page for `wallet`. */
async function answer(wallet: TestWallet, opts: WalletOptions, method: string, params: unknown[]) {
  if (wallet.decline) return { error: { code: 4001, message: "User rejected the request." } };
  const account = wallet.key ? privateKeyToAccount(wallet.key) : null;
  switch (method) {
    case "eth_requestAccounts":
    case "eth_accounts":
      return { result: account ? [account.address.toLowerCase()] : [] };
    case "eth_chainId":
      return { result: `0x${wallet.chainId.toString(16)}` };
    case "wallet_switchEthereumChain": {
      const target = Number.parseInt(String((params[0] as { chainId?: string })?.chainId), 16);
      if (opts.switchableChains && !opts.switchableChains.includes(target)) {
        return { error: { code: 4902, message: "Unrecognized chain" } };
      }
      wallet.chainId = target;
      return { result: null };
    }
    case "personal_sign": {
      const [raw, address] = params as [Hex, string];
      if (!account || address.toLowerCase() !== account.address.toLowerCase()) {
        return { error: { code: 4100, message: "Unknown account" } };
      }
      return { result: await account.signMessage({ message: { raw } }) };
    }
    case "eth_sendTransaction": {
      const tx = params[0] as { from: string; to: Hex; data: Hex };
      if (!account || tx.from.toLowerCase() !== account.address.toLowerCase()) {
        return { error: { code: 4100, message: "Unknown account" } };
      }
      if (!opts.rpcUrl) return { error: { code: 4200, message: "No chain" } };
      const nonce = await rpc(opts.rpcUrl, "eth_getTransactionCount", [account.address, "pending"]);
      if ("error" in nonce) return nonce;
      const raw = await account.signTransaction({
        type: "legacy",
        chainId: wallet.chainId,
        to: tx.to,
        data: tx.data,
        gas: 1_000_000n,
        gasPrice: 10_000_000_000n,
        nonce: Number(BigInt(nonce.result as string)),
      });
      const sent = await rpc(opts.rpcUrl, "eth_sendRawTransaction", [raw]);
      return "error" in sent ? sent : { result: keccak256(raw) };
    }
    default:
      if (opts.rpcUrl && method.startsWith("eth_")) return rpc(opts.rpcUrl, method, params);
      return { error: { code: 4200, message: `Unsupported method ${method}` } };
  }
}

/** Injects a wallet backed by `wallet` (read at each request) into every page of the context. */
export async function installTestWallet(
  context: BrowserContext,
  wallet: TestWallet,
  opts: WalletOptions = { name: "E2E Wallet", rdns: "test.e2e.wallet" },
): Promise<void> {
  const binding = `__wallet_${opts.rdns.replace(/[^A-Za-z0-9]/g, "_")}`;
  await context.exposeFunction(binding, (method: string, params: unknown[]) =>
    answer(wallet, opts, method, params),
  );
  const info = {
    uuid: `00000000-0000-4000-8000-${opts.rdns.length.toString().padStart(12, "0")}`,
    name: opts.name,
    icon: ICON,
    rdns: opts.rdns,
  };
  await context.addInitScript({
    content: `
      (() => {
        const provider = {
          isE2ETestWallet: true,
          async request({ method, params }) {
            const answer = await window[${JSON.stringify(binding)}](method, params ?? []);
            if (answer.error) {
              const err = new Error(answer.error.message);
              err.code = answer.error.code;
              throw err;
            }
            return answer.result;
          },
        };
        const info = Object.freeze(${JSON.stringify(info)});
        if (${opts.legacy === true}) window.ethereum = provider;
        if (${opts.announce !== false}) {
          const announce = () =>
            window.dispatchEvent(
              new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
            );
          window.addEventListener("eip6963:requestProvider", announce);
          announce();
        }
      })();
    `,
  });
}

/**
 * Serves the app's HTML documents with a strict Content-Security-Policy (scripts, styles, connections from the
 * page's own origin only; no inline script or style attribute), so a page that needs 'unsafe-inline' or eval
 * shows CSP violations in the console.
 */
export async function enforceStrictCsp(context: BrowserContext, base: string): Promise<void> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  await context.route(
    (url) =>
      url.origin === base &&
      !url.pathname.startsWith("/api/") &&
      !url.pathname.startsWith("/assets/") &&
      !/\.[a-z0-9]+$/i.test(url.pathname),
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": csp } });
    },
  );
}

/**
 * Holds back the requests `page` makes to `url` (a glob) until the returned function is called: every one of them,
 * or with `first` only the first (the later ones pass at once).
 */
export async function holdBack(page: Page, url: string, opts: { first?: boolean } = {}): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  await page.route(url, async (route) => {
    if (!(opts.first && held)) {
      held = true;
      await released;
    }
    await route.continue();
  });
  return release;
}

/** Collects console errors and uncaught page errors of a page (with the URL a failed load was for). */
export function collectConsoleErrors(page: Page, into: string[]): void {
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const where = msg.location()?.url;
    into.push(`${page.url()}: ${msg.text()}${where ? ` [${where}]` : ""}`);
  });
  page.on("pageerror", (err) => into.push(`${page.url()}: uncaught ${err.message}`));
}

/**
 * axe-core on the page as it is now: the violations as "rule: target, target" lines (none expected). In axe's
 * legacy mode (`axe.run` in the page): the default runs `axe.runPartial` and then finishes in a new blank page, a
 * new page per check, for cross-origin frames, which the app has none of; that cost 35 s of the browser tests'
 * 150 s of CPU (docs/decisions.md, "Test files in parallel").
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // `resultTypes: ["violations"]`: axe still runs every rule on every node, but builds the selectors and details
  // of the passes and the inapplicable and incomplete results for one node each instead of all (axe-core's API
  // documentation, "Performance"); the violations are reported in full, as before.
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

/**
 * How far the page reaches past the right edge of the screen, in CSS pixels (0 when nothing scrolls sideways).
 * Measured against the emulated screen width: a phone's layout viewport widens to fit overflowing content, so
 * `innerWidth` alone would hide it.
 */
export async function horizontalOverflow(page: Page): Promise<number> {
  const width = page.viewportSize()!.width;
  return page.evaluate((w) => Math.max(0, document.documentElement.scrollWidth - w), width);
}

/** The elements whose right edge passes the screen's (for a failure message). */
export async function overflowingElements(page: Page): Promise<string[]> {
  const width = page.viewportSize()!.width;
  return page.evaluate((w) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (
        (r.right > w + 0.5 && r.width > 0) ||
        (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible")
      ) {
        out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")} right=${Math.round(r.right)}`);
      }
    }
    return out.slice(0, 20);
  }, width);
}
