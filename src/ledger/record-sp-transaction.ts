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
import { ensureWalletUsers } from "../users/register-user.js";
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

/**
 * One row. Rows arriving while an append is in flight on the same database are appended together in the next
 * transaction (a group commit: one transaction and four statements for many rows instead of each), and each
 * caller answered with its own row once that transaction has committed. When a grouped append fails (e.g. one
 * row names an unknown user or event), each row of the group is appended again alone, so every caller gets the
 * answer it would have had alone; a replayed externalId answers its first row either way.
 */
export async function recordSpTransaction(
  deps: RecordSpDeps,
  input: RecordSpInput,
): Promise<{ row: SpLedgerRow; created: boolean }> {
  validateRow(input, "body");
  let group = groups.get(deps);
  if (!group) {
    group = new AppendGroup();
    groups.set(deps, group);
  }
  return group.submit(deps, input);
}

/** Appends a single row in its own transaction. */
async function appendAlone(deps: RecordSpDeps, input: RecordSpInput) {
  const [result] = await deps.db.transaction((tx) => appendRows(tx, deps, [input]));
  return result!;
}

type Waiting = {
  deps: RecordSpDeps;
  input: RecordSpInput;
  resolve: (r: { row: SpLedgerRow; created: boolean }) => void;
  reject: (err: unknown) => void;
};

/** Rows waiting to be appended with the same deps (one database), and how many grouped appends are in flight. */
class AppendGroup {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;

  submit(deps: RecordSpDeps, input: RecordSpInput): Promise<{ row: SpLedgerRow; created: boolean }> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ deps, input, resolve, reject });
      if (this.scheduled || this.inFlight >= MAX_GROUPS_IN_FLIGHT) return;
      // Start after this turn of the event loop, so that the requests read in the same turn share the group (the
      // embedded database would otherwise finish each append before the next request is read).
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.drain();
      });
    });
  }

  private async drain(): Promise<void> {
    this.inFlight++;
    try {
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, MAX_BATCH_ROWS);
        const deps = group[0]!.deps;
        if (group.length === 1) {
          await appendAlone(deps, group[0]!.input).then(group[0]!.resolve, group[0]!.reject);
          continue;
        }
        let results: Array<{ row: SpLedgerRow; created: boolean }> | null = null;
        try {
          results = await deps.db.transaction((tx) =>
            appendRows(
              tx,
              deps,
              group.map((w) => w.input),
            ),
          );
        } catch {
          results = null;
        }
        if (results) {
          group.forEach((w, i) => {
            w.resolve(results[i]!);
          });
        } else {
          for (const w of group) await appendAlone(w.deps, w.input).then(w.resolve, w.reject);
        }
      }
    } finally {
      this.inFlight--;
    }
  }
}

/** Grouped appends running at once per group: a row waits for at most this many before its own. */
const MAX_GROUPS_IN_FLIGHT = 2;
const groups = new WeakMap<RecordSpDeps, AppendGroup>();

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
