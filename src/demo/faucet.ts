/**
 * The demo chain's faucet (`POST /api/demo/faucet`, `npm run demo` only): sends an address test USDC (minted on
 * TestUSDC) and gas (native coin) from the demo's funded dev key, so a visitor's browser wallet can bet.
 *
 * Contract:
 * - Bounded: a fixed `usdcMicro` and `gasWei` per request, and none of either once the address already holds
 *   `usdcCapMicro` / `gasCapWei`.
 * - One request per address per `cooldownMs` (429 RATE_LIMITED with the seconds to wait); the route's per-IP
 *   sign-in rate class bounds the rest. The demo runs one process on a throwaway chain, so the cooldown lives in
 *   memory; a restart forgets it and starts a fresh chain anyway.
 * - Transactions from the funder are sent one at a time (one nonce sequence), each awaited with a time limit.
 */
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbi,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Clock } from "../clock.js";
import { AppError } from "../errors.js";
import { formatUsdc } from "../shared/money.js";

export interface FaucetOptions {
  rpcUrl: string;
  chainId: number;
  usdc: Address;
  /** The demo's funded dev key (a publicly known one: the demo refuses production). */
  funderKey: Hex;
  clock: Clock;
  usdcMicro?: bigint;
  gasWei?: bigint;
  usdcCapMicro?: bigint;
  gasCapWei?: bigint;
  cooldownMs?: number;
}

export interface FaucetResult {
  address: Address;
  /** USDC sent, 6-decimal string ("0.000000" when the address already held the cap). */
  usdc: string;
  /** Native coin sent, in wei, as a decimal string. */
  gasWei: string;
  transactions: Hex[];
}

const TOKEN_ABI = parseAbi([
  "function mint(address to, uint256 amount)",
  "function balanceOf(address account) view returns (uint256)",
]);
const GAS_PRICE = 10_000_000_000n;
const RECEIPT_TIMEOUT_MS = 30_000;

export const FAUCET_DEFAULTS = {
  usdcMicro: 1_000_000_000n, // 1,000 USDC
  gasWei: 10n ** 18n, // 1 coin
  usdcCapMicro: 10_000_000_000n, // 10,000 USDC
  gasCapWei: 5n * 10n ** 18n,
  cooldownMs: 60_000,
} as const;

/** A second request for one address within the cooldown: 429, with the seconds to wait (`retry-after`). */
export class FaucetCooldown extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super("RATE_LIMITED", `This address was funded just now; try again in ${retryAfterSeconds} s`);
  }
}

export class Faucet {
  private readonly client: PublicClient;
  private readonly funder;
  private readonly lastFunded = new Map<string, number>();
  /** Every send from the funder runs after the previous one: one nonce sequence, no collisions. */
  private queue: Promise<unknown> = Promise.resolve();
  readonly limits;

  constructor(private readonly opts: FaucetOptions) {
    this.client = createPublicClient({ transport: http(opts.rpcUrl, { retryCount: 0, timeout: 10_000 }) });
    this.funder = privateKeyToAccount(opts.funderKey);
    this.limits = {
      usdcMicro: opts.usdcMicro ?? FAUCET_DEFAULTS.usdcMicro,
      gasWei: opts.gasWei ?? FAUCET_DEFAULTS.gasWei,
      usdcCapMicro: opts.usdcCapMicro ?? FAUCET_DEFAULTS.usdcCapMicro,
      gasCapWei: opts.gasCapWei ?? FAUCET_DEFAULTS.gasCapWei,
      cooldownMs: opts.cooldownMs ?? FAUCET_DEFAULTS.cooldownMs,
    };
  }

  /** Funds `raw` (any case); throws RATE_LIMITED within the cooldown. */
  async fund(raw: string): Promise<FaucetResult> {
    const address = getAddress(raw.toLowerCase());
    const key = address.toLowerCase();
    const now = this.opts.clock.now().getTime();
    const last = this.lastFunded.get(key);
    if (last !== undefined && now - last < this.limits.cooldownMs) {
      const wait = Math.ceil((this.limits.cooldownMs - (now - last)) / 1000);
      throw new FaucetCooldown(wait);
    }
    // Claimed before the sends, so a second request racing this one is refused rather than paid twice.
    this.lastFunded.set(key, now);
    try {
      return await this.serially(() => this.send(address));
    } catch (err) {
      this.lastFunded.delete(key);
      throw err;
    }
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async send(address: Address): Promise<FaucetResult> {
    const { usdcMicro, gasWei, usdcCapMicro, gasCapWei } = this.limits;
    const [usdcHeld, gasHeld] = await Promise.all([
      this.client.readContract({
        address: this.opts.usdc,
        abi: TOKEN_ABI,
        functionName: "balanceOf",
        args: [address],
      }),
      this.client.getBalance({ address }),
    ]);
    const transactions: Hex[] = [];
    const usdc = usdcHeld < usdcCapMicro ? usdcMicro : 0n;
    const gas = gasHeld < gasCapWei ? gasWei : 0n;
    if (usdc > 0n) {
      const data = encodeFunctionData({ abi: TOKEN_ABI, functionName: "mint", args: [address, usdc] });
      transactions.push(await this.transact({ to: this.opts.usdc, data, value: 0n, gas: 200_000n }));
    }
    if (gas > 0n) transactions.push(await this.transact({ to: address, value: gas, gas: 21_000n }));
    return { address, usdc: formatUsdc(usdc), gasWei: gas.toString(), transactions };
  }

  /** Signs locally with every field given and sends raw (ganache lacks what viem's preparation probes). */
  private async transact(tx: { to: Address; data?: Hex; value: bigint; gas: bigint }): Promise<Hex> {
    const nonce = await this.client.getTransactionCount({
      address: this.funder.address,
      blockTag: "pending",
    });
    const raw = await this.funder.signTransaction({
      type: "legacy",
      chainId: this.opts.chainId,
      to: tx.to,
      data: tx.data,
      value: tx.value,
      gas: tx.gas,
      gasPrice: GAS_PRICE,
      nonce,
    });
    const hash = keccak256(raw);
    await this.client.sendRawTransaction({ serializedTransaction: raw });
    const receipt = await this.client.waitForTransactionReceipt({
      hash,
      timeout: RECEIPT_TIMEOUT_MS,
      pollingInterval: 100,
    });
    if (receipt.status !== "success")
      throw new AppError("SERVICE_UNAVAILABLE", `Faucet transaction failed: ${hash}`);
    return hash;
  }
}
