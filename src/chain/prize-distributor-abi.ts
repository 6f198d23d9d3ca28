/**
 * The prize distributor's ABI (contracts/PrizeDistributor.sol), complete and equal to what solc compiles (a test
 * keeps them equal): the service decodes PrizeClaimed with it, the CLI encodes `setRoot`, and the web app imports
 * it to call `claim(week, account, amount, proof)`. Only viem is imported, so the browser bundle can take this
 * file as it is. docs/onchain.md describes the interface.
 */
import { parseAbi } from "viem";

export const prizeDistributorAbi = parseAbi([
  "constructor(address usdc_)",
  "function setRoot(uint256 week, bytes32 root)",
  "function claim(uint256 week, address account, uint256 amount, bytes32[] proof)",
  "function roots(uint256 week) view returns (bytes32)",
  "function claimed(uint256 week, address account) view returns (bool)",
  "function usdc() view returns (address)",
  "function owner() view returns (address)",
  "function transferOwnership(address newOwner)",
  "function renounceOwnership()",
  "event RootSet(uint256 indexed week, bytes32 root)",
  "event PrizeClaimed(uint256 indexed week, address indexed account, uint256 amount)",
  "event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)",
  "error RootAlreadySet(uint256 week)",
  "error ZeroRoot()",
  "error NoRoot(uint256 week)",
  "error AlreadyClaimed(uint256 week, address account)",
  "error InvalidProof()",
  "error OwnableInvalidOwner(address owner)",
  "error OwnableUnauthorizedAccount(address account)",
  "error SafeERC20FailedOperation(address token)",
]);
