/** What goes out about a fee record. */
import { formatUsdc } from "../shared/money.js";
import type { FeeRow } from "./fees.js";

export function presentFee(f: FeeRow) {
  return {
    txHash: f.txHash,
    logIndex: f.logIndex,
    amountUsdc: formatUsdc(f.amountMicro),
    occurredAt: f.occurredAt.toISOString(),
  };
}
