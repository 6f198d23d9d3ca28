/**
 * Every deployment of the project's contracts (contracts/*.sol), for the chain tests and `npm run demo`: the one
 * place that knows their constructors, so a constructor change is an edit here alone.
 *
 * Contract:
 * - `deploy` sends a contract-creation transaction and resolves with the new address and its block, once mined;
 *   the caller decides how (a test's local chain helper, the demo's funded dev key).
 * - TestUSDC (6 decimals, anyone may mint: test chains only); SpBetting(usdc, oddsSigner, payoutSigner);
 *   PrizeDistributor(usdc);
 *   MockFeeProtocol() (another protocol's fee event). The betting contract is also the fee source the fee indexer
 *   reads by default (`FeeCollected`, `collectFees`).
 */
import { type Abi, type Address, encodeDeployData, getAddress, type Hex } from "viem";
import { compileContracts } from "../../contracts/compile.js";

/** Sends a contract creation; resolves once mined. */
export type Deploy = (data: Hex) => Promise<{ address: Address; blockNumber: bigint }>;

export interface Deployed {
  address: Address;
  blockNumber: bigint;
  abi: Abi;
}

async function deployContract(
  deploy: Deploy,
  name: string,
  args: readonly unknown[] = [],
): Promise<Deployed> {
  const contract = (await compileContracts())[name];
  if (!contract) throw new Error(`contract ${name} is not in contracts/`);
  const data = encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args } as Parameters<
    typeof encodeDeployData
  >[0]);
  const { address, blockNumber } = await deploy(data);
  return { address: getAddress(address), blockNumber, abi: contract.abi };
}

export const deployTestUsdc = (deploy: Deploy) => deployContract(deploy, "TestUSDC");

/** The signers the betting contract trusts. */
export interface BettingSigners {
  /** Signs version-2 quotes (ODDS_SIGNER_PRIVATE_KEY's address). */
  oddsSigner: Address;
  /** Signs payout vouchers (PAYOUT_SIGNER_PRIVATE_KEY's address). */
  payoutSigner: Address;
}

export const deployBetting = (deploy: Deploy, usdc: Address, signers: BettingSigners) =>
  deployContract(deploy, "SpBetting", [usdc, signers.oddsSigner, signers.payoutSigner]);

export const deployPrizeDistributor = (deploy: Deploy, usdc: Address) =>
  deployContract(deploy, "PrizeDistributor", [usdc]);

export const deployMockFeeProtocol = (deploy: Deploy) => deployContract(deploy, "MockFeeProtocol");

export interface DemoContracts {
  usdc: Deployed;
  betting: Deployed;
  prizeDistributor: Deployed;
}

/** What the demo chain needs, in order: the USDC, the betting contract (also the fee source), the distributor. */
export async function deployDemoContracts(deploy: Deploy, signers: BettingSigners): Promise<DemoContracts> {
  const usdc = await deployTestUsdc(deploy);
  const betting = await deployBetting(deploy, usdc.address, signers);
  const prizeDistributor = await deployPrizeDistributor(deploy, usdc.address);
  return { usdc, betting, prizeDistributor };
}
