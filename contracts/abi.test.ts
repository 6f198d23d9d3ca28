/**
 * contracts/abi.ts is exactly what solc compiles the contracts to (no hand-kept ABI drifts from the Solidity), and
 * the events the indexers read keep the signatures docs/onchain.md documents.
 */
import { expect, it } from "vitest";
import { generatedAbis } from "../scripts/gen-contract-abis.js";
import * as committed from "./abi.js";

it("contracts/abi.ts is what `npm run gen:abi` generates from the current sources", async () => {
  expect(JSON.parse(JSON.stringify(committed))).toEqual(await generatedAbis());
}, 120_000);

interface Param {
  name?: string;
  type: string;
  indexed?: boolean;
}

/** An event as "event Name(type[ indexed] name, …)". */
const eventSignature = (e: { name: string; inputs: readonly Param[] }) =>
  `event ${e.name}(${e.inputs.map((p) => [p.type, p.indexed ? "indexed" : "", p.name].filter(Boolean).join(" ")).join(", ")})`;

it("declares the events the service reads as docs/onchain.md documents them", () => {
  const events = committed.spBettingAbi
    .filter((i): i is Extract<typeof i, { type: "event" }> => i.type === "event")
    .map(eventSignature)
    .filter((s) => /^event (BetPlaced|FeeCollected|PayoutClaimed|MarketClosed)\(/.test(s))
    .sort();
  expect(events).toEqual([
    "event BetPlaced(address indexed bettor, bytes32 indexed marketId, uint8 outcome, uint256 amount, uint256 odds, uint256 expiry, bytes signature)",
    "event FeeCollected(uint256 amount)",
    "event MarketClosed(bytes32 indexed marketId)",
    "event PayoutClaimed(bytes32 indexed nonce, address indexed account, uint256 predictionId, uint256 amount)",
  ]);
});
