/**
 * The betting contract's ABI (contracts/SpBetting.sol), complete and equal to what solc compiles (a test keeps
 * them equal): the service decodes BetPlaced and FeeCollected with it, and the web app imports it to call
 * `approve` on USDC and then `placeBet(quote, signature, amount)`. Only viem is imported, so the browser bundle can
 * take this file as it is. docs/onchain.md describes the interface.
 */
import { parseAbi } from "viem";

export const bettingAbi = parseAbi([
  "constructor(address usdc_, address oddsSigner_)",
  "struct Quote { address bettor; bytes32 marketId; uint8 outcome; uint256 odds; uint256 expiry; }",
  "function placeBet(Quote quote, bytes signature, uint256 amount)",
  "function quoteDigest(Quote quote) view returns (bytes32)",
  "function quoteUsed(bytes32 digest) view returns (bool)",
  "function oddsSigner() view returns (address)",
  "function setOddsSigner(address newSigner)",
  "function usdc() view returns (address)",
  "function collectFees(uint256[] amounts)",
  "function QUOTE_TYPEHASH() view returns (bytes32)",
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  "function owner() view returns (address)",
  "function transferOwnership(address newOwner)",
  "function renounceOwnership()",
  "event BetPlaced(address indexed bettor, bytes32 indexed marketId, uint8 outcome, uint256 amount, uint256 odds, uint256 expiry, bytes signature)",
  "event FeeCollected(uint256 amount)",
  "event OddsSignerChanged(address indexed previousSigner, address indexed newSigner)",
  "event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)",
  "event EIP712DomainChanged()",
  "error ZeroAmount()",
  "error ZeroOddsSigner()",
  "error OddsTooLow(uint256 odds)",
  "error NotQuoteBettor(address bettor, address sender)",
  "error QuoteExpired(uint256 expiry, uint256 timestamp)",
  "error BadQuoteSigner(address signer)",
  "error QuoteAlreadyUsed(bytes32 digest)",
  "error ECDSAInvalidSignature()",
  "error ECDSAInvalidSignatureLength(uint256 length)",
  "error ECDSAInvalidSignatureS(bytes32 s)",
  "error OwnableInvalidOwner(address owner)",
  "error OwnableUnauthorizedAccount(address account)",
  "error SafeERC20FailedOperation(address token)",
  "error InvalidShortString()",
  "error StringTooLong(string str)",
]);

/** The two ERC-20 calls a client makes before betting: `approve` the contract, and read the allowance/balance. */
export const erc20Abi = parseAbi([
  "function approve(address spender, uint256 amount) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address account) view returns (uint256)",
  "function decimals() view returns (uint8)",
]);
