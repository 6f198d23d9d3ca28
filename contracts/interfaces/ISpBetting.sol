// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title ISpBetting: version-2 (USDC) bets at odds the service quoted, their payouts, and protocol fees.
/// @notice Everything an indexer, an explorer or a wallet needs to read or call the betting contract without the
///         service. Amounts are USDC base units (6 decimals, 1 USDC = 1_000_000); odds are decimal odds in
///         thousandths (2.15 -> 2150). Both signed messages are EIP-712 under the domain
///         {name: "SpBetting", version: "1", chainId, verifyingContract: the betting contract}. See docs/onchain.md.
interface ISpBetting {
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

    /// @notice What the service owes one bet: winnings, or the stake back for a void or rejected bet.
    ///         `nonce` is the EIP-712 digest of the bet's quote, so one bet is paid at most once, even when a
    ///         reorganisation makes the service record it again; `deadline` = last unix second it can be used.
    struct Payout {
        uint256 predictionId;
        address account;
        uint256 amount;
        bytes32 nonce;
        uint256 deadline;
    }

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
    /// @notice A payout voucher was honoured: `amount` USDC went to `account`.
    event PayoutClaimed(bytes32 indexed nonce, address indexed account, uint256 predictionId, uint256 amount);
    /// @notice A protocol (house) fee taken by the platform, in USDC base units; funds the next week's prize pool.
    event FeeCollected(uint256 amount);
    /// @notice The owner closed a market: no bet on it is taken any more.
    event MarketClosed(bytes32 indexed marketId);
    event OddsSignerChanged(address indexed previousSigner, address indexed newSigner);
    event PayoutSignerChanged(address indexed previousSigner, address indexed newSigner);

    error ZeroAmount();
    error ZeroSigner();
    error OddsTooLow(uint256 odds);
    error NotQuoteBettor(address bettor, address sender);
    error QuoteExpired(uint256 expiry, uint256 timestamp);
    error BadQuoteSigner(address signer);
    error QuoteAlreadyUsed(bytes32 digest);
    error MarketIsClosed(bytes32 marketId);
    error PayoutExpired(uint256 deadline, uint256 timestamp);
    error BadPayoutSigner(address signer);
    error PayoutAlreadyClaimed(bytes32 nonce);

    /// @notice Stakes `amount` USDC (pulled from the sender, who must have approved it) at the quote's odds.
    /// @dev Reverts unless the quote is signed by `oddsSigner`, issued to the sender, unexpired, unused, and its
    ///      market is open.
    function placeBet(Quote calldata quote, bytes calldata signature, uint256 amount) external;

    /// @notice Pays a voucher signed by `payoutSigner` to `payout.account` (anyone may submit it), once per nonce.
    function claimPayout(Payout calldata payout, bytes calldata signature) external;

    /// @notice Closes markets (owner only): placeBet on any of them reverts from now on.
    function closeMarkets(bytes32[] calldata marketIds) external;

    /// @notice Moves house fees to the owner (owner only); one FeeCollected per amount.
    function collectFees(uint256[] calldata amounts) external;

    /// @notice Replaces the quote signer (owner only); quotes of the previous signer stop working at once.
    function setOddsSigner(address newSigner) external;

    /// @notice Replaces the payout signer (owner only); vouchers of the previous signer stop working at once.
    function setPayoutSigner(address newSigner) external;

    /// @notice The EIP-712 digest the odds signer signs for `quote` (also the nonce of the bet's payout).
    function quoteDigest(Quote calldata quote) external view returns (bytes32);

    /// @notice The EIP-712 digest the payout signer signs for `payout`.
    function payoutDigest(Payout calldata payout) external view returns (bytes32);

    /// @notice The token of every stake, payout and fee.
    function usdc() external view returns (address);

    /// @notice The service's quote-signing address (published at GET /api/chain/info).
    function oddsSigner() external view returns (address);

    /// @notice The service's payout-signing address (published at GET /api/chain/info).
    function payoutSigner() external view returns (address);

    /// @notice Whether a quote (by its digest) has placed its bet.
    function quoteUsed(bytes32 digest) external view returns (bool);

    /// @notice Whether a payout nonce has been paid.
    function payoutClaimed(bytes32 nonce) external view returns (bool);

    /// @notice Whether the owner closed a market.
    function marketClosed(bytes32 marketId) external view returns (bool);
}
