/**
 * The betting contract's interface as the service reads it: the two events, nothing else. The contract is ours
 * (contracts/SpBetting.sol); docs/onchain.md documents the events and how the service's ids map onto them.
 */
import { parseAbi } from "viem";

export const bettingAbi = parseAbi([
  "event BetPlaced(address indexed bettor, bytes32 indexed eventId, uint8 outcome, uint256 amount, uint256 odds)",
  "event FeeCollected(uint256 amount)",
]);
