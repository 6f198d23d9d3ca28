/**
 * The betting contract deployed on a local chain, with helpers that act as players (mint + approve + placeBet with
 * a quote, claimPayout with a voucher) and as the house (collectFees, setOddsSigner, closeMarkets, funding). Test
 * key 0 deploys and owns the contracts; the USDC is TestUSDC (6 decimals); the odds signer is `ODDS_SIGNER_KEY`
 * and the payout signer `PAYOUT_SIGNER_KEY`, which the tests give the service as ODDS_SIGNER_PRIVATE_KEY and
 * PAYOUT_SIGNER_PRIVATE_KEY.
 */
import { type Address, encodeFunctionData, type Hex, type TransactionReceipt } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { type QuoteMessage, signQuote } from "../../contracts/quote-typed-data.js";
import {
  type Deploy,
  deployBetting as deployBettingContract,
  deployMockFeeProtocol as deployMockFee,
  deployTestUsdc,
} from "../../src/demo/deploy-contracts.js";
import { LOCAL_CHAIN_ID, type LocalChain } from "./local-chain.js";

/** The odds signer's key in the chain tests: not a ganache account (it never sends transactions). */
export const ODDS_SIGNER_KEY: Hex = `0x${"0d".repeat(32)}`;
export const ODDS_SIGNER = privateKeyToAddress(ODDS_SIGNER_KEY);
/** The payout signer's key in the chain tests: a key of its own, not a ganache account either. */
export const PAYOUT_SIGNER_KEY: Hex = `0x${"0e".repeat(32)}`;
export const PAYOUT_SIGNER = privateKeyToAddress(PAYOUT_SIGNER_KEY);

/** A payout voucher as POST /api/pred2earn/claim-payout serves it. */
export interface VoucherJson {
  predictionId: string;
  account: string;
  amountMicro: string;
  nonce: string;
  deadline: string;
  signature: string;
}

/** A quote as GET /api/pred2earn/quote serves it (`quote` with decimal strings) or as signed here (bigints). */
export interface QuoteJson {
  bettor: string;
  marketId: string;
  outcome: number;
  odds: string | bigint;
  expiry: string | bigint;
}

export interface SignedQuote {
  quote: QuoteJson;
  signature: Hex;
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
  /** The block that deployed `betting`: where its indexing starts. */
  deployedAt: bigint;
  /** A second, unrelated deployment of the same contract, with the same odds signer. */
  otherBetting: Address;
  /** Mints `amount` TestUSDC to test key i and lets `contract` (default: the betting contract) spend it. */
  fund(i: number, amount: bigint, contract?: Address): Promise<void>;
  /** The calldata of placeBet. */
  placeBetData(bet: SignedQuote, amount: bigint): Hex;
  /** Places a bet from test key i with a signed quote; returns the transaction hash. */
  placeBet(i: number, bet: SignedQuote, amount: bigint, opts?: BetOptions): Promise<Hex>;
  /** Signs a quote with `key` (default: the odds signer) for `contract` (default: the betting contract). */
  sign(message: QuoteMessage, opts?: { key?: Hex; contract?: Address }): Promise<SignedQuote>;
  /** Collects house fees in one transaction (one FeeCollected log per amount); returns the receipt. */
  collectFees(amounts: bigint[]): Promise<TransactionReceipt>;
  /** The owner replaces the contract's odds signer. */
  setOddsSigner(signer: Address): Promise<TransactionReceipt>;
  /** The calldata of claimPayout. */
  claimPayoutData(voucher: VoucherJson): Hex;
  /** Submits a payout voucher from test key i (anyone may: the USDC goes to the voucher's account). */
  claimPayout(i: number, voucher: VoucherJson): Promise<TransactionReceipt>;
  /** The owner closes markets on-chain. */
  closeMarkets(marketIds: Hex[]): Promise<TransactionReceipt>;
  /** Mints `amount` TestUSDC to the betting contract (house money for payouts). */
  fundContract(amount: bigint): Promise<void>;
  /** The TestUSDC balance of an address. */
  balanceOf(address: Address): Promise<bigint>;
}

export const OWNER = 0;

/** The deployer of the chain tests: test key OWNER sends the creation, and the receipt gives the address. */
export function ownerDeploy(chain: LocalChain): Deploy {
  return async (data) => {
    const hash = await chain.send(OWNER, { data, gas: 5_000_000n });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    return { address: receipt.contractAddress!, blockNumber: receipt.blockNumber };
  };
}

