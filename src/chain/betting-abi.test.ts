/** The ABIs the service and the web app use are the ones the Solidity contracts compile to (no drift between them). */
import type { Abi } from "viem";
import { expect, it } from "vitest";
import { compileContracts } from "../../test/chain/compile-contracts.js";
import { bettingAbi } from "./betting-abi.js";
import { prizeDistributorAbi } from "./prize-distributor-abi.js";

interface Param {
  name?: string;
  type: string;
  indexed?: boolean;
  components?: readonly Param[];
}

/** A parameter as "type[ indexed] name", tuples spelled out with their components. */
const param = (p: Param): string => {
  const type = p.components ? `(${p.components.map(param).join(", ")})${p.type.slice(5)}` : p.type;
  return [type, p.indexed ? "indexed" : "", p.name ?? ""].filter(Boolean).join(" ");
};

/** Every item as one line (kind, name, inputs, outputs, mutability), sorted; solc's `internalType` is left out. */
const signatures = (abi: Abi) =>
  abi
    .map((item) => {
      const i = item as { type: string; name?: string; inputs?: Param[]; outputs?: Param[] };
      const m = (item as { stateMutability?: string }).stateMutability ?? "";
      const outputs = i.outputs?.length ? ` returns (${i.outputs.map(param).join(", ")})` : "";
      return `${i.type} ${i.name ?? ""}(${(i.inputs ?? []).map(param).join(", ")})${outputs} ${m}`.trim();
    })
    .sort();

it("is exactly the ABI contracts/SpBetting.sol compiles to", async () => {
  const { SpBetting } = await compileContracts();
  expect(signatures(bettingAbi)).toEqual(signatures(SpBetting!.abi));
}, 60_000);

it("is exactly the ABI contracts/PrizeDistributor.sol compiles to", async () => {
  const { PrizeDistributor } = await compileContracts();
  expect(signatures(prizeDistributorAbi)).toEqual(signatures(PrizeDistributor!.abi));
}, 60_000);

it("declares the events the service reads as docs/onchain.md documents them", () => {
  expect(signatures(bettingAbi).filter((s) => /^event (BetPlaced|FeeCollected)\(/.test(s))).toEqual([
    "event BetPlaced(address indexed bettor, bytes32 indexed marketId, uint8 outcome, uint256 amount, uint256 odds, uint256 expiry, bytes signature)",
    "event FeeCollected(uint256 amount)",
  ]);
});
