/**
 * The database schema: one place for every table. `drizzle-kit generate` turns changes here into the SQL
 * migrations in ./migrations, which run at start-up on PGlite and PostgreSQL alike.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** PostgreSQL's 64-bit transaction id: orders changes by the transaction that made them. */
const xid8 = customType<{ data: string }>({ dataType: () => "xid8" });

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
const createdAt = () => ts("created_at").notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    /** Lower-case 0x address; responses give it checksummed. */
    wallet: text("wallet"),
    /**
     * The wallet EIP-55 checksummed, written with it (users/users.ts) so reads never hash it (a keccak per ladder
     * row was most of a page's cost); null only until the start-up back-fill (users/backfill-wallet-checksums.ts).
     */
    walletChecksum: text("wallet_checksum"),
    oidcIssuer: text("oidc_issuer"),
    oidcSubject: text("oidc_subject"),
    displayName: text("display_name").notNull(),
    referralCode: text("referral_code").notNull(),
    referredBy: bigint("referred_by", { mode: "bigint" }),
    /** Free-credit balance, maintained by the credits ledger; never negative. */
    creditsBalance: bigint("credits_balance", { mode: "number" }).notNull().default(0),
    /** Lower-case address the player proved to own (SIWE) for USDC prizes; null: the sign-in wallet. */
    payoutAddress: text("payout_address"),
    payoutVerifiedAt: ts("payout_verified_at"),
    /** Transaction that last changed what a ladder shows of the user (wallet, name): caches follow it. */
    profileXid: xid8("profile_xid").notNull().default(sql`pg_current_xact_id()`),
    createdAt: createdAt(),
  },
  (t) => [
    check("users_credits_balance_check", sql`${t.creditsBalance} >= 0`),
    uniqueIndex("users_wallet_key").on(t.wallet),
    uniqueIndex("users_payout_address_key").on(t.payoutAddress).where(sql`${t.payoutAddress} is not null`),
    uniqueIndex("users_oidc_key").on(t.oidcIssuer, t.oidcSubject),
    uniqueIndex("users_referral_code_key").on(t.referralCode),
    index("users_profile_xid_idx").on(t.profileXid),
    // A referrer's referees, in id order (GET and POST /api/referrals page through them); only referred users.
    index("users_referred_by_idx").on(t.referredBy, t.id).where(sql`${t.referredBy} is not null`),
  ],
);

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    sport: text("sport").notNull(),
    league: text("league").notNull(),
    homeTeam: text("home_team").notNull(),
    awayTeam: text("away_team").notNull(),
    kickoffAt: ts("kickoff_at").notNull(),
    status: text("status").notNull(),
    warmup: boolean("warmup").notNull().default(false),
    /** [{key, outcomes: [{key, label, oddsMilli}]}], odds as integer thousandths. */
    markets: jsonb("markets").notNull(),
    oddsUpdatedAt: ts("odds_updated_at").notNull().defaultNow(),
    /** Set once at settlement: {status, winningOutcome?}. */
    result: jsonb("result"),
    /**
     * The first instant the event stopped being open (a status change, its result, or its kickoff, whichever came
     * first), set once when the service sees it; null while open or closed by its kickoff alone. A chain bet mined at
     * or after min(closed_at, kickoff_at) is rejected (EVENT_CLOSED).
     */
    closedAt: ts("closed_at"),
    createdAt: createdAt(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("events_open_idx").on(t.status, t.kickoffAt, t.id),
    check("events_status_check", sql`${t.status} in ('scheduled','live','finished','cancelled')`),
  ],
);

/**
 * The append-only SP ledger. Nothing updates or deletes a row; `external_id` makes every source replay-safe. A row
 * is undone only by a compensating row (`reverses_id`: same user, type and event, the opposite amount), at most
 * one per row: e.g. the SP of an on-chain bet whose block a reorganisation removed.
 */
