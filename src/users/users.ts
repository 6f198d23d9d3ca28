/**
 * The users module: the only SQL over the users table, and what other capabilities may use of the users (the user
 * record, the lookups and account links the sign-in use cases need, the display data of many users at once, the
 * payout address). Creating a user with its welcome credits is ledger/register-user.ts.
 */
import { randomBytes } from "node:crypto";
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { intArray, type Queryable, rows, textArray, unlessUniqueViolation } from "../db/client.js";
import { users } from "../db/schema.js";
import { checksumWallet } from "./presenters.js";

export type UserRow = typeof users.$inferSelect;

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/**
 * `n` 8-character referral codes without look-alike characters (32 of them: a byte modulo 32 is uniform), from one
 * draw of random bytes: a draw per code was ≈ 1.7 µs, 5 % of the service's CPU in an ingest of new wallets.
 */
function newReferralCodes(n: number): string[] {
  const bytes = randomBytes(8 * n);
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    let code = "";
    for (let j = 0; j < 8; j++) code += CODE_ALPHABET[bytes[8 * i + j]! % CODE_ALPHABET.length];
    codes.push(code);
  }
  return codes;
}

export async function findUserById(q: Queryable, id: bigint): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function findUserByWallet(q: Queryable, walletLower: string): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(eq(users.wallet, walletLower));
  return row ?? null;
}

export async function findUserByReferralCode(q: Queryable, code: string): Promise<UserRow | null> {
  const [row] = await q.select().from(users).where(eq(users.referralCode, code));
  return row ?? null;
}

/**
 * Finds the user `find` returns, or inserts one with `identity` (a fresh referral code each attempt). Safe under
 * concurrent calls: the identity's unique index decides, and the loser reads the winner's row. `created` tells
 * whether this call made it.
 */
async function findOrCreateUser(
  q: Queryable,
  find: () => Promise<UserRow | null>,
  identity: Pick<typeof users.$inferInsert, "wallet" | "oidcIssuer" | "oidcSubject">,
  input: { displayName: string; referredBy?: bigint | null },
): Promise<{ user: UserRow; created: boolean }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await find();
    if (existing) return { user: existing, created: false };
    const row = await unlessUniqueViolation(q, async (sp) => {
      const [inserted] = await sp
        .insert(users)
        .values({
          ...identity,
          walletChecksum: checksumWallet(identity.wallet ?? null),
          displayName: input.displayName,
          referralCode: newReferralCodes(1)[0]!,
          referredBy: input.referredBy ?? null,
        })
        .onConflictDoNothing()
        .returning();
      return inserted ?? null;
    });
    // null: a concurrent insert won, or a referral-code collision: look again / retry with a fresh code.
    if (row) return { user: row, created: true };
  }
  throw new Error("could not create user");
}

/**
 * Returns the user of a wallet, creating it when unknown. Safe under concurrent calls: the unique wallet index
 * decides, and the loser reads the winner's row. `created` tells whether this call made it.
 */
export function findOrCreateWalletUser(
  q: Queryable,
  input: { walletLower: string; displayName: string; referredBy?: bigint | null },
): Promise<{ user: UserRow; created: boolean }> {
  return findOrCreateUser(
    q,
    () => findUserByWallet(q, input.walletLower),
    { wallet: input.walletLower },
    input,
  );
}

export async function findUserByOidc(q: Queryable, issuer: string, subject: string): Promise<UserRow | null> {
  const [row] = await q
    .select()
    .from(users)
    .where(and(eq(users.oidcIssuer, issuer), eq(users.oidcSubject, subject)));
  return row ?? null;
}

/** Returns the user of an identity (iss, sub), creating it when unknown; safe under concurrent calls. */
export function findOrCreateOidcUser(
  q: Queryable,
  input: { issuer: string; subject: string; displayName: string; referredBy?: bigint | null },
): Promise<{ user: UserRow; created: boolean }> {
  return findOrCreateUser(
    q,
    () => findUserByOidc(q, input.issuer, input.subject),
    { oidcIssuer: input.issuer, oidcSubject: input.subject },
    input,
  );
}

/** Attaches a wallet to a user that has none; false when the user already has one or the wallet is taken. */
export async function linkWallet(q: Queryable, userId: bigint, walletLower: string): Promise<boolean> {
  const updated = await unlessUniqueViolation(q, (sp) =>
    sp
      .update(users)
      .set({
        wallet: walletLower,
        walletChecksum: checksumWallet(walletLower),
        profileXid: sql`pg_current_xact_id()`,
      })
      .where(and(eq(users.id, userId), isNull(users.wallet)))
      .returning({ id: users.id }),
  );
  // null: the wallet or identity belongs to another user already.
  return updated?.length === 1;
}

