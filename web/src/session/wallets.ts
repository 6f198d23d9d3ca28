/**
 * Browser wallets on this page: every wallet that announces itself through EIP-6963 (multi injected provider
 * discovery), collected by `mipd` (wevm's EIP-6963 store: it asks with `eip6963:requestProvider`, keeps each
 * `eip6963:announceProvider` once per uuid, and tells subscribers), plus the legacy `window.ethereum` when no
 * announced wallet is that same object. An announcement is untrusted input: one without an EIP-1193 provider or an
 * id is ignored, names are trimmed and shortened, and only data: URI images are shown as icons.
 */
import { createStore, type EIP6963ProviderDetail } from "mipd";
import { useEffect, useState } from "preact/hooks";

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export interface BrowserWallet {
  /** EIP-6963 `rdns` (e.g. `io.metamask`), or `window.ethereum` for the legacy provider. */
  id: string;
  name: string;
  /** A data: URI image, or null. */
  icon: string | null;
  provider: Eip1193Provider;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

const LEGACY_ID = "window.ethereum";

const isProvider = (p: unknown): p is Eip1193Provider =>
  typeof p === "object" && p !== null && typeof (p as Eip1193Provider).request === "function";

const safeIcon = (icon: unknown): string | null =>
  typeof icon === "string" && /^data:image\/(svg\+xml|png|webp|gif|jpeg);/.test(icon) ? icon : null;

function walletOf(detail: EIP6963ProviderDetail): BrowserWallet | null {
  const info = detail?.info as Partial<EIP6963ProviderDetail["info"]> | undefined;
  if (!info || !isProvider(detail.provider)) return null;
  const id = typeof info.rdns === "string" && info.rdns ? info.rdns : String(info.uuid ?? "");
  if (!id) return null;
  const name = typeof info.name === "string" && info.name.trim() ? info.name.trim().slice(0, 40) : "Wallet";
  return { id, name, icon: safeIcon(info.icon), provider: detail.provider };
}

let store: ReturnType<typeof createStore> | null = null;
const discovery = () => {
  store ??= createStore();
  return store;
};

/** The wallets found so far: announced ones first (one per id), then `window.ethereum` if it is none of them. */
export function currentWallets(): BrowserWallet[] {
  const byId = new Map<string, BrowserWallet>();
  for (const detail of discovery().getProviders()) {
    const wallet = walletOf(detail);
    if (wallet) byId.set(wallet.id, wallet);
  }
  const list = [...byId.values()];
  const legacy = window.ethereum;
  if (isProvider(legacy) && !list.some((w) => w.provider === legacy)) {
    list.push({ id: LEGACY_ID, name: "Browser wallet", icon: null, provider: legacy });
  }
  return list;
}

/** The wallets on this page, updated when a wallet announces itself later (extensions may load late). */
export function useBrowserWallets(): BrowserWallet[] {
  const [wallets, setWallets] = useState(currentWallets);
  useEffect(() => discovery().subscribe(() => setWallets(currentWallets()), { emitImmediately: true }), []);
  return wallets;
}
