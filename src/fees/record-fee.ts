/**
 * Records one protocol fee from the admin / feed API or the CLI: lower-case tx hash, micro-USDC, idempotent on
 * (txHash, logIndex) — a replay returns the first record with `created: false`. The body must already be valid.
 */
import type { Queryable } from "../db/client.js";
import { parseUsdc } from "../shared/money.js";
import { type FeeRow, insertFee } from "./fees.repository.js";

export async function recordProtocolFee(
  q: Queryable,
  body: { txHash: string; logIndex: number; amountUsdc: string; occurredAt: string },
): Promise<{ fee: FeeRow; created: boolean }> {
  return insertFee(q, {
    txHash: body.txHash.toLowerCase(),
    logIndex: body.logIndex,
    amountMicro: parseUsdc(body.amountUsdc),
    occurredAt: new Date(body.occurredAt),
  });
}
