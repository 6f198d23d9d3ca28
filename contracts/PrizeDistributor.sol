// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {IPrizeDistributor} from "./interfaces/IPrizeDistributor.sol";

/// @title PrizeDistributor: pays each finalized week's Champions prizes to their winners, one Merkle root a week.
/// @notice The service builds, at finalize, an OpenZeppelin StandardMerkleTree over ["uint256", "address",
///         "uint256"] = (week, account, amount) for every paid Champions row with a payout address; the owner sets
///         that week's root once and funds this contract with USDC; each winner (or anyone on their behalf: the
///         USDC always goes to `account`) claims once with the proof the service publishes. Ownership moves in two
///         steps (OpenZeppelin Ownable2Step): the contract holds USDC. See docs/onchain.md.
contract PrizeDistributor is IPrizeDistributor, Ownable2Step {
    using SafeERC20 for IERC20;

    /// @inheritdoc IPrizeDistributor
    address public immutable usdc;
    /// @inheritdoc IPrizeDistributor
    mapping(uint256 week => bytes32) public roots;
    /// @inheritdoc IPrizeDistributor
    mapping(uint256 week => mapping(address account => bool)) public claimed;

    /// @param usdc_ The token prizes are paid in.
    constructor(IERC20 usdc_) Ownable(msg.sender) {
        usdc = address(usdc_);
    }

    /// @inheritdoc IPrizeDistributor
    function setRoot(uint256 week, bytes32 root) external onlyOwner {
        if (root == bytes32(0)) revert ZeroRoot();
        if (roots[week] != bytes32(0)) revert RootAlreadySet(week);
        roots[week] = root;
        emit RootSet(week, root);
    }

    /// @inheritdoc IPrizeDistributor
    function claim(uint256 week, address account, uint256 amount, bytes32[] calldata proof) external {
        bytes32 root = roots[week];
        if (root == bytes32(0)) revert NoRoot(week);
        if (claimed[week][account]) revert AlreadyClaimed(week, account);
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(week, account, amount))));
        if (!MerkleProof.verifyCalldata(proof, root, leaf)) revert InvalidProof();
        claimed[week][account] = true;
        IERC20(usdc).safeTransfer(account, amount);
        emit PrizeClaimed(week, account, amount);
    }
}
