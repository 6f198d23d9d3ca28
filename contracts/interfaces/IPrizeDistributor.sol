// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IPrizeDistributor: each finalized week's Champions prizes, one Merkle root a week, claimed once per winner.
/// @notice Leaves are OpenZeppelin StandardMerkleTree leaves over ["uint256", "address", "uint256"] =
///         (week, account, amount); amounts are USDC base units (6 decimals). See docs/onchain.md.
interface IPrizeDistributor {
    event RootSet(uint256 indexed week, bytes32 root);
    event PrizeClaimed(uint256 indexed week, address indexed account, uint256 amount);

    error RootAlreadySet(uint256 week);
    error ZeroRoot();
    error NoRoot(uint256 week);
    error AlreadyClaimed(uint256 week, address account);
    error InvalidProof();

    /// @notice Publishes week `week`'s root (owner only); once per week: a published list is never replaced.
    function setRoot(uint256 week, bytes32 root) external;

    /// @notice Pays `amount` USDC to `account` for week `week`, once, when (week, account, amount) is a leaf of the
    ///         week's root. Anyone may submit it: the USDC always goes to `account`.
    function claim(uint256 week, address account, uint256 amount, bytes32[] calldata proof) external;

    /// @notice The token prizes are paid in.
    function usdc() external view returns (address);

    /// @notice Week `week`'s root; zero until the owner sets it.
    function roots(uint256 week) external view returns (bytes32);

    /// @notice Whether `account` has claimed its prize of week `week`.
    function claimed(uint256 week, address account) external view returns (bool);
}
