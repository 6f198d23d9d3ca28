/**
 * The free-credits ledger, and what other capabilities may use of it: the only writer of credit rows and of
 * users.credits_balance, always in the caller's transaction; the balance and whether an entry exists. A row whose externalId was seen before changes nothing (idempotent grants, stakes and payouts).
 */
import { eq, sql } from "drizzle-orm";
import { intArray, type Queryable, rows, type Tx, textArray } from "../db/client.js";
import { creditsLedger, users } from "../db/schema.js";
import { recordDomainEvent, recordDomainEvents } from "../domain-events/domain-events.js";
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
 * Locks the users' rows (in id order, so concurrent callers cannot deadlock) for a credits change later in the
 * transaction and reads their balances: a caller deciding several debits at once (a group of bets) knows what
 * each player can afford, and nothing moves the balances until it commits. Unknown users are absent.
 */
export async function lockCreditBalances(tx: Tx, userIds: readonly bigint[]): Promise<Map<bigint, number>> {
  const ids = [...new Set(userIds)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: string; balance: string }>(
    tx,
    sql`select id::text as id, credits_balance::text as balance from users
        where id = any(${intArray(ids, "bigint")}) order by id for no key update`,
  );
  return new Map(found.map((r) => [BigInt(r.id), Number(r.balance)]));
}

/**
 * `appendCredits` for many rows in three statements (the users' rows locked in id order, then the rows and the
 * balances in one statement, then the `balance.changed` events): results in the order given, each balance the
 * player's balance after its row. A row whose externalId was seen before changes nothing (`created: false`, the
 * balance after the rows before it). When any player's balance would go negative, INSUFFICIENT_CREDITS and
 * nothing is written; callers that must not fail as a whole check first under `lockCreditBalances`.
 */
export async function appendCreditEntries(
  tx: Tx,
  entries: ReadonlyArray<{ userId: bigint; reason: CreditReason; amount: number; externalId: string }>,
  locked?: ReadonlyMap<bigint, number>,
): Promise<Array<{ created: boolean; balance: number }>> {
  if (entries.length === 0) return [];
  // `locked`: what `lockCreditBalances` answered earlier in this transaction for every user of `entries` (their
  // rows locked since, so unchanged): a caller that decided the debits under that lock saves the second one.
  const before =
    locked ??
    (await lockCreditBalances(
      tx,
      entries.map((e) => e.userId),
    ));
  const created = new Set(
    (
      await rows<{ external_id: string }>(
        tx,
        sql`with inp as (
              select * from unnest(${intArray(
                entries.map((e) => e.userId),
                "bigint",
              )}, ${textArray(entries.map((e) => e.reason))}, ${intArray(
                entries.map((e) => e.amount),
                "bigint",
              )}, ${textArray(entries.map((e) => e.externalId))}) with ordinality as i(user_id, reason, amount, external_id, ord)
            ),
            ins as (
              insert into credits_ledger (user_id, reason, amount, external_id)
              select user_id, reason, amount, external_id from inp order by ord
              on conflict (external_id) do nothing
              returning user_id, amount, external_id
            ),
            upd as (
              update users u set credits_balance = u.credits_balance + s.amount
              from (select user_id, sum(amount) as amount from ins group by user_id) s
              where u.id = s.user_id
            )
            select external_id from ins`,
      )
    ).map((r) => r.external_id),
  );
  const balances = new Map(before);
  const results = entries.map((e) => {
    const isNew = created.delete(e.externalId);
    const balance = (balances.get(e.userId) ?? 0) + (isNew ? e.amount : 0);
    balances.set(e.userId, balance);
    return { created: isNew, balance };
  });
  // The rows are locked: the balances computed here are the stored ones. A negative one rolls everything back.
  if ([...balances.values()].some((b) => b < 0)) {
    throw new AppError("INSUFFICIENT_CREDITS", "Not enough credits for this stake");
  }
  await recordDomainEvents(
    tx,
    entries.flatMap((e, i) =>
      results[i]!.created
        ? [{ type: "balance.changed" as const, payload: { credits: results[i]!.balance }, userId: e.userId }]
        : [],
    ),
  );
  return results;
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
          select id, 'WELCOME', ${amount}, 'welcome:' || id from unnest(${intArray(ids, "bigint")}) as t(id)
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
