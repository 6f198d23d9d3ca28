/**
 * Sign-in with a browser wallet (EIP-1193): ask for the account and chain (switching to an accepted chain when the
 * wallet is on another one), build the EIP-4361 message the server asks for (the domain `GET /api/auth/nonce`
 * names — the address the page was opened on when the server accepts it — uri = location.origin, version 1, the
 * server's single-use nonce, issued at the server's now), have the wallet sign it (`personal_sign`), and post it
 * to /api/auth/wallet, which sets the session cookie.
 */
import { getAddress, toHex } from "viem";
import { createSiweMessage } from "viem/siwe";
import { api, type User } from "../api";
import type { Eip1193Provider } from "./wallets";

/** A wallet-side failure, with a message meant for the player. */
export class WalletError extends Error {}

const STATEMENT =
  "Sign in to the SP competition to play, claim and see your Qualification and Champions status.";

const CHAIN_NAMES: Record<number, string> = {
  1: "Ethereum",
  10: "OP Mainnet",
  137: "Polygon",
  1337: "Local test chain",
  8453: "Base",
  42161: "Arbitrum One",
  84532: "Base Sepolia",
  11155111: "Sepolia",
};

export const chainName = (id: number): string => CHAIN_NAMES[id] ?? `chain ${id}`;

/** Sends one request to the wallet; a refusal becomes a WalletError worded for the player. */
export async function ask<T>(provider: Eip1193Provider, method: string, params?: unknown[]): Promise<T> {
  try {
    return (await provider.request(params ? { method, params } : { method })) as T;
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code === 4001) throw new WalletError("You declined the request in your wallet.");
    const message = (err as { message?: unknown } | null)?.message;
    throw new WalletError(`Your wallet refused: ${typeof message === "string" ? message : "unknown error"}`);
  }
}

/** The wallet's current chain id. */
export async function walletChainId(provider: Eip1193Provider): Promise<number> {
  const chainHex = await ask<string>(provider, "eth_chainId");
  const chainId = Number.parseInt(String(chainHex), 16);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new WalletError("Your wallet reported no chain.");
  return chainId;
}

/**
 * Makes sure the wallet is on one of `accepted` (asking it to switch to the first when it is not); returns the
 * chain it is on.
 */
export async function ensureChain(provider: Eip1193Provider, accepted: number[]): Promise<number> {
  const current = await walletChainId(provider);
  if (accepted.length === 0 || accepted.includes(current)) return current;
  const target = accepted[0]!;
  try {
    await ask(provider, "wallet_switchEthereumChain", [{ chainId: `0x${target.toString(16)}` }]);
  } catch (err) {
    const names = accepted.map(chainName).join(" or ");
    if (err instanceof WalletError && err.message.startsWith("You declined")) {
      throw new WalletError(`Sign-in needs ${names}: you declined the switch in your wallet.`);
    }
    throw new WalletError(`Switch your wallet to ${names} and try again.`);
  }
  const now = await walletChainId(provider);
  if (!accepted.includes(now))
    throw new WalletError(`Switch your wallet to ${chainName(target)} and try again.`);
  return now;
}

/** The wallet's first account, checksummed. */
export async function walletAccount(provider: Eip1193Provider): Promise<`0x${string}`> {
  const accounts = await ask<string[]>(provider, "eth_requestAccounts");
  const account = accounts?.[0];
  if (!account) throw new WalletError("Your wallet did not share an account.");
  try {
    return getAddress(account);
  } catch {
    throw new WalletError("Your wallet shared an invalid account.");
  }
}

export async function signInWithWallet(
  provider: Eip1193Provider,
  opts: { chainIds: number[]; referralCode?: string; now: Date },
): Promise<User> {
  const address = await walletAccount(provider);
  const chainId = await ensureChain(provider, opts.chainIds);
  const { nonce, domain } = await api.nonce();
  const message = createSiweMessage({
    domain,
    address,
    statement: STATEMENT,
    uri: location.origin,
    version: "1",
    chainId,
    nonce,
    issuedAt: opts.now,
  });
  const signature = await ask<string>(provider, "personal_sign", [toHex(message), address]);
  const { user } = await api.signInWithWallet(message, signature, opts.referralCode);
  return user;
}