/** Attaches an identity to a user that has none; false when the user already has one or it is taken. */
export async function linkOidc(
  q: Queryable,
  userId: bigint,
  issuer: string,
  subject: string,
): Promise<boolean> {
  const updated = await unlessUniqueViolation(q, (sp) =>
    sp
      .update(users)
      .set({ oidcIssuer: issuer, oidcSubject: subject, profileXid: sql`pg_current_xact_id()` })
      .where(and(eq(users.id, userId), isNull(users.oidcIssuer)))
      .returning({ id: users.id }),
  );
  // null: the wallet or identity belongs to another user already.
  return updated?.length === 1;
}

/** Display data (name, wallet) of many users in one indexed query: what a ladder page shows. */
export async function findDisplayInfo(
  q: Queryable,
  ids: string[],
): Promise<Map<string, { displayName: string; wallet: string | null }>> {
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: string; display_name: string; wallet: string | null }>(
    q,
    sql`select id::text as id, display_name, wallet from users where id = any(${intArray(ids, "bigint")})`,
  );
  return new Map(found.map((r) => [r.id, { displayName: r.display_name, wallet: r.wallet }]));
}

/**
 * What a ladder row shows of many users, in one indexed query: the display name and the wallet checksummed as
 * stored (computed here only for a row the start-up back-fill has not reached yet).
 */
export async function findLadderDisplay(
  q: Queryable,
  ids: string[],
): Promise<Map<string, { displayName: string; wallet: string | null }>> {
  if (ids.length === 0) return new Map();
  const found = await displayRows(q, sql`id = any(${intArray(ids, "bigint")})`);
  return new Map(found.map(({ id, ...shown }) => [String(id), shown]));
}

/**
 * The display data of the users stored in table pages [`fromPage`, `toPage`) (to the end when `toPage` is null),
 * in storage order: a range of the heap read sequentially (a TID range scan), for a store of the whole table
 * (competition/rank-cache/display-store.ts). Reading a million users in id order instead visits the heap at random
 * (rows move when updated): 1.9 s for 20,000 of them on the bench's table, against 2.9 s for all of them in one
 * sequential pass. A row updated while such a walk runs may be met twice or not at all.
 */
export function displayRowsInPages(q: Queryable, fromPage: number, toPage: number | null) {
  return displayRows(q, inTablePages(fromPage, toPage));
}

/** The rows stored in table pages [`fromPage`, `toPage`) (to the end when `toPage` is null): a TID range scan. */
export function inTablePages(fromPage: number, toPage: number | null): SQL {
  return sql`ctid >= ${`(${fromPage},0)`}::tid ${toPage === null ? sql`` : sql`and ctid < ${`(${toPage},0)`}::tid`}`;
}

/** Display rows of the users `where` selects: the stored checksum, computed only for a row not back-filled yet. */
async function displayRows(
  q: Queryable,
  where: SQL,
): Promise<Array<{ id: number; displayName: string; wallet: string | null }>> {
  const found = await rows<{
    id: string;
    display_name: string;
    wallet: string | null;
    checksum: string | null;
  }>(
    q,
    sql`select id::text as id, display_name, wallet, wallet_checksum as checksum from users where ${where}`,
  );
  return found.map((r) => ({ id: Number(r.id), ...displayInfoOf(r) }));
}

/**
 * What a ladder row shows of a user, from the columns `display_name`, `wallet` and `wallet_checksum` (as
 * `checksum`) of the users table: the stored checksum, computed only for a row not back-filled yet.
 */
export function displayInfoOf(r: { display_name: string; wallet: string | null; checksum: string | null }): {
  displayName: string;
  wallet: string | null;
} {
  return { displayName: r.display_name, wallet: r.checksum ?? checksumWallet(r.wallet) };
}

/**
 * The size of a store of every user, from the statistics (no scan): about how many users there are (0 before the
 * table was first analysed) and how many pages the table has.
 */
export async function displayExtent(q: Queryable): Promise<{ users: number; pages: number }> {
  const [r] = await rows<{ users: string; pages: string }>(
    q,
    sql`select greatest(reltuples, 0)::bigint::text as users,
               (pg_relation_size('users') / current_setting('block_size')::int)::text as pages
        from pg_class where oid = 'users'::regclass`,
  );
  return { users: Number(r!.users), pages: Number(r!.pages) };
}

