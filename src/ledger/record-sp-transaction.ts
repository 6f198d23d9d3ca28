/**
 * Records SP ledger rows from the admin / feed API, one (`recordSpTransaction`) or a batch of up to 1,000
 * (`recordSpTransactions`): resolves each row's user (created for an unknown wallet), appends the rows
 * idempotently on externalId, and updates the maintained totals, all in one transaction. A batch is all or
 * nothing: one invalid row (400), unknown user or event (404) rejects the whole batch and writes nothing.
 */
import type { Season } from "../competition/calendar.js";
import type { SpType } from "../competition/competitive-sp.js";
import type { Db, Tx } from "../db/client.js";
import { AppError } from "../errors.js";
import { ensureWalletUser } from "../users/register-user.js";
import { findUserIdsByWallets } from "../users/users.js";
import { appendSpEntries, type SpLedgerRow } from "./ledger.repository.js";

export interface RecordSpInput {
  wallet?: string;
  userId?: string;
  type: SpType;
  amount: number;
  eventId?: string;
  externalId: string;
}

export interface RecordSpDeps {
  db: Db;
  season: Season;
  welcomeCredits?: number;
}

export const MAX_BATCH_ROWS = 1000;

export async function recordSpTransaction(
  deps: RecordSpDeps,
  input: RecordSpInput,
): Promise<{ row: SpLedgerRow; created: boolean }> {
  validateRow(input, "body");
  const [result] = await deps.db.transaction((tx) => appendRows(tx, deps, [input]));
  return result!;
}

/** A batch: one result per row, in request order (`created: false` for a replayed externalId: the first row). */
export async function recordSpTransactions(
  deps: RecordSpDeps,
  inputs: RecordSpInput[],
): Promise<Array<{ row: SpLedgerRow; created: boolean }>> {
  inputs.forEach((input, i) => {
    validateRow(input, `body.rows.${i}`);
  });
  return deps.db.transaction((tx) => appendRows(tx, deps, inputs));
}

/** The rules the schema cannot say; `at` names the row in the error (e.g. `body.rows.3`). */
function validateRow(input: RecordSpInput, at: string): void {
  if ((input.wallet === undefined) === (input.userId === undefined)) {
    throw new AppError("VALIDATION_FAILED", `${at} must name exactly one of wallet or userId`, [
      { field: `${at}.wallet`, message: "give exactly one of wallet or userId" },
    ]);
  }
  if (input.amount < 0 && input.type !== "ADJUSTMENT") {
    throw new AppError("VALIDATION_FAILED", `${at}.amount may be negative only for ADJUSTMENT`, [
      { field: `${at}.amount`, message: "must be >= 0 unless type is ADJUSTMENT" },
    ]);
  }
}

async function appendRows(tx: Tx, deps: RecordSpDeps, inputs: RecordSpInput[]) {
  const wallets = [
    ...new Set(inputs.flatMap((i) => (i.wallet === undefined ? [] : [i.wallet.toLowerCase()]))),
  ];
  const walletUsers = await findUserIdsByWallets(tx, wallets);
  for (const walletLower of wallets) {
    if (walletUsers.has(walletLower)) continue;
    // Unknown wallets are rare in a feed: created one by one (with welcome credits), like sign-in does.
    const { user } = await ensureWalletUser(tx, { walletLower, welcomeCredits: deps.welcomeCredits ?? 0 });
    walletUsers.set(walletLower, user.id);
  }
  return appendSpEntries(
    tx,
    deps.season,
    inputs.map((input) => ({
      userId:
        input.wallet !== undefined ? walletUsers.get(input.wallet.toLowerCase())! : BigInt(input.userId!),
      type: input.type,
      amount: input.amount,
      eventId: input.eventId ?? null,
      externalId: input.externalId,
    })),
  );
}
