// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ISpBetting} from "./interfaces/ISpBetting.sol";

/// @title SpBetting: version-2 (USDC) bets at odds the service quoted, paid out by the service's vouchers.
/// @notice A bet is placed with a quote the service signed (EIP-712) for the bettor, the market, the outcome, the
///         odds and the quote's expiry; the contract takes it only when the quote is signed by `oddsSigner`, was
///         issued to the sender, has not expired, has not been used and its market is open. Winnings and refunds
///         are paid from this contract's balance against a voucher signed by `payoutSigner`, once per nonce.
///         Ownership moves in two steps (OpenZeppelin Ownable2Step): the contract holds USDC. See docs/onchain.md.
contract SpBetting is ISpBetting, EIP712, Ownable2Step {
    using SafeERC20 for IERC20;

    bytes32 public constant QUOTE_TYPEHASH =
        keccak256("Quote(address bettor,bytes32 marketId,uint8 outcome,uint256 odds,uint256 expiry)");
    bytes32 public constant PAYOUT_TYPEHASH =
        keccak256("Payout(uint256 predictionId,address account,uint256 amount,bytes32 nonce,uint256 deadline)");

    /// @inheritdoc ISpBetting
    address public immutable usdc;
    /// @inheritdoc ISpBetting
    address public oddsSigner;
    /// @inheritdoc ISpBetting
    address public payoutSigner;
    /// @inheritdoc ISpBetting
    mapping(bytes32 digest => bool) public quoteUsed;
    /// @inheritdoc ISpBetting
    mapping(bytes32 nonce => bool) public payoutClaimed;
    /// @inheritdoc ISpBetting
    mapping(bytes32 marketId => bool) public marketClosed;

    /// @param usdc_ The token of stakes, payouts and fees.
    /// @param oddsSigner_ The service's quote-signing address.
    /// @param payoutSigner_ The service's payout-signing address (a key of its own, not the odds signer's).
    constructor(IERC20 usdc_, address oddsSigner_, address payoutSigner_)
        EIP712("SpBetting", "1")
        Ownable(msg.sender)
    {
        usdc = address(usdc_);
        _setOddsSigner(oddsSigner_);
        _setPayoutSigner(payoutSigner_);
    }

    /// @inheritdoc ISpBetting
    function setOddsSigner(address newSigner) external onlyOwner {
        _setOddsSigner(newSigner);
    }

    /// @inheritdoc ISpBetting
    function setPayoutSigner(address newSigner) external onlyOwner {
        _setPayoutSigner(newSigner);
    }

    /// @inheritdoc ISpBetting
    function quoteDigest(Quote calldata quote) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(abi.encode(QUOTE_TYPEHASH, quote.bettor, quote.marketId, quote.outcome, quote.odds, quote.expiry))
        );
    }

    /// @inheritdoc ISpBetting
    function payoutDigest(Payout calldata payout) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    PAYOUT_TYPEHASH, payout.predictionId, payout.account, payout.amount, payout.nonce, payout.deadline
                )
            )
        );
    }

    /// @inheritdoc ISpBetting
    function placeBet(Quote calldata quote, bytes calldata signature, uint256 amount) external {
        if (amount == 0) revert ZeroAmount();
        if (quote.odds <= 1000) revert OddsTooLow(quote.odds);
        if (msg.sender != quote.bettor) revert NotQuoteBettor(quote.bettor, msg.sender);
        if (block.timestamp > quote.expiry) revert QuoteExpired(quote.expiry, block.timestamp);
        if (marketClosed[quote.marketId]) revert MarketIsClosed(quote.marketId);
        bytes32 digest = quoteDigest(quote);
        address signer = ECDSA.recover(digest, signature);
        if (signer != oddsSigner) revert BadQuoteSigner(signer);
        if (quoteUsed[digest]) revert QuoteAlreadyUsed(digest);
        quoteUsed[digest] = true;
        IERC20(usdc).safeTransferFrom(msg.sender, address(this), amount);
        emit BetPlaced(msg.sender, quote.marketId, quote.outcome, amount, quote.odds, quote.expiry, signature);
    }

    /// @inheritdoc ISpBetting
    function claimPayout(Payout calldata payout, bytes calldata signature) external {
        if (payout.amount == 0) revert ZeroAmount();
        if (block.timestamp > payout.deadline) revert PayoutExpired(payout.deadline, block.timestamp);
        address signer = ECDSA.recover(payoutDigest(payout), signature);
        if (signer != payoutSigner) revert BadPayoutSigner(signer);
        if (payoutClaimed[payout.nonce]) revert PayoutAlreadyClaimed(payout.nonce);
        payoutClaimed[payout.nonce] = true;
        IERC20(usdc).safeTransfer(payout.account, payout.amount);
        emit PayoutClaimed(payout.nonce, payout.account, payout.predictionId, payout.amount);
    }

    /// @inheritdoc ISpBetting
    function closeMarkets(bytes32[] calldata marketIds) external onlyOwner {
        for (uint256 i = 0; i < marketIds.length; i++) {
            if (!marketClosed[marketIds[i]]) {
                marketClosed[marketIds[i]] = true;
                emit MarketClosed(marketIds[i]);
            }
        }
    }

    /// @inheritdoc ISpBetting
    function collectFees(uint256[] calldata amounts) external onlyOwner {
        for (uint256 i = 0; i < amounts.length; i++) {
            IERC20(usdc).safeTransfer(owner(), amounts[i]);
            emit FeeCollected(amounts[i]);
        }
    }

    function _setOddsSigner(address newSigner) private {
        if (newSigner == address(0)) revert ZeroSigner();
        emit OddsSignerChanged(oddsSigner, newSigner);
        oddsSigner = newSigner;
    }

    function _setPayoutSigner(address newSigner) private {
        if (newSigner == address(0)) revert ZeroSigner();
        emit PayoutSignerChanged(payoutSigner, newSigner);
        payoutSigner = newSigner;
    }
}