export const spLedger = pgTable(
  "sp_ledger",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "bigint" })
      .notNull()
      .references(() => users.id),
    type: text("type").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    eventId: text("event_id").references(() => events.id),
    externalId: text("external_id").notNull(),
    reversesId: bigint("reverses_id", { mode: "bigint" }).references((): AnyPgColumn => spLedger.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sp_ledger_external_id_key").on(t.externalId),
    // Partial: nearly every row has no reverses_id, and a null entry in the index was a write per row for nothing.
    uniqueIndex("sp_ledger_reverses_key").on(t.reversesId).where(sql`${t.reversesId} is not null`),
    index("sp_ledger_user_idx").on(t.userId, t.id),
    index("sp_ledger_event_idx").on(t.eventId),
    check(
      "sp_ledger_type_check",
      sql`${t.type} in ('PREDICTION','WARMUP_PREDICTION','ONCHAIN_PREDICTION','ONCHAIN_SP','REFERRAL','RAFFLE','ADJUSTMENT')`,
    ),
    check(
      "sp_ledger_amount_check",
      sql`${t.amount} >= 0 or ${t.type} = 'ADJUSTMENT' or ${t.reversesId} is not null`,
    ),
  ],
);

/**
 * All-time SP per user, kept exact by the ledger in the same statement as each row (a row appears with a user's
 * first SP entry). A table of its own, not a column of `users`: an update of a users row rewrites all seven of its
 * indexes (never a HOT update, the total being indexed), so a settle's 50,000 totals cost 2.4 s at 1M players; here
 * 0.4 s (docs/performance.md, "Session 4"). The (total_sp desc, user_id) index serves the all-time ladder.
 */
export const userSpTotals = pgTable(
  "user_sp_totals",
  {
    userId: bigint("user_id", { mode: "bigint" })
      .primaryKey()
      .references(() => users.id),
    totalSp: bigint("total_sp", { mode: "number" }).notNull().default(0),
  },
  (t) => [index("user_sp_totals_rank_idx").on(t.totalSp.desc(), t.userId)],
);

/**
 * Competitive SP per (week, user), kept exact by the ledger in the same transaction as each row.
 * The (week, sp desc, user_id) index serves a ladder page and the count above one player.
 */
export const weekUserSp = pgTable(
  "week_user_sp",
  {
    week: integer("week").notNull(),
    userId: bigint("user_id", { mode: "bigint" })
      .notNull()
      .references(() => users.id),
    sp: bigint("sp", { mode: "number" }).notNull(),
    /** Transaction that last changed the row: the rank caches of every instance follow changes by it. */
    changedXid: xid8("changed_xid").notNull().default(sql`pg_current_xact_id()`),
  },
  (t) => [
    primaryKey({ columns: [t.week, t.userId] }),
    index("week_user_sp_rank_idx").on(t.week, t.sp.desc(), t.userId),
    index("week_user_sp_changed_idx").on(t.changedXid),
  ],
);

/** CompetitionWeek: one row per finalized week, with the finalize result as served. */
export const competitionWeeks = pgTable("competition_weeks", {
  week: integer("week").primaryKey(),
  finalizedAt: ts("finalized_at").notNull(),
  /** numeric: a sum of fees, unbounded by 64 bits (migration 0008). */
  poolMicro: numeric("pool_micro", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
  result: jsonb("result").notNull(),
});

/** CompetitionLeaderboardSnapshot: one row per ladder row of a finalized week; reads of that week come from here. */
export const competitionLeaderboardSnapshots = pgTable(
  "competition_leaderboard_snapshots",
  {
    week: integer("week").notNull(),
    ladder: text("ladder").notNull(),
    position: integer("position").notNull(),
    /** No foreign key: copied from week_user_sp (which has one) in finalize's transaction (migration 0011). */
    userId: bigint("user_id", { mode: "bigint" }).notNull(),
    competitiveSp: bigint("competitive_sp", { mode: "number" }).notNull(),
    rank: integer("rank").notNull(),
    withinCutoff: boolean("within_cutoff").notNull(),
    prizeMicro: numeric("prize_micro", { precision: 78, scale: 0, mode: "bigint" }),
  },
  // List-partitioned by week, one partition per finalized week (migration 0019, which drizzle cannot declare):
  // unique indexes rather than a primary key, whose partitions' inherited constraints pg_restore --clean cannot drop.
  // The varying column first (migration 0020): in a week's own table `week` and `ladder` are the same on every
  // row, and leading with them made each comparison of finalize's index builds compare all three columns.
  (t) => [
    uniqueIndex("competition_snapshots_position_key").on(t.position, t.ladder, t.week),
    uniqueIndex("competition_snapshots_user_key").on(t.userId, t.ladder, t.week),
    check("competition_snapshots_ladder_check", sql`${t.ladder} in ('qualification','champions')`),
  ],
);

/** CompetitionEligibility: who may play Champions week `week`, stored when week−1 is finalized. */
export const competitionEligibility = pgTable(
  "competition_eligibility",
  {
    week: integer("week").notNull(),
    userId: bigint("user_id", { mode: "bigint" })
      .notNull()
      .references(() => users.id),
    via: text("via").notNull(),
    sourceWeek: integer("source_week").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.week, t.userId] }),
    check("competition_eligibility_via_check", sql`${t.via} in ('qualification','champions')`),
  ],
);

