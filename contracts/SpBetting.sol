// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The two ERC-20 calls the betting contract makes.
interface IERC20Minimal {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @title SpBetting: version-2 (USDC) bets and protocol fees, as the service reads them.
/// @notice The interface the service depends on is the two events; everything else here is the minimal contract
///         the tests deploy. All amounts are USDC base units (6 decimals, 1 USDC = 1_000_000). See docs/onchain.md.
contract SpBetting {
    /// @notice One bet. `eventId` = keccak256(utf8("<eventId>/<market>")) of the service's event and market keys,
    ///         `outcome` = zero-based index of the outcome within that market, `amount` = stake in USDC base units,
    ///         `odds` = decimal odds in thousandths (2.15 -> 2150).
    event BetPlaced(address indexed bettor, bytes32 indexed eventId, uint8 outcome, uint256 amount, uint256 odds);

    /// @notice A protocol (house) fee taken by the platform, in USDC base units; funds the next week's prize pool.
    event FeeCollected(uint256 amount);

    IERC20Minimal public immutable usdc;
    address public immutable owner;

    constructor(IERC20Minimal usdc_) {
        usdc = usdc_;
        owner = msg.sender;
    }

    /// @notice Stakes `amount` USDC (pulled from the sender, who must have approved it) on `outcome`.
    function placeBet(bytes32 eventId, uint8 outcome, uint256 amount, uint256 odds) external {
        require(amount > 0, "SpBetting: zero amount");
        require(odds > 1000, "SpBetting: odds must exceed 1.000");
        require(usdc.transferFrom(msg.sender, address(this), amount), "SpBetting: transfer failed");
        emit BetPlaced(msg.sender, eventId, outcome, amount, odds);
    }

    /// @notice Moves house fees to the owner; one FeeCollected per amount (several logs in one transaction).
    function collectFees(uint256[] calldata amounts) external {
        require(msg.sender == owner, "SpBetting: not owner");
        for (uint256 i = 0; i < amounts.length; i++) {
            require(usdc.transfer(owner, amounts[i]), "SpBetting: transfer failed");
            emit FeeCollected(amounts[i]);
        }
    }
}
