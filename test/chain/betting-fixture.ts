/**
 * The betting contract deployed on a local chain, with helpers that act as players (mint + approve + placeBet)
 * and as the house (collectFees). Test key 0 deploys and owns the contracts; the USDC is TestUSDC (6 decimals).
 */
import { type Address, encodeDeployData, encodeFunctionData, type Hex, type TransactionReceipt } from "viem";
import { onchainEventId } from "../../src/chain/bet-encoding.js";
import { compileContracts } from "./compile-contracts.js";
import type { LocalChain } from "./local-chain.js";

export interface BetOnChain {
  eventId: string;
  market: string;
  outcome: number;
  /** micro-USDC */
  amount: bigint;
  oddsMilli: bigint;
}

export interface BetOptions {
  /** The betting contract to call (default: the one the service is configured with). */
  contract?: Address;
  /** Fund the stake first: mint it to the bettor and approve the contract (default true). Unfunded bets revert. */
  fund?: boolean;
  nonce?: number;
  gasPrice?: bigint;
  /** Wait for the receipt (default true); false when mining is stopped. */
  wait?: boolean;
}

export interface BettingFixture {
  usdc: Address;
  betting: Address;
  /** The block that deployed `betting`: where its fee indexing starts. */
  deployedAt: bigint;
  /** A second, unrelated deployment of the same contract. */
  otherBetting: Address;
  /** Mints `amount` TestUSDC to test key i and lets `contract` (default: the betting contract) spend it. */
  fund(i: number, amount: bigint, contract?: Address): Promise<void>;
  /** The calldata of placeBet for a bet. */
  placeBetData(bet: BetOnChain): Hex;
  /** Places a bet from test key i; returns the transaction hash. */
  placeBet(i: number, bet: BetOnChain, opts?: BetOptions): Promise<Hex>;
  /** Collects house fees in one transaction (one FeeCollected log per amount); returns the receipt. */
  collectFees(amounts: bigint[]): Promise<TransactionReceipt>;
}

export const OWNER = 0;

export async function deployBetting(chain: LocalChain): Promise<BettingFixture> {
  const { TestUSDC, SpBetting } = await compileContracts();
  const usdcAbi = TestUSDC!.abi;
  const bettingAbi = SpBetting!.abi;
  const mined = (hash: Hex) => chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const deploy = (data: Hex) => chain.send(OWNER, { data, gas: 3_000_000n }).then(mined);
  const usdc = (await deploy(encodeDeployData({ abi: usdcAbi, bytecode: TestUSDC!.bytecode })))
    .contractAddress!;
  const bettingData = encodeDeployData({ abi: bettingAbi, bytecode: SpBetting!.bytecode, args: [usdc] });
  const deployed = await deploy(bettingData);
  const betting = deployed.contractAddress!;
  const otherBetting = (await deploy(bettingData)).contractAddress!;
  const call = (abi: typeof usdcAbi, functionName: string, args: unknown[]) =>
    encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);

  const fund = async (i: number, amount: bigint, contract: Address = betting) => {
    await mined(await chain.send(i, { to: usdc, data: call(usdcAbi, "mint", [chain.address(i), amount]) }));
    await mined(await chain.send(i, { to: usdc, data: call(usdcAbi, "approve", [contract, amount]) }));
  };
  const placeBetData = (bet: BetOnChain) =>
    call(bettingAbi, "placeBet", [
      onchainEventId(bet.eventId, bet.market),
      bet.outcome,
      bet.amount,
      bet.oddsMilli,
    ]);

  return {
    usdc,
    betting,
    deployedAt: deployed.blockNumber,
    otherBetting,
    fund,
    placeBetData,
    placeBet: async (i, bet, opts = {}) => {
      const contract = opts.contract ?? betting;
      if (opts.fund !== false) await fund(i, bet.amount, contract);
      const hash = await chain.send(i, {
        to: contract,
        data: placeBetData(bet),
        nonce: opts.nonce,
        gasPrice: opts.gasPrice,
      });
      if (opts.wait !== false) await mined(hash);
      return hash;
    },
    collectFees: async (amounts) => {
      const total = amounts.reduce((a, b) => a + b, 0n);
      await mined(await chain.send(OWNER, { to: usdc, data: call(usdcAbi, "mint", [betting, total]) }));
      return mined(
        await chain.send(OWNER, { to: betting, data: call(bettingAbi, "collectFees", [amounts]) }),
      );
    },
  };
}