/**
 * On-chain protocol (house) fees; one record per (txHash, logIndex). Records of the fee indexer carry the chain,
 * the emitting contract and the block they were read from, so a reorganisation can remove them; records of the
 * feed API have none of these.
 */
export const protocolFees = pgTable(
  "protocol_fees",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    amountMicro: bigint("amount_micro", { mode: "bigint" }).notNull(),
    occurredAt: ts("occurred_at").notNull(),
    chainId: integer("chain_id"),
    /** Lower-case address of the contract that emitted the fee event. */
    contract: text("contract"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    blockHash: text("block_hash"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("protocol_fees_tx_log_key").on(t.txHash, t.logIndex),
    index("protocol_fees_occurred_idx").on(t.occurredAt),
    index("protocol_fees_block_idx")
      .on(t.chainId, t.contract, t.blockNumber)
      .where(sql`${t.blockNumber} is not null`),
  ],
);

/** Single-use sign-in nonces. */
export const authNonces = pgTable("auth_nonces", {
  nonce: text("nonce").primaryKey(),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
});

/** Server-side record of each session JWT (by jti), so logout revokes it. */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: bigint("user_id", { mode: "bigint" })
      .notNull()
      .references(() => users.id),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    createdAt: createdAt(),
    /**
     * The transaction that last changed the row (set by a trigger on every UPDATE, e.g. a revocation): the
     * session change feed that lets every instance cache active sessions (src/auth/session-cache.ts).
     */
    changedXid: xid8("changed_xid"),
  },
  (t) => [
    index("sessions_user_idx").on(t.userId),
    index("sessions_changed_xid_idx").on(t.changedXid).where(sql`${t.changedXid} is not null`),
  ],
);

/** The append-only free-credits ledger; `external_id` makes every grant, stake and payout happen once. */
export const creditsLedger = pgTable(
  "credits_ledger",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "bigint" })
      .notNull()
      .references(() => users.id),
    reason: text("reason").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    externalId: text("external_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("credits_ledger_external_id_key").on(t.externalId),
    index("credits_ledger_user_idx").on(t.userId, t.id),
    check(
      "credits_ledger_reason_check",
      sql`${t.reason} in ('WELCOME','DAILY','STAKE','PAYOUT','ADJUSTMENT')`,
    ),
  ],
);

