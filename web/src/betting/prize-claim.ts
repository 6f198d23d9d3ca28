/**
 * Claiming a Champions prize of a finalized week from the browser wallet (contracts/PrizeDistributor.sol): the
 * wallet, on the distributor's chain with the account of the prize's leaf, sends `claim(week, account, amount,
 * proof)` with the proof `/api/competition/me` gave, and the page waits for the receipt. The contract pays the
 * USDC to the leaf's account; the service marks the prize claimed once its indexer reads the PrizeClaimed log.
 */
import { encodeFunctionData, type Hex } from "viem";
import { prizeDistributorAbi } from "../../../contracts/abi";
import type { PrizeClaim } from "../api";
import { ask, chainName, WalletError, walletAccount, walletChainId } from "../session/wallet-sign-in";
import type { Eip1193Provider } from "../session/wallets";
import { mined, send } from "./onchain-bet";

/** Sends the claim of `claim` to the distributor; resolves with the transaction hash once it is mined. */
export async function claimPrize(input: {
  provider: Eip1193Provider;
  distributor: { chainId: number; address: string };
  claim: PrizeClaim;
  onSent: (txHash: Hex) => void;
}): Promise<Hex> {
  const { provider, distributor, claim } = input;
  if (!claim.account || claim.root === null) throw new WalletError("This prize has no leaf to claim yet.");
  const account = await walletAccount(provider);
  if (account.toLowerCase() !== claim.account.toLowerCase()) {
    throw new WalletError(`Switch your wallet to the account that won the prize (${claim.account}).`);
  }
  if ((await walletChainId(provider)) !== distributor.chainId) {
    try {
      await ask(provider, "wallet_switchEthereumChain", [
        { chainId: `0x${distributor.chainId.toString(16)}` },
      ]);
    } catch {
      throw new WalletError(`Switch your wallet to ${chainName(distributor.chainId)} to claim the prize.`);
    }
  }
  const data = encodeFunctionData({
    abi: prizeDistributorAbi,
    functionName: "claim",
    args: [BigInt(claim.week), claim.account as Hex, BigInt(claim.amountMicro), claim.proof as Hex[]],
  });
  const txHash = await send(provider, account, distributor.address, data);
  input.onSent(txHash);
  await mined(provider, txHash, "claim");
  return txHash;
}
