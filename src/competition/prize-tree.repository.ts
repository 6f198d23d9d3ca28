/**
 * The only SQL of the prize distribution: a finalized week's prize tree (written once, never changed) and the
 * PrizeClaimed logs the chain job runner records (idempotent on chain id, tx hash, log index; deleted above a fork
 * after a reorganisation).
 */
import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Queryable, Tx } from "../db/client.js";
import { competitionWeeks, prizeClaims, prizeTrees } from "../db/schema.js";
import type { PrizeTree } from "./prize-tree.js";

interface StoredLeaf {
  userId: string;
  account: string;
  amountMicro: string;
  carriedMicro: string;
}
type StoredAwaiting = { userId: string; amountMicro: string };
type StoredArrear = { fromWeek: number; userId: string; amountMicro: string };

const awaitingOf = (raw: unknown) =>
  (raw as StoredAwaiting[]).map((a) => ({ userId: a.userId, amountMicro: BigInt(a.amountMicro) }));
const carriedOf = (raw: unknown) =>
  (raw as StoredArrear[]).map((a) => ({
    fromWeek: a.fromWeek,
    userId: a.userId,
    amountMicro: BigInt(a.amountMicro),
  }));

/** Stores week W's tree unless one is stored already (the first stays); returns the stored tree. */
export async function insertPrizeTree(q: Queryable, tree: PrizeTree): Promise<PrizeTree> {
  await q
    .insert(prizeTrees)
    .values({
      week: tree.week,
      root: tree.root,
      totalMicro: tree.totalMicro,
      leaves: tree.leaves.map((l) => ({
        ...l,
        amountMicro: String(l.amountMicro),
        carriedMicro: String(l.carriedMicro),
      })),
      awaitingWallet: tree.awaitingWallet.map((a) => ({ ...a, amountMicro: String(a.amountMicro) })),
      carried: tree.carried.map((a) => ({ ...a, amountMicro: String(a.amountMicro) })),
    })
    .onConflictDoNothing();
  return (await findPrizeTree(q, tree.week))!;
}

/** Week W's stored tree, or null when none is stored. */
export async function findPrizeTree(q: Queryable, week: number): Promise<PrizeTree | null> {
  const [row] = await q.select().from(prizeTrees).where(eq(prizeTrees.week, week));
  if (!row) return null;
  const leaves = row.leaves as StoredLeaf[];
  return {
    week: row.week,
    root: row.root as PrizeTree["root"],
    totalMicro: row.totalMicro,
    leaves: leaves.map((l) => ({
      userId: l.userId,
      account: l.account,
      amountMicro: BigInt(l.amountMicro),
      carriedMicro: BigInt(l.carriedMicro),
    })),
    awaitingWallet: awaitingOf(row.awaitingWallet),
    carried: carriedOf(row.carried),
  };
}

/** Every stored tree's week, awaiting prizes and carried arrears (for what is still awaiting a wallet). */
export async function prizeTreeArrears(q: Queryable) {
  const found = await q
    .select({ week: prizeTrees.week, awaitingWallet: prizeTrees.awaitingWallet, carried: prizeTrees.carried })
    .from(prizeTrees);
  return found.map((r) => ({
    week: r.week,
    awaitingWallet: awaitingOf(r.awaitingWallet),
    carried: carriedOf(r.carried),
  }));
}

/** A PrizeClaimed log as the indexer read it: addresses and hashes lower-case, amount in micro-USDC. */
export interface PrizeClaimRecord {
  chainId: number;
  contract: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  week: number;
  account: string;
  amountMicro: bigint;
  claimedAt: Date;
}

/** Records claims, each once (a log read again changes nothing); returns how many were created. */
export async function insertPrizeClaims(tx: Tx, claims: PrizeClaimRecord[]): Promise<number> {
  if (claims.length === 0) return 0;
  const inserted = await tx
    .insert(prizeClaims)
    .values(claims)
    .onConflictDoNothing({ target: [prizeClaims.chainId, prizeClaims.txHash, prizeClaims.logIndex] })
    .returning({ id: prizeClaims.id });
  return inserted.length;
}

/** Deletes the claims of `contract` read from blocks above `after`; returns how many. */
export async function deletePrizeClaimsAbove(
  tx: Tx,
  where: { chainId: number; contract: string; after: bigint },
): Promise<number> {
  const deleted = await tx
    .delete(prizeClaims)
    .where(
      and(
        eq(prizeClaims.chainId, where.chainId),
        eq(prizeClaims.contract, where.contract),
        gt(prizeClaims.blockNumber, where.after),
      ),
    )
    .returning({ id: prizeClaims.id });
  return deleted.length;
}

/** The lower-case accounts among `accounts` that claimed week W's prize from `contract`. */
export async function claimedAccounts(
  q: Queryable,
  where: { chainId: number; contract: string; week: number; accounts: string[] },
): Promise<Set<string>> {
  if (where.accounts.length === 0) return new Set();
  const found = await q
    .selectDistinct({ account: prizeClaims.account })
    .from(prizeClaims)
    .where(
      and(
        eq(prizeClaims.chainId, where.chainId),
        eq(prizeClaims.contract, where.contract),
        eq(prizeClaims.week, where.week),
        inArray(
          prizeClaims.account,
          where.accounts.map((a) => a.toLowerCase()),
        ),
      ),
    );
  return new Set(found.map((r) => r.account));
}

/** The finalized weeks without a stored tree (finalized before trees were stored), ascending. */
export async function weeksWithoutPrizeTree(q: Queryable): Promise<number[]> {
  const found = await q
    .select({ week: competitionWeeks.week })
    .from(competitionWeeks)
    .leftJoin(prizeTrees, eq(prizeTrees.week, competitionWeeks.week))
    .where(isNull(prizeTrees.week))
    .orderBy(asc(competitionWeeks.week));
  return found.map((r) => r.week);
}
