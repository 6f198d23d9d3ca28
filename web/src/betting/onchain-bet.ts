/**
 * A version-2 (USDC) bet from the browser wallet, at odds the service signed (issue 10's signed quotes):
 * 1. `POST /api/pred2earn/quote` → the quote `{bettor, marketId, outcome, odds, expiry}` and its signature;
 * 2. the wallet (on the betting chain, with the signed-in account) approves the betting contract for the stake
 *    on the USDC token, unless the allowance already covers it, and the page waits for that receipt;
 * 3. the wallet sends `placeBet(quote, signature, amount)` to the betting contract;
 * 4. the page reports the transaction (`POST /api/pred2earn/bet-placed-v2`) and follows the prediction from
 *    `pending` to `open` (confirmed) or `rejected` by polling `/api/user/predictions`.
 * Every wait has a time limit. Amounts are integer micro-USDC (bigint) throughout.
 */
import { decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { spBettingAbi } from "../../../contracts/abi";
import { api, type BetPlaced, type ChainInfo, type SignedQuote } from "../api";
import { microToUsdc } from "../format";
import { ask, chainName, WalletError, walletAccount, walletChainId } from "../session/wallet-sign-in";
import type { Eip1193Provider } from "../session/wallets";

const RECEIPT_TIMEOUT_MS = 5 * 60_000;
const CONFIRMATION_TIMEOUT_MS = 15 * 60_000;
const POLL_MS = 2000;

export type OnchainStep =
  | { step: "quoting" }
  | { step: "approving" }
  | { step: "placing" }
  | { step: "reporting"; txHash: Hex }
  | { step: "pending"; txHash: Hex; predictionId: string }
  | { step: "confirmed"; txHash: Hex; predictionId: string }
  | { step: "rejected"; txHash: Hex; predictionId: string; reason: string | null };

type Prediction = BetPlaced["prediction"];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a transaction from the wallet; returns its hash. */
export async function send(provider: Eip1193Provider, from: string, to: string, data: Hex): Promise<Hex> {
  const hash = await ask<string>(provider, "eth_sendTransaction", [{ from, to, data }]);
  if (!/^0x[0-9a-fA-F]{64}$/.test(String(hash)))
    throw new WalletError("Your wallet returned no transaction hash.");
  return hash as Hex;
}

/** Waits for a transaction's receipt through the wallet's node; throws when it reverted or took too long. */
export async function mined(provider: Eip1193Provider, hash: Hex, what: string): Promise<void> {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const receipt = await ask<{ status?: string } | null>(provider, "eth_getTransactionReceipt", [hash]);
    if (receipt) {
      if (receipt.status === "0x1") return;
      throw new WalletError(`The ${what} transaction failed on-chain (${hash}).`);
    }
    await sleep(1000);
  }
  throw new WalletError(`The ${what} transaction was not mined within 5 minutes (${hash}).`);
}

async function allowance(provider: Eip1193Provider, usdc: string, owner: string, spender: string) {
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: "allowance",
    args: [owner as Hex, spender as Hex],
  });
  const result = await ask<Hex>(provider, "eth_call", [{ to: usdc, data }, "latest"]);
  return decodeFunctionResult({ abi: erc20Abi, functionName: "allowance", data: result });
}

/** The quote as the contract's tuple; the service's numbers may arrive as JSON numbers or decimal strings. */
function quoteTuple(q: SignedQuote["quote"]) {
  return {
    bettor: q.bettor as Hex,
    marketId: q.marketId as Hex,
    outcome: Number(q.outcome),
    odds: BigInt(q.odds),
    expiry: BigInt(q.expiry),
  };
}

/** Asks the service for a signed quote on an outcome. */
export const requestQuote = (pick: { eventId: string; market: string; outcome: string }) => api.quote(pick);

/**
 * Places a quoted bet of `stakeMicro` micro-USDC from `provider`, which must hold the signed-in `wallet` on the
 * betting chain; reports each step to `onStep`. Resolves with the last step (confirmed, rejected, or still pending
 * when the service has not confirmed it within the time limit).
 */
export async function placeOnchainBet(input: {
  provider: Eip1193Provider;
  wallet: string;
  chain: ChainInfo;
  quote: SignedQuote;
  stakeMicro: bigint;
  idempotencyKey: string;
  onStep: (step: OnchainStep) => void;
}): Promise<OnchainStep> {
  const { provider, wallet, chain, quote, stakeMicro, onStep } = input;
  const account = await walletAccount(provider);
  if (account.toLowerCase() !== wallet.toLowerCase()) {
    throw new WalletError(`Switch your wallet to the account you signed in with (${wallet}).`);
  }
  const chainId = await walletChainId(provider);
  if (chainId !== chain.chainId) {
    try {
      await ask(provider, "wallet_switchEthereumChain", [{ chainId: `0x${chain.chainId!.toString(16)}` }]);
    } catch {
      throw new WalletError(`Switch your wallet to ${chainName(chain.chainId!)} to bet in USDC.`);
    }
  }
  // The quote names the contract and bettor; the page only sends USDC to the contract the service announced.
  const contract = chain.bettingContract!;
  if (
    quote.contract.toLowerCase() !== contract.toLowerCase() ||
    quote.quote.bettor.toLowerCase() !== wallet.toLowerCase()
  ) {
    throw new WalletError(
      "The quote does not match this service's betting contract or your wallet: not sent.",
    );
  }

  if ((await allowance(provider, chain.usdc!, account, contract)) < stakeMicro) {
    onStep({ step: "approving" });
    const approve = encodeFunctionData({
      abi: erc20Abi,
      functionName: "approve",
      args: [contract as Hex, stakeMicro],
    });
    await mined(provider, await send(provider, account, chain.usdc!, approve), "approval");
  }

  onStep({ step: "placing" });
  const data = encodeFunctionData({
    abi: spBettingAbi,
    functionName: "placeBet",
    args: [quoteTuple(quote.quote), quote.signature as Hex, stakeMicro],
  });
  const txHash = await send(provider, account, contract, data);

  onStep({ step: "reporting", txHash });
  const { prediction } = await api.reportOnchainBet(
    {
      eventId: quote.eventId,
      market: quote.market,
      outcome: quote.outcome,
      stakeUsdc: microToUsdc(stakeMicro),
      odds: quote.odds,
      txHash,
      chainId: chain.chainId!,
    },
    input.idempotencyKey,
  );
  return followPrediction(prediction, txHash, onStep);
}

function stepOf(p: Prediction, txHash: Hex): OnchainStep {
  if (p.status === "pending") return { step: "pending", txHash, predictionId: p.id };
  if (p.status === "rejected") {
    return { step: "rejected", txHash, predictionId: p.id, reason: p.rejectReason ?? null };
  }
  return { step: "confirmed", txHash, predictionId: p.id };
}

/** Polls the player's predictions until this one leaves `pending` (or the time limit passes). */
async function followPrediction(
  first: Prediction,
  txHash: Hex,
  onStep: (step: OnchainStep) => void,
): Promise<OnchainStep> {
  let step = stepOf(first, txHash);
  onStep(step);
  const deadline = Date.now() + CONFIRMATION_TIMEOUT_MS;
  while (step.step === "pending" && Date.now() < deadline) {
    await sleep(POLL_MS);
    const page = await api.predictions({ limit: 50 });
    const now = page.items.find((p) => p.id === first.id);
    if (now) {
      step = stepOf(now, txHash);
      onStep(step);
    }
  }
  return step;
}