export async function deployBetting(chain: LocalChain): Promise<BettingFixture> {
  const mined = (hash: Hex) => chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const deploy = ownerDeploy(chain);
  const testUsdc = await deployTestUsdc(deploy);
  const usdc = testUsdc.address;
  const usdcAbi = testUsdc.abi;
  const signers = { oddsSigner: ODDS_SIGNER, payoutSigner: PAYOUT_SIGNER };
  const deployed = await deployBettingContract(deploy, usdc, signers);
  const bettingAbi = deployed.abi;
  const betting = deployed.address;
  const otherBetting = (await deployBettingContract(deploy, usdc, signers)).address;
  const call = (abi: typeof usdcAbi, functionName: string, args: unknown[]) =>
    encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);

  const fund = async (i: number, amount: bigint, contract: Address = betting) => {
    await mined(await chain.send(i, { to: usdc, data: call(usdcAbi, "mint", [chain.address(i), amount]) }));
    await mined(await chain.send(i, { to: usdc, data: call(usdcAbi, "approve", [contract, amount]) }));
  };
  const claimPayoutData = (v: VoucherJson) =>
    call(bettingAbi, "claimPayout", [
      {
        predictionId: BigInt(v.predictionId),
        account: v.account,
        amount: BigInt(v.amountMicro),
        nonce: v.nonce,
        deadline: BigInt(v.deadline),
      },
      v.signature,
    ]);
  const placeBetData = (bet: SignedQuote, amount: bigint) =>
    call(bettingAbi, "placeBet", [
      {
        bettor: bet.quote.bettor,
        marketId: bet.quote.marketId,
        outcome: bet.quote.outcome,
        odds: BigInt(bet.quote.odds),
        expiry: BigInt(bet.quote.expiry),
      },
      bet.signature,
      amount,
    ]);

  return {
    usdc,
    betting,
    deployedAt: deployed.blockNumber,
    otherBetting,
    fund,
    placeBetData,
    placeBet: async (i, bet, amount, opts = {}) => {
      const contract = opts.contract ?? betting;
      if (opts.fund !== false) await fund(i, amount, contract);
      const hash = await chain.send(i, {
        to: contract,
        data: placeBetData(bet, amount),
        nonce: opts.nonce,
        gasPrice: opts.gasPrice,
      });
      if (opts.wait !== false) await mined(hash);
      return hash;
    },
    sign: async (message, opts = {}) => ({
      quote: message,
      signature: await signQuote(
        opts.key ?? ODDS_SIGNER_KEY,
        LOCAL_CHAIN_ID,
        opts.contract ?? betting,
        message,
      ),
    }),
    collectFees: async (amounts) => {
      const total = amounts.reduce((a, b) => a + b, 0n);
      await mined(await chain.send(OWNER, { to: usdc, data: call(usdcAbi, "mint", [betting, total]) }));
      return mined(
        await chain.send(OWNER, { to: betting, data: call(bettingAbi, "collectFees", [amounts]) }),
      );
    },
    setOddsSigner: async (signer) =>
      mined(await chain.send(OWNER, { to: betting, data: call(bettingAbi, "setOddsSigner", [signer]) })),
    claimPayoutData: (v) => claimPayoutData(v),
    claimPayout: async (i, v) => mined(await chain.send(i, { to: betting, data: claimPayoutData(v) })),
    closeMarkets: async (marketIds) =>
      mined(await chain.send(OWNER, { to: betting, data: call(bettingAbi, "closeMarkets", [marketIds]) })),
    fundContract: async (amount) => {
      await mined(await chain.send(OWNER, { to: usdc, data: call(usdcAbi, "mint", [betting, amount]) }));
    },
    balanceOf: async (address) =>
      (await chain.client.readContract({
        address: usdc,
        abi: usdcAbi,
        functionName: "balanceOf",
        args: [address],
      })) as bigint,
  };
}

/** A MockFeeProtocol (another protocol's fee event, 18 decimals) deployed by the owner. */
export async function deployMockFeeProtocol(chain: LocalChain) {
  const mined = (hash: Hex) => chain.client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  const deployed = await deployMockFee(ownerDeploy(chain));
  const { address, abi } = deployed;
  return {
    address,
    deployedAt: deployed.blockNumber,
    /** Pays one fee of `amount` (18 decimals) from test key i; returns the receipt. */
    payFee: async (i: number, marketRef: Hex, amount: bigint) =>
      mined(
        await chain.send(i, {
          to: address,
          data: encodeFunctionData({ abi, functionName: "payFee", args: [marketRef, amount] } as never),
        }),
      ),
  };
}
