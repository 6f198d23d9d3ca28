/**
 * Debian's Chromium driven by playwright-core, and a test wallet: an EIP-1193 `window.ethereum` injected into
 * every page, whose accounts and `personal_sign` are served from Node by a viem account for a test private key.
 */
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export const CHROMIUM = "/usr/bin/chromium";
export const chromiumAvailable = existsSync(CHROMIUM);

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

/** What the injected wallet does; change it between sign-ins. */
export interface TestWallet {
  /** The signing key, or null for a wallet that shares no account. */
  key: Hex | null;
  chainId: number;
  /** When set, every request is refused with EIP-1193 code 4001 (the user declined). */
  decline: boolean;
}

type WalletAnswer = { result: unknown } | { error: { code: number; message: string } };

/** Installs `window.ethereum` in every page of the context, backed by `wallet` (read at each request). */
export async function installTestWallet(context: BrowserContext, wallet: TestWallet): Promise<void> {
  await context.exposeFunction(
    "__e2eWallet",
    async (method: string, params: unknown[]): Promise<WalletAnswer> => {
      if (wallet.decline) return { error: { code: 4001, message: "User rejected the request." } };
      const account = wallet.key ? privateKeyToAccount(wallet.key) : null;
      switch (method) {
        case "eth_requestAccounts":
        case "eth_accounts":
          return { result: account ? [account.address.toLowerCase()] : [] };
        case "eth_chainId":
          return { result: `0x${wallet.chainId.toString(16)}` };
        case "personal_sign": {
          const [raw, address] = params as [Hex, string];
          if (!account || address.toLowerCase() !== account.address.toLowerCase()) {
            return { error: { code: 4100, message: "Unknown account" } };
          }
          return { result: await account.signMessage({ message: { raw } }) };
        }
        default:
          return { error: { code: 4200, message: `Unsupported method ${method}` } };
      }
    },
  );
  await context.addInitScript({
    content: `
      window.ethereum = {
        isE2ETestWallet: true,
        async request({ method, params }) {
          const answer = await window.__e2eWallet(method, params ?? []);
          if (answer.error) {
            const err = new Error(answer.error.message);
            err.code = answer.error.code;
            throw err;
          }
          return answer.result;
        },
      };
    `,
  });
}

/** Collects console errors and uncaught page errors of a page. */
export function collectConsoleErrors(page: Page, into: string[]): void {
  page.on("console", (msg) => {
    if (msg.type() === "error") into.push(`${page.url()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => into.push(`${page.url()}: uncaught ${err.message}`));
}
