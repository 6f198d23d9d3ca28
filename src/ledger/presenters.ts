/** What goes out about an SP ledger row. */
import type { SpType } from "../shared/sp-types.js";
import type { SpLedgerRow } from "./ledger.js";

export function presentSpRow(r: SpLedgerRow) {
  return {
    id: String(r.id),
    userId: String(r.userId),
    // The column allows only these (sp_ledger_type_check).
    type: r.type as SpType,
    amount: r.amount,
    eventId: r.eventId,
    externalId: r.externalId,
    createdAt: r.createdAt.toISOString(),
  };
}