/**
 * Creates the users of `walletsLower` (unknown wallets, sorted: concurrent batches lock the unique wallet index in
 * one order) in one INSERT … ON CONFLICT DO NOTHING, each with its display name and a fresh referral code. Returns
 * the ids of the users this call created, by wallet; a wallet created meanwhile by someone else (or whose random
 * referral code collided) is absent, for the caller to look up or create alone.
 *
 * `openingCredits`: the credits balance each new row starts with, for the credits ledger's caller that writes the
 * matching rows in the same transaction (ledger/credits.ts `appendOpeningCredits`), so that a new user's row is
 * written once instead of inserted then updated (an update of every index of the table). Default 0.
 */
export async function insertWalletUsers(
  q: Queryable,
  wallets: Array<{ walletLower: string; displayName: string }>,
  openingCredits = 0,
): Promise<Map<string, bigint>> {
  if (wallets.length === 0) return new Map();
  const sorted = [...wallets].sort((a, b) => (a.walletLower < b.walletLower ? -1 : 1));
  const created = await rows<{ id: string; wallet: string }>(
    q,
    sql`insert into users (wallet, wallet_checksum, display_name, referral_code, credits_balance)
        select w, k, n, c, ${openingCredits}::bigint from unnest(${textArray(sorted.map((w) => w.walletLower))}::text[],
                                   ${textArray(sorted.map((w) => checksumWallet(w.walletLower)!))}::text[],
                                   ${textArray(sorted.map((w) => w.displayName))}::text[],
                                   ${textArray(newReferralCodes(sorted.length))}::text[]) as t(w, k, n, c)
        order by w
        on conflict do nothing
        returning id::text as id, wallet`,
  );
  return new Map(created.map((r) => [r.wallet, BigInt(r.id)]));
}

/** Ids of the users of these (lower-case) wallets, by wallet; unknown wallets are absent. */
export async function findUserIdsByWallets(
  q: Queryable,
  walletsLower: string[],
): Promise<Map<string, bigint>> {
  if (walletsLower.length === 0) return new Map();
  const found = await rows<{ id: string; wallet: string }>(
    q,
    sql`select id::text as id, wallet from users where wallet = any(${textArray(walletsLower)})`,
  );
  return new Map(found.map((r) => [r.wallet, BigInt(r.id)]));
}

/**
 * Sets a user's payout address (lower-case) as proven at `verifiedAt`. False when the address is another user's
 * sign-in wallet or payout address: one address is one account's, so a prize list never holds it twice (a race
 * past the check is stopped by the unique index, and answers false too).
 */
export async function setPayoutAddress(
  q: Queryable,
  userId: bigint,
  addressLower: string,
  verifiedAt: Date,
): Promise<boolean> {
  const [taken] = await rows<{ id: string }>(
    q,
    sql`select id::text as id from users
        where (wallet = ${addressLower} or payout_address = ${addressLower}) and id <> ${userId} limit 1`,
  );
  if (taken) return false;
  const updated = await unlessUniqueViolation(q, (sp) =>
    sp
      .update(users)
      .set({ payoutAddress: addressLower, payoutVerifiedAt: verifiedAt })
      .where(eq(users.id, userId))
      .returning({ id: users.id }),
  );
  return updated !== null && updated.length === 1;
}

/** Where each user's USDC prizes go: the payout address when set, else the sign-in wallet (null: neither). */
export async function findPayoutAccounts(
  q: Queryable,
  ids: readonly string[],
): Promise<Map<string, { account: string | null; wallet: string | null }>> {
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: string; wallet: string | null; payout_address: string | null }>(
    q,
    sql`select id::text as id, wallet, payout_address from users where id = any(${intArray(ids, "bigint")})`,
  );
  return new Map(found.map((r) => [r.id, { account: r.payout_address ?? r.wallet, wallet: r.wallet }]));
}

/** Users referred by `referrerId` with an id above `afterId` (null: from the first), oldest first, at most `limit`. */
export async function refereesAfter(
  q: Queryable,
  referrerId: bigint,
  afterId: string | null,
  limit: number,
): Promise<Array<{ userId: string; displayName: string; joinedAt: Date }>> {
  const found = await rows<{ user_id: string; display_name: string; created_at: Date }>(
    q,
    sql`select id::text as user_id, display_name, created_at from users
        where referred_by = ${referrerId} and id > ${afterId === null ? 0n : BigInt(afterId)}
        order by id limit ${limit}`,
  );
  return found.map((r) => ({
    userId: r.user_id,
    displayName: r.display_name,
    joinedAt: new Date(r.created_at),
  }));
}

/** How many users `referrerId` referred. */
export async function countReferees(q: Queryable, referrerId: bigint): Promise<number> {
  const [r] = await rows<{ n: string }>(
    q,
    sql`select count(*)::text as n from users where referred_by = ${referrerId}`,
  );
  return Number(r?.n ?? 0);
}
