/**
 * The betting contract's USDC balance, read from the chain for the payout solvency check (SPEC §10).
 *
 * Contract: `balanceOf(contract)` on the stake token (USDC_ADDRESS, else the contract's own `usdc()`), never
 * waited on for more than 3 s; throws when the node cannot answer (the claim is then answered 503).
 */
import { type Address, erc20Abi, type PublicClient } from "viem";
import { withTimeout } from "../shared/bounded-wait.js";
import { contractUsdcReader } from "./chain-info.js";

const TIMEOUT_MS = 3000;

export function contractBalanceReader(
  client: PublicClient,
  contract: Address,
  usdc: Address | null,
): () => Promise<bigint> {
  const readUsdc = contractUsdcReader(client, contract);
  return async () => {
    const token = usdc ?? ((await readUsdc()) as Address | null);
    if (!token) throw new Error("the betting contract's USDC address cannot be read");
    const read = client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [contract],
    });
    return withTimeout(read, TIMEOUT_MS, "balanceOf timed out");
  };
}
