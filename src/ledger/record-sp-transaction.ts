/**
 * Records SP ledger rows from the admin / feed API, one (`recordSpTransaction`) or a batch of up to 1,000
 * (`recordSpTransactions`): resolves each row's user (created for an unknown wallet), appends the rows
 * idempotently on externalId, and updates the maintained totals, all in one transaction. A batch is all or
 * nothing: one invalid row (400), unknown user or event (404) rejects the whole batch and writes nothing.
 */

import type { Db, Tx } from "../db/client.js";
import { GroupCommit } from "../db/group-commit.js";
import { AppError } from "../errors.js";
import type { Season } from "../shared/season.js";
import type { SpType } from "../shared/sp-types.js";
import { appendSpEntries, type SpLedgerRow } from "./ledger.js";
import { ensureWalletUsers } from "./register-user.js";

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
  /** The app's group commit of single rows (`spAppendGroup`); absent: each row in its own transaction. */
  spAppends?: GroupCommit<RecordSpInput, SpAppendResult>;
}

export type SpAppendResult = { row: SpLedgerRow; created: boolean };

export const MAX_BATCH_ROWS = 1000;

/**
 * One row. With `deps.spAppends` (the app's group commit, `spAppendGroup`), rows arriving while an append is in
 * flight on the same database are appended together in the next transaction (one transaction and four statements
 * for many rows instead of each), and each caller answered with its own row once that transaction has committed;
 * a group that fails is appended again row by row, so every caller gets the answer it would have had alone.
 * Without it, the row is appended in its own transaction. A replayed externalId answers its first row either way.
 */
export async function recordSpTransaction(deps: RecordSpDeps, input: RecordSpInput): Promise<SpAppendResult> {
  validateRow(input, "body");
  if (deps.spAppends) return deps.spAppends.submit(input);
  const [result] = await deps.db.transaction((tx) => appendRows(tx, deps, [input]));
  return result!;
}

/** The group commit of single rows that `recordSpTransaction` uses when its deps carry it; the app owns one. */
export function spAppendGroup(deps: RecordSpDeps): GroupCommit<RecordSpInput, SpAppendResult> {
  return new GroupCommit(deps.db, (tx, inputs) => appendRows(tx, deps, inputs), {
    maxItems: MAX_BATCH_ROWS,
    maxInFlight: MAX_GROUPS_IN_FLIGHT,
  });
}

/**
 * Grouped appends running at once: a row waits for at most this many before its own. Two: at 1,000,000 players a
 * group's own work in PostgreSQL is long enough that a second group overlapping it gives 20–40 % more rows a second
 * than one at a time (at 100,000, one gave 3–8 % more; docs/performance.md, "Session 16").
 */
const MAX_GROUPS_IN_FLIGHT = 2;

/** A batch: one result per row, in request order (`created: false` for a replayed externalId: the first row). */
export async function recordSpTransactions(
  deps: RecordSpDeps,
  inputs: RecordSpInput[],
): Promise<SpAppendResult[]> {
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
  // Sorted: two batches creating the same new users lock their rows (the unique wallet index) in one order, so
  // they queue behind each other instead of each holding a wallet the other waits for (a deadlock).
  const wallets = [
    ...new Set(inputs.flatMap((i) => (i.wallet === undefined ? [] : [i.wallet.toLowerCase()]))),
  ].sort();
  // Unknown wallets (a feed's new players) are created set-based, with their welcome credits.
  const walletUsers = await ensureWalletUsers(tx, wallets, deps.welcomeCredits ?? 0);
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