/** Predictions of both versions: v1 stakes free credits, v2 reports a USDC bet placed on-chain. */
export const predictions = pgTable(
  "predictions",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint("user_id", { mode: "bigint" })
      .notNull()
      .references(() => users.id),
    version: integer("version").notNull(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    market: text("market").notNull(),
    outcome: text("outcome").notNull(),
    oddsMilli: bigint("odds_milli", { mode: "bigint" }).notNull(),
    stake: bigint("stake", { mode: "number" }),
    stakeMicro: bigint("stake_micro", { mode: "bigint" }),
    status: text("status").notNull(),
    payout: bigint("payout", { mode: "number" }),
    payoutMicro: bigint("payout_micro", { mode: "bigint" }),
    claimedAt: ts("claimed_at"),
    placedAt: ts("placed_at").notNull(),
    settledAt: ts("settled_at"),
    txHash: text("tx_hash"),
    chainId: integer("chain_id"),
    /** v2 from the chain: index (in its block) of the BetPlaced log that is the bet; null for a trusted report. */
    logIndex: integer("log_index"),
    /** v2 from the chain: lower-case address of the betting contract, and the block the log was read from. */
    contract: text("contract"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    blockHash: text("block_hash"),
    /** v2 from the chain: the EIP-712 digest of the quote the bet was placed with (bet_quotes). */
    quoteDigest: text("quote_digest"),
    /** Set when the bet's block left the canonical chain: the bet is rejected and no longer holds its log's key. */
    orphanedAt: ts("orphaned_at"),
    /** Why a rejected prediction was rejected: a machine code (EVENT_CLOSED, QUOTE_INVALID, REORGANISED, …). */
    rejectCode: text("reject_code"),
    /** The same in words, for people. */
    rejectReason: text("reject_reason"),
    idempotencyKey: text("idempotency_key"),
    /** v1: the credits balance right after the stake, so an idempotent replay returns the first answer. */
    balanceAfter: bigint("balance_after", { mode: "number" }),
  },
  (t) => [
    index("predictions_user_idx").on(t.userId, t.id),
    // The open predictions of an event (what a settle reads and settles). Partial: a settled row's new version
    // is not entered here, so settling 100,000 predictions writes two index entries per row, not four (the
    // update cannot be HOT: status is in this and other indexes' predicates; docs/performance.md).
    index("predictions_open_event_idx").on(t.eventId).where(sql`${t.status} = 'open'`),
    // One live v2 prediction per BetPlaced log (chain, tx, log index) ...
    uniqueIndex("predictions_chain_tx_log_key")
      .on(t.chainId, t.txHash, t.logIndex)
      .where(sql`${t.version} = 2 and ${t.orphanedAt} is null`),
    // ... and one per reported transaction no log backs (CHAIN_VERIFIER=none or trust): it holds the hash.
    uniqueIndex("predictions_reported_tx_key")
      .on(t.txHash)
      .where(sql`${t.version} = 2 and ${t.logIndex} is null and ${t.orphanedAt} is null`),
    index("predictions_chain_block_idx")
      .on(t.chainId, t.contract, t.blockNumber)
      .where(sql`${t.blockNumber} is not null and ${t.orphanedAt} is null`),
    index("predictions_pending_idx").on(t.id).where(sql`${t.status} = 'pending'`),
    // The v2 bets whose payout is owed and unpaid (solvency: the liabilities a voucher must not exceed).
    index("predictions_owed_idx")
      .on(t.contract)
      .where(
        sql`${t.version} = 2 and ${t.claimedAt} is null and ${t.orphanedAt} is null and ${t.status} in ('won','void','rejected')`,
      ),
    index("predictions_quote_digest_idx").on(t.quoteDigest).where(sql`${t.quoteDigest} is not null`),
    // Partial: a row without a key (never in conflict: nulls are distinct) has no entry to write when settled.
    uniqueIndex("predictions_idempotency_key")
      .on(t.userId, t.version, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} is not null`),
    check("predictions_status_check", sql`${t.status} in ('pending','open','won','lost','void','rejected')`),
    check(
      "predictions_version_check",
      sql`(${t.version} = 1 and ${t.stake} > 0) or (${t.version} = 2 and ${t.stakeMicro} > 0 and ${t.txHash} is not null)`,
    ),
  ],
);

/**
 * Version-2 quotes the service signed: a price for one bettor, market and outcome until `expires_at`, keyed by the
 * EIP-712 digest the contract verifies. A BetPlaced log counts only when its quote is here (the digest of the log's
 * fields is), signed by `signer`: that is how the service knows the bet's event, market and outcome keys.
 */
export const betQuotes = pgTable("bet_quotes", {
  digest: text("digest").primaryKey(),
  userId: bigint("user_id", { mode: "bigint" })
    .notNull()
    .references(() => users.id),
  /** Lower-case addresses. */
  bettor: text("bettor").notNull(),
  chainId: integer("chain_id").notNull(),
  contract: text("contract").notNull(),
  signer: text("signer").notNull(),
  eventId: text("event_id")
    .notNull()
    .references(() => events.id),
  market: text("market").notNull(),
  outcome: text("outcome").notNull(),
  marketId: text("market_id").notNull(),
  outcomeIndex: integer("outcome_index").notNull(),
  oddsMilli: bigint("odds_milli", { mode: "bigint" }).notNull(),
  expiresAt: ts("expires_at").notNull(),
  signature: text("signature").notNull(),
  createdAt: createdAt(),
});

/** USDC payout claims of won or void version-2 predictions: one per prediction. */
export const usdcClaims = pgTable("usdc_claims", {
  predictionId: bigint("prediction_id", { mode: "bigint" })
    .primaryKey()
    .references(() => predictions.id),
  userId: bigint("user_id", { mode: "bigint" })
    .notNull()
    .references(() => users.id),
  amountMicro: bigint("amount_micro", { mode: "bigint" }).notNull(),
  createdAt: createdAt(),
});

/**
 * Payout vouchers the service signed (SPEC §10): one per version-2 prediction, re-signed with a new deadline when
 * the previous one expired unused. `nonce` is the bet's quote digest: the betting contract pays a nonce once, so a
 * bet the service recorded twice (a reorganisation) is still paid once.
 */
export const payoutVouchers = pgTable(
  "payout_vouchers",
  {
    predictionId: bigint("prediction_id", { mode: "bigint" })
      .primaryKey()
      .references(() => predictions.id),
    userId: bigint("user_id", { mode: "bigint" })
      .notNull()
      .references(() => users.id),
    chainId: integer("chain_id").notNull(),
    /** Lower-case addresses: the betting contract that pays, and where the USDC goes. */
    contract: text("contract").notNull(),
    account: text("account").notNull(),
    amountMicro: bigint("amount_micro", { mode: "bigint" }).notNull(),
    nonce: text("nonce").notNull(),
    deadline: ts("deadline").notNull(),
    signature: text("signature").notNull(),
    issuedAt: ts("issued_at").notNull(),
  },
  (t) => [index("payout_vouchers_nonce_idx").on(t.nonce)],
);

/**
 * PayoutClaimed logs of the betting contract, read from final blocks by the payout indexer; one per log. A
 * prediction is `claimed` once a row with its nonce is here. Rows above a fork are deleted after a reorganisation.
 */
export const chainPayouts = pgTable(
  "chain_payouts",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    chainId: integer("chain_id").notNull(),
    contract: text("contract").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    nonce: text("nonce").notNull(),
    account: text("account").notNull(),
    /** The prediction id the voucher named (as the chain says it: not trusted for anything but display). */
    predictionRef: numeric("prediction_ref", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    amountMicro: numeric("amount_micro", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    paidAt: ts("paid_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("chain_payouts_chain_tx_log_key").on(t.chainId, t.txHash, t.logIndex),
    index("chain_payouts_nonce_idx").on(t.nonce),
    index("chain_payouts_block_idx").on(t.chainId, t.contract, t.blockNumber),
  ],
);

/** One row per drawn daily raffle: the recorded seed makes the pick verifiable. */
export const dailyRaffles = pgTable("daily_raffles", {
  day: text("day").primaryKey(),
  seed: text("seed").notNull(),
  eligibleCount: integer("eligible_count").notNull(),
  winnerUserId: bigint("winner_user_id", { mode: "bigint" }).references(() => users.id),
  prizeSp: integer("prize_sp").notNull(),
  drawnAt: ts("drawn_at").notNull(),
});

/**
 * Progress of the chain indexers: per cursor name (e.g. "fees:<chainId>:<contract>"), the first block not yet
 * indexed. Advanced in the same transaction as the rows indexed from the blocks before it.
 */
export const chainCursors = pgTable("chain_cursors", {
  name: text("name").primaryKey(),
  nextBlock: bigint("next_block", { mode: "bigint" }).notNull(),
  updatedAt: ts("updated_at").notNull(),
});

/**
 * Blocks an indexer has read, per cursor name: the last block of each stored range, with its hash and time. The
 * newest is re-checked against the chain on every run (a different hash means a reorganisation: everything read
 * above the newest block that still matches is rolled back), and its time says how far the index reaches.
 */
export const chainBlocks = pgTable(
  "chain_blocks",
  {
    name: text("name").notNull(),
    number: bigint("number", { mode: "bigint" }).notNull(),
    hash: text("hash").notNull(),
    blockTime: ts("block_time").notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.number] })],
);

/**
 * The Merkle tree of a finalized week's Champions prizes (competition/prize-tree.ts): its root (null without a
 * leaf), the sum of its leaves, the leaves `[{userId, account, amountMicro, carriedMicro}]`, the winners without a
 * wallet `[{userId, amountMicro}]` and the earlier weeks' awaiting prizes it pays `[{fromWeek, userId, amountMicro}]`.
 * Stored once, never changed.
 */
export const prizeTrees = pgTable("prize_trees", {
  week: integer("week")
    .primaryKey()
    .references(() => competitionWeeks.week),
  root: text("root"),
  totalMicro: numeric("total_micro", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
  leaves: jsonb("leaves").notNull(),
  awaitingWallet: jsonb("awaiting_wallet").notNull(),
  carried: jsonb("carried").notNull(),
  createdAt: createdAt(),
});

/**
 * PrizeClaimed logs of the prize distributor, read from final blocks by the chain job runner; one per log.
 * `account` lower-case; rows above a fork are deleted after a reorganisation.
 */
export const prizeClaims = pgTable(
  "prize_claims",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    chainId: integer("chain_id").notNull(),
    contract: text("contract").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    week: integer("week").notNull(),
    account: text("account").notNull(),
    amountMicro: numeric("amount_micro", { precision: 78, scale: 0, mode: "bigint" }).notNull(),
    claimedAt: ts("claimed_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("prize_claims_chain_tx_log_key").on(t.chainId, t.txHash, t.logIndex),
    index("prize_claims_week_account_idx").on(t.week, t.account),
    index("prize_claims_block_idx").on(t.chainId, t.contract, t.blockNumber),
  ],
);

/**
 * The domain-event outbox (src/domain-events/): one row per thing that happened (an event settled, a prediction
 * settled, a week finalized), written in the same transaction as the change. `xid` is the writing transaction:
 * consumers read in (xid, id) order below the snapshot's xmin, so rows committing out of id order are never
 * skipped. `user_id` marks an event private to that player (a live stream shows it to them only).
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    type: text("type").notNull(),
    payload: jsonb("payload").notNull(),
    userId: bigint("user_id", { mode: "bigint" }),
    xid: xid8("xid").notNull().default(sql`pg_current_xact_id()`),
    createdAt: createdAt(),
  },
  // No index on created_at: it would slow down every settle's many inserts; the hourly prune scans the table.
  (t) => [index("domain_events_xid_idx").on(t.xid, t.id)],
);

/** Where each consumer of the outbox stands: the (xid, id) of the last event it has taken in. */
export const domainEventCursors = pgTable("domain_event_cursors", {
  name: text("name").primaryKey(),
  xid: xid8("xid").notNull(),
  eventId: bigint("event_id", { mode: "bigint" }).notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Webhook subscriptions (SPEC §11): `events` null means every type; `secret` is `whsec_` + base64. */
export const webhookSubscriptions = pgTable("webhook_subscriptions", {
  id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
  url: text("url").notNull(),
  events: text("events").array(),
  secret: text("secret").notNull(),
  createdAt: createdAt(),
});

/**
 * One webhook message per (subscription, domain event): the exact body sent on every attempt under the same
 * `message_id` (the `webhook-id` header). `locked_until` is the lease of the instance delivering it right now.
 */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    messageId: text("message_id").notNull(),
    subscriptionId: bigint("subscription_id", { mode: "bigint" })
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    eventId: bigint("event_id", { mode: "bigint" }).notNull(),
    type: text("type").notNull(),
    body: text("body").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: ts("next_attempt_at"),
    lockedUntil: ts("locked_until"),
    deliveredAt: ts("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_messages_message_id_key").on(t.messageId),
    uniqueIndex("webhook_messages_subscription_event_key").on(t.subscriptionId, t.eventId),
    index("webhook_messages_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_messages_subscription_idx").on(t.subscriptionId, t.id),
    check("webhook_messages_status_check", sql`${t.status} in ('pending','delivered','failed')`),
  ],
);

/**
 * What each chain indexer saw on its last successful run: the chain's newest final block and the first block it
 * has not indexed yet. Every instance reads its lag from here (metrics, /readyz), not only the one that indexes.
 */
export const indexerChecks = pgTable("indexer_checks", {
  indexer: text("indexer").primaryKey(),
  finalHead: bigint("final_head", { mode: "bigint" }),
  nextBlock: bigint("next_block", { mode: "bigint" }),
  /** Time of the newest block the indexer has stored (null before its first range). */
  indexedThrough: ts("indexed_through"),
  checkedAt: ts("checked_at").notNull(),
});
