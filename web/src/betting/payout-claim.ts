/**
 * Claiming a USDC bet's winnings (or its stake back) from the browser wallet (SPEC §10): the service answers the
 * claim with a payout voucher signed by its payout signer; the wallet, on the voucher's chain, sends
 * `claimPayout(payout, signature)` to the betting contract, which pays the USDC to the voucher's account (the
 * bettor) from its balance, once per nonce. The page waits for the receipt; the service marks the bet claimed once
 * its payout indexer reads the PayoutClaimed log from a final block.
 */
import { encodeFunctionData, type Hex } from "viem";
import { spBettingAbi } from "../../../contracts/abi";
import type { Claim } from "../api";
import { ask, chainName, WalletError, walletAccount, walletChainId } from "../session/wallet-sign-in";
import type { Eip1193Provider } from "../session/wallets";
import { mined, send } from "./onchain-bet";

/** A claim answer that is a payout voucher (version 2 with on-chain payouts), not a payout already made. */
export type PayoutVoucher = Extract<Claim, { signature: string }>;

export function isVoucher(claim: Claim): claim is PayoutVoucher {
  return "signature" in claim;
}

/** Sends the voucher to the betting contract; resolves with the transaction hash once it is mined. */
export async function claimPayoutOnChain(input: {
  provider: Eip1193Provider;
  voucher: PayoutVoucher;
  onSent: (txHash: Hex) => void;
}): Promise<Hex> {
  const { provider, voucher } = input;
  const account = await walletAccount(provider);
  if ((await walletChainId(provider)) !== voucher.chainId) {
    try {
      await ask(provider, "wallet_switchEthereumChain", [{ chainId: `0x${voucher.chainId.toString(16)}` }]);
    } catch {
      throw new WalletError(`Switch your wallet to ${chainName(voucher.chainId)} to collect the payout.`);
    }
  }
  const data = encodeFunctionData({
    abi: spBettingAbi,
    functionName: "claimPayout",
    args: [
      {
        predictionId: BigInt(voucher.predictionId),
        account: voucher.account as Hex,
        amount: BigInt(voucher.amountMicro),
        nonce: voucher.nonce as Hex,
        deadline: BigInt(voucher.deadline),
      },
      voucher.signature as Hex,
    ],
  });
  const txHash = await send(provider, account, voucher.contract, data);
  input.onSent(txHash);
  await mined(provider, txHash, "payout");
  return txHash;
}
