/**
 * Browser wallets on this page: every wallet that announces itself through EIP-6963 (multi injected provider
 * discovery: it answers our `eip6963:requestProvider` with an `eip6963:announceProvider` event carrying its name,
 * icon and EIP-1193 provider), plus the legacy `window.ethereum` when no announced wallet is that same object.
 */
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

interface AnnounceDetail {
  info?: { uuid?: unknown; name?: unknown; icon?: unknown; rdns?: unknown };
  provider?: Eip1193Provider;
}

const LEGACY_ID = "window.ethereum";

const isProvider = (p: unknown): p is Eip1193Provider =>
  typeof p === "object" && p !== null && typeof (p as Eip1193Provider).request === "function";

/** Only images given as data: URIs are shown (an announcement is untrusted input). */
const safeIcon = (icon: unknown): string | null =>
  typeof icon === "string" && /^data:image\/(svg\+xml|png|webp|gif|jpeg);/.test(icon) ? icon : null;

const discovered = new Map<string, BrowserWallet>();
const listeners = new Set<() => void>();

function remember(wallet: BrowserWallet): void {
  const known = discovered.get(wallet.id);
  if (known && known.provider === wallet.provider && known.name === wallet.name) return;
  discovered.set(wallet.id, wallet);
  for (const l of listeners) l();
}

function onAnnounce(event: Event): void {
  const detail = (event as CustomEvent<AnnounceDetail>).detail;
  const info = detail?.info;
  if (!info || !isProvider(detail.provider)) return;
  const id = typeof info.rdns === "string" && info.rdns ? info.rdns : String(info.uuid ?? "");
  const name = typeof info.name === "string" && info.name.trim() ? info.name.trim().slice(0, 40) : "Wallet";
  if (!id) return;
  remember({ id, name, icon: safeIcon(info.icon), provider: detail.provider });
}

let started = false;
function start(): void {
  if (started) return;
  started = true;
  addEventListener("eip6963:announceProvider", onAnnounce);
  dispatchEvent(new Event("eip6963:requestProvider"));
}

/** The wallets found so far: announced ones first, then `window.ethereum` if it is none of them. */
export function currentWallets(): BrowserWallet[] {
  start();
  const list = [...discovered.values()];
  const legacy = window.ethereum;
  if (isProvider(legacy) && !list.some((w) => w.provider === legacy)) {
    list.push({ id: LEGACY_ID, name: "Browser wallet", icon: null, provider: legacy });
  }
  return list;
}

/** The wallets on this page, updated when a wallet announces itself later (extensions may load late). */
export function useBrowserWallets(): BrowserWallet[] {
  const [wallets, setWallets] = useState(currentWallets);
  useEffect(() => {
    const update = () => setWallets(currentWallets());
    listeners.add(update);
    update();
    return () => {
      listeners.delete(update);
    };
  }, []);
  return wallets;
}
