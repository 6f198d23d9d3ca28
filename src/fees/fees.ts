/**
 * What other capabilities may use of the protocol fees: record one (idempotent on its log) and sum a time window
 * (the prize pool). The admin API and the CLI record fees through record-fee.ts.
 */
export { type FeeRow, insertFee, sumFees } from "./fees.repository.js";
