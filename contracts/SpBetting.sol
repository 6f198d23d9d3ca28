// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title SpBetting: version-2 (USDC) bets at odds the service quoted, and protocol fees, as the service reads them.
/// @notice A bet is placed with a quote the service signed (EIP-712, domain "SpBetting" version "1", this chain and
///         this contract): the bettor, the market, the outcome, the odds and the quote's expiry. The contract takes
///         the bet only when the quote is signed by `oddsSigner`, was issued to the sender, has not expired and has
///         not been used; the odds it emits are the quote's. All amounts are USDC base units (6 decimals,
///         1 USDC = 1_000_000); odds are decimal odds in thousandths (2.15 -> 2150). See docs/onchain.md.
contract SpBetting is EIP712, Ownable {
    using SafeERC20 for IERC20;

    /// @notice A price the service offers one bettor. `marketId` = keccak256(utf8("<eventId>/<market>")) of the
    ///         service's event and market keys; `outcome` = zero-based index of the outcome in that market;
    ///         `odds` in thousandths; `expiry` = last unix second (block timestamp) at which the quote can be used.
    struct Quote {
        address bettor;
        bytes32 marketId;
        uint8 outcome;
        uint256 odds;
        uint256 expiry;
    }

    bytes32 public constant QUOTE_TYPEHASH =
        keccak256("Quote(address bettor,bytes32 marketId,uint8 outcome,uint256 odds,uint256 expiry)");

    /// @notice One bet, at the quote's odds; `signature` is the quote's, so anyone can re-check it.
    event BetPlaced(
        address indexed bettor,
        bytes32 indexed marketId,
        uint8 outcome,
        uint256 amount,
        uint256 odds,
        uint256 expiry,
        bytes signature
    );

    /// @notice A protocol (house) fee taken by the platform, in USDC base units; funds the next week's prize pool.
    event FeeCollected(uint256 amount);

    event OddsSignerChanged(address indexed previousSigner, address indexed newSigner);

    error ZeroAmount();
    error ZeroOddsSigner();
    error OddsTooLow(uint256 odds);
    error NotQuoteBettor(address bettor, address sender);
    error QuoteExpired(uint256 expiry, uint256 timestamp);
    error BadQuoteSigner(address signer);
    error QuoteAlreadyUsed(bytes32 digest);

    IERC20 public immutable usdc;
    /// @notice The service's quote-signing address (its public key is published at GET /api/chain/info).
    address public oddsSigner;
    /// @notice EIP-712 digests of the quotes already used: each quote places one bet.
    mapping(bytes32 digest => bool) public quoteUsed;

    constructor(IERC20 usdc_, address oddsSigner_) EIP712("SpBetting", "1") Ownable(msg.sender) {
        usdc = usdc_;
        _setOddsSigner(oddsSigner_);
    }

    /// @notice Replaces the quote signer (key rotation); quotes of the previous signer stop working at once.
    function setOddsSigner(address newSigner) external onlyOwner {
        _setOddsSigner(newSigner);
    }

    /// @notice The EIP-712 digest the odds signer signs for `quote`.
    function quoteDigest(Quote calldata quote) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(abi.encode(QUOTE_TYPEHASH, quote.bettor, quote.marketId, quote.outcome, quote.odds, quote.expiry))
        );
    }

    /// @notice Stakes `amount` USDC (pulled from the sender, who must have approved it) at the quote's odds.
    function placeBet(Quote calldata quote, bytes calldata signature, uint256 amount) external {
        if (amount == 0) revert ZeroAmount();
        if (quote.odds <= 1000) revert OddsTooLow(quote.odds);
        if (msg.sender != quote.bettor) revert NotQuoteBettor(quote.bettor, msg.sender);
        if (block.timestamp > quote.expiry) revert QuoteExpired(quote.expiry, block.timestamp);
        bytes32 digest = quoteDigest(quote);
        address signer = ECDSA.recover(digest, signature);
        if (signer != oddsSigner) revert BadQuoteSigner(signer);
        if (quoteUsed[digest]) revert QuoteAlreadyUsed(digest);
        quoteUsed[digest] = true;
        usdc.safeTransferFrom(msg.sender, address(this), amount);
        emit BetPlaced(msg.sender, quote.marketId, quote.outcome, amount, quote.odds, quote.expiry, signature);
    }

    /// @notice Moves house fees to the owner; one FeeCollected per amount (several logs in one transaction).
    function collectFees(uint256[] calldata amounts) external onlyOwner {
        for (uint256 i = 0; i < amounts.length; i++) {
            usdc.safeTransfer(owner(), amounts[i]);
            emit FeeCollected(amounts[i]);
        }
    }

    function _setOddsSigner(address newSigner) private {
        if (newSigner == address(0)) revert ZeroOddsSigner();
        emit OddsSignerChanged(oddsSigner, newSigner);
        oddsSigner = newSigner;
    }
}
