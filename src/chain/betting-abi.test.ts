/** The ABI the service decodes with is the one the Solidity contract compiles to (no drift between them). */
import { expect, it } from "vitest";
import { compileContracts } from "../../test/chain/compile-contracts.js";
import { bettingAbi } from "./betting-abi.js";

type AbiEvent = {
  type: string;
  name?: string;
  inputs?: readonly { name: string; type: string; indexed?: boolean }[];
};

/** Each event as "Name(type [indexed] name, …)", sorted. */
const events = (abi: readonly AbiEvent[]) =>
  abi
    .filter((item) => item.type === "event")
    .map(
      (e) =>
        `${e.name}(${e.inputs!.map((i) => `${i.type}${i.indexed ? " indexed" : ""} ${i.name}`).join(", ")})`,
    )
    .sort();

it("declares BetPlaced and FeeCollected exactly as contracts/SpBetting.sol emits them", async () => {
  const { SpBetting } = await compileContracts();
  expect(events(SpBetting!.abi as readonly AbiEvent[])).toEqual(events(bettingAbi));
  expect(events(bettingAbi)).toEqual([
    "BetPlaced(address indexed bettor, bytes32 indexed eventId, uint8 outcome, uint256 amount, uint256 odds)",
    "FeeCollected(uint256 amount)",
  ]);
}, 60_000);
