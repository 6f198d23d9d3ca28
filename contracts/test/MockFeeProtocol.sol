// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title MockFeeProtocol: stands in, in tests, for an existing betting protocol whose fee event is not ours.
/// @notice Its fee event has another name, other arguments and an 18-decimal amount, so the tests can show the fee
///         indexer reading it by configuration alone (FEE_EVENT_SIGNATURE, FEE_EVENT_AMOUNT_ARG,
///         FEE_TOKEN_DECIMALS, FEE_CONTRACT_ADDRESSES). Never deploy it anywhere real.
contract MockFeeProtocol {
    event ProtocolFeePaid(address indexed payer, bytes32 indexed marketRef, uint256 feeAmount, uint64 paidAt);
    event Noise(uint256 amount);

    /// @notice Emits one fee of `feeAmount` (18 decimals) and, to be ignored, one unrelated event with an amount.
    function payFee(bytes32 marketRef, uint256 feeAmount) external {
        emit ProtocolFeePaid(msg.sender, marketRef, feeAmount, uint64(block.timestamp));
        emit Noise(feeAmount);
    }
}
