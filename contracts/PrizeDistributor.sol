// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/// @title PrizeDistributor: pays each finalized week's Champions prizes to their winners, one Merkle root a week.
/// @notice The service builds, at finalize, an OpenZeppelin StandardMerkleTree over ["uint256", "address",
///         "uint256"] = (week, account, amount) for every paid Champions row with a wallet; the owner sets that
///         week's root once and funds this contract with USDC; each winner (or anyone on their behalf: the USDC
///         always goes to `account`) claims once with the proof the service publishes. Amounts are USDC base units
///         (6 decimals). See docs/onchain.md.
contract PrizeDistributor is Ownable {
    using SafeERC20 for IERC20;

    event RootSet(uint256 indexed week, bytes32 root);
    event PrizeClaimed(uint256 indexed week, address indexed account, uint256 amount);

    error RootAlreadySet(uint256 week);
    error ZeroRoot();
    error NoRoot(uint256 week);
    error AlreadyClaimed(uint256 week, address account);
    error InvalidProof();

    IERC20 public immutable usdc;
    /// @notice The Merkle root of each week's prize list; zero until the owner sets it, then never changed.
    mapping(uint256 week => bytes32) public roots;
    mapping(uint256 week => mapping(address account => bool)) public claimed;

    constructor(IERC20 usdc_) Ownable(msg.sender) {
        usdc = usdc_;
    }

    /// @notice Publishes week `week`'s root; once per week (a published list is never replaced).
    function setRoot(uint256 week, bytes32 root) external onlyOwner {
        if (root == bytes32(0)) revert ZeroRoot();
        if (roots[week] != bytes32(0)) revert RootAlreadySet(week);
        roots[week] = root;
        emit RootSet(week, root);
    }

    /// @notice Pays `amount` USDC to `account` for week `week`, once, when (week, account, amount) is a leaf of the
    ///         week's root.
    function claim(uint256 week, address account, uint256 amount, bytes32[] calldata proof) external {
        bytes32 root = roots[week];
        if (root == bytes32(0)) revert NoRoot(week);
        if (claimed[week][account]) revert AlreadyClaimed(week, account);
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(week, account, amount))));
        if (!MerkleProof.verifyCalldata(proof, root, leaf)) revert InvalidProof();
        claimed[week][account] = true;
        usdc.safeTransfer(account, amount);
        emit PrizeClaimed(week, account, amount);
    }
}
