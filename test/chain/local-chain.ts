/**
 * A real local Ethereum chain for tests: ganache (npm) serving JSON-RPC on 127.0.0.1 at a random port, so the
 * service reaches it through CHAIN_RPC_URL exactly as it would reach a real node. Accounts are the test keys
 * (`testKey(i)` of test/app.ts), funded with ETH, so a player signs in and bets with the same wallet.
 *
 * Blocks are mined on every transaction ("instamine") with timestamps from a chain clock that starts at
 * `startTime` and runs in real time; `setTime` moves it, `stopMining`/`startMining` hold transactions in the pool.
 * Transactions are signed locally with every field given (legacy type, fixed gas price) and sent raw: viem's
 * automatic preparation probes methods ganache lacks and waits through retries.
 */
import ganache from "ganache";
import { type Address, createPublicClient, type Hex, http, keccak256, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { testKey } from "../app.js";

export const LOCAL_CHAIN_ID = 1337;

export interface TxFields {
  to?: Address;
  data: Hex;
  gas?: bigint;
  nonce?: number;
  gasPrice?: bigint;
}
const GAS_PRICE = 10_000_000_000n;

export interface LocalChain {
  url: string;
  chainId: number;
  /** A client that never caches, for assertions. */
  client: PublicClient;
  /** The address of test key i. */
  address(i: number): Address;
  /**
   * Signs and sends a transaction from test key i; returns its hash. `gas` defaults to 1,000,000 (no estimate, so a
   * call that reverts is still mined); `nonce` defaults to the account's next one, pending transactions included.
   */
  send(i: number, tx: TxFields): Promise<Hex>;
  /** Signs a transaction from test key i without sending it: its hash has no receipt until `sendRaw`. */
  sign(i: number, tx: TxFields): Promise<{ hash: Hex; raw: Hex }>;
  /** Sends a signed transaction (again, e.g. after a reorganisation dropped it); returns its hash. */
  sendRaw(raw: Hex): Promise<Hex>;
  /** Mines `blocks` empty blocks. */
  mine(blocks?: number): Promise<void>;
  /** Sets the chain clock: the next blocks get timestamps from `at` on. */
  setTime(at: Date): Promise<void>;
  /** Holds new transactions in the pool (no receipts) until `startMining`. */
  stopMining(): Promise<void>;
  startMining(): Promise<void>;
  /** Takes a snapshot of the chain (`evm_snapshot`); `revert` returns to it, dropping every block mined since. */
  snapshot(): Promise<Hex>;
  /** Reverts to a snapshot (`evm_revert`): the blocks after it leave the chain, as in a reorganisation. */
  revert(id: Hex): Promise<void>;
  close(): Promise<void>;
}

/** Starts a chain whose genesis block is at `startTime`, with test keys 0..accounts−1 funded. */
export async function startLocalChain(opts: { startTime: Date; accounts?: number }): Promise<LocalChain> {
  const keys = Array.from({ length: opts.accounts ?? 40 }, (_, i) => testKey(i));
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: LOCAL_CHAIN_ID, time: opts.startTime },
    wallet: { accounts: keys.map((secretKey) => ({ secretKey, balance: `0x${(10n ** 21n).toString(16)}` })) },
  });
  await server.listen(0, "127.0.0.1");
  const url = `http://127.0.0.1:${server.address()!.port}`;
  const rpc = <T>(method: string, params: unknown[] = []) =>
    server.provider.request({ method, params } as never) as Promise<T>;
  const client = createPublicClient({
    transport: http(url, { retryCount: 0 }),
    cacheTime: 0,
  }) as PublicClient;
  const account = (i: number) => privateKeyToAccount(testKey(i));
  const sign = async (i: number, tx: TxFields) => {
    const from = account(i);
    const nonce =
      tx.nonce ?? Number(BigInt(await rpc<Hex>("eth_getTransactionCount", [from.address, "pending"])));
    const raw = await from.signTransaction({
      type: "legacy",
      chainId: LOCAL_CHAIN_ID,
      to: tx.to ?? null,
      data: tx.data,
      gas: tx.gas ?? 1_000_000n,
      gasPrice: tx.gasPrice ?? GAS_PRICE,
      nonce,
    });
    return { hash: keccak256(raw), raw };
  };
  return {
    url,
    chainId: LOCAL_CHAIN_ID,
    client,
    address: (i) => account(i).address,
    sign,
    send: async (i, tx) => rpc<Hex>("eth_sendRawTransaction", [(await sign(i, tx)).raw]),
    sendRaw: (raw) => rpc<Hex>("eth_sendRawTransaction", [raw]),
    mine: async (blocks = 1) => {
      await rpc("evm_mine", [{ blocks }]);
    },
    setTime: async (at) => {
      await rpc("evm_setTime", [at.getTime()]);
    },
    stopMining: async () => {
      await rpc("miner_stop");
    },
    startMining: async () => {
      await rpc("miner_start");
    },
    snapshot: () => rpc<Hex>("evm_snapshot"),
    revert: async (id) => {
      if (!(await rpc<boolean>("evm_revert", [id]))) throw new Error(`no snapshot ${id}`);
    },
    close: () => server.close(),
  };
}
