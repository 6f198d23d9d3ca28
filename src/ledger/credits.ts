/**
 * The free-credits ledger, and what other capabilities may use of it: the only writer of credit rows and of
 * users.credits_balance, always in the caller's transaction; the balance and whether an entry exists. A row whose externalId was seen before changes nothing (idempotent grants, stakes and payouts).
 */
import { eq, sql } from "drizzle-orm";
import { type Queryable, rows, type Tx } from "../db/client.js";
import { creditsLedger, users } from "../db/schema.js";
import { recordDomainEvent } from "../domain-events/domain-events.js";
import { AppError } from "../errors.js";

export type CreditReason = "WELCOME" | "DAILY" | "STAKE" | "PAYOUT" | "ADJUSTMENT";

/**
 * Appends one credit row and moves the balance by `amount`. A debit larger than the balance throws
 * INSUFFICIENT_CREDITS (the conditional update is atomic, so concurrent debits can never overdraw). A new row also
 * records the live stream's `balance.changed` `{credits}` (private to the player) in the same transaction.
 */
export async function appendCredits(
  tx: Tx,
  entry: { userId: bigint; reason: CreditReason; amount: number; externalId: string },
): Promise<{ created: boolean; balance: number }> {
  const inserted = await tx
    .insert(creditsLedger)
    .values(entry)
    .onConflictDoNothing({ target: creditsLedger.externalId })
    .returning({ id: creditsLedger.id });
  if (inserted.length === 0) return { created: false, balance: await creditsBalance(tx, entry.userId) };
  const [updated] = await rows<{ balance: string }>(
    tx,
    sql`update users set credits_balance = credits_balance + ${entry.amount}
        where id = ${entry.userId} and credits_balance + ${entry.amount} >= 0
        returning credits_balance::text as balance`,
  );
  if (!updated) throw new AppError("INSUFFICIENT_CREDITS", "Not enough credits for this stake");
  const balance = Number(updated.balance);
  await recordDomainEvent(tx, {
    type: "balance.changed",
    payload: { credits: balance },
    userId: entry.userId,
  });
  return { created: true, balance };
}

/**
 * The WELCOME rows (`amount` each, external id `welcome:<id>`, as `grantWelcomeCredits` writes one by one) of
 * `userIds`, users created in this transaction with `amount` as their opening balance (users.ts
 * `insertWalletUsers`): one statement, the users' rows untouched (written once, not inserted then updated). A
 * user that already has its welcome row would break the balance's sum, so it throws (an id is never reused, so it
 * cannot happen to a user just created).
 */
export async function appendOpeningCredits(tx: Tx, userIds: bigint[], amount: number): Promise<void> {
  if (userIds.length === 0 || amount <= 0) return;
  const ids = [...userIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const [inserted] = await rows<{ n: string }>(
    tx,
    sql`with ins as (
          insert into credits_ledger (user_id, reason, amount, external_id)
          select id, 'WELCOME', ${amount}, 'welcome:' || id from unnest(${`{${ids.join(",")}}`}::bigint[]) as t(id)
          order by id
          on conflict (external_id) do nothing
          returning 1
        )
        select count(*)::text as n from ins`,
  );
  if (Number(inserted!.n) !== ids.length) throw new Error("welcome credits granted twice to a new user");
}

export async function creditsBalance(q: Queryable, userId: bigint): Promise<number> {
  const [row] = await q.select({ balance: users.creditsBalance }).from(users).where(eq(users.id, userId));
  return row?.balance ?? 0;
}

/** True when a credit row with this externalId exists. */
export async function hasCreditEntry(q: Queryable, externalId: string): Promise<boolean> {
  const [row] = await q
    .select({ id: creditsLedger.id })
    .from(creditsLedger)
    .where(eq(creditsLedger.externalId, externalId));
  return row !== undefined;
}
