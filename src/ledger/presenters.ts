/** What goes out about an SP ledger row. */
import type { SpLedgerRow } from "./ledger.repository.js";

export function presentSpRow(r: SpLedgerRow) {
  return {
    id: String(r.id),
    userId: String(r.userId),
    type: r.type,
    amount: r.amount,
    eventId: r.eventId,
    externalId: r.externalId,
    createdAt: r.createdAt.toISOString(),
  };
}
