/**
 * One owner per table: the capability (a folder under src/) whose files alone may name the table in SQL, through
 * its drizzle table object or in a raw `sql` string. Every other capability reads or writes it by calling the
 * owner's functions. test/capability-imports.test.ts enforces this and that every table of db/schema.ts is listed;
 * docs/architecture.md shows it as a table.
 */
export const TABLE_OWNERS = {
  users: "users",
  auth_nonces: "auth",
  sessions: "auth",
  events: "events",
  sp_ledger: "ledger",
  week_user_sp: "ledger",
  user_sp_totals: "ledger",
  credits_ledger: "ledger",
  predictions: "predictions",
  bet_quotes: "predictions",
  usdc_claims: "predictions",
  payout_vouchers: "predictions",
  chain_payouts: "predictions",
  protocol_fees: "fees",
  competition_weeks: "competition",
  competition_leaderboard_snapshots: "competition",
  competition_eligibility: "competition",
  prize_trees: "competition",
  prize_claims: "competition",
  daily_raffles: "rewards",
  chain_cursors: "chain",
  chain_blocks: "chain",
  indexer_checks: "chain",
  domain_events: "domain-events",
  domain_event_cursors: "domain-events",
  webhook_subscriptions: "webhooks",
  webhook_messages: "webhooks",
} as const satisfies Record<string, string>;

export type TableName = keyof typeof TABLE_OWNERS;

/**
 * The SQL that still names another capability's table, each for a reason (one statement, one snapshot, or one
 * index where two calls would not do). Anything not listed here fails the capability test.
 */
export const SQL_GRANTS: ReadonlyArray<{ capability: string; table: TableName; why: string }> = [
  {
    capability: "ledger",
    table: "users",
    why: "maintains users.credits_balance, and locks the users' rows, in the entry's own statements",
  },
  {
    capability: "ledger",
    table: "events",
    why: "locks the events of SP entries and reads their kickoff week in the same transaction",
  },
  {
    capability: "competition",
    table: "week_user_sp",
    why: "the live ladders count ranks over the per-week SP the ledger maintains (its (week, sp, user_id) index)",
  },
  {
    capability: "competition",
    table: "users",
    why: "the rank cache's change feed reads created and changed profiles (what ladder rows show of them) in the same snapshot as changed SP",
  },
  {
    capability: "leaderboard",
    table: "user_sp_totals",
    why: "the all-time ladder ranks over the maintained totals' (total_sp, user_id) index",
  },
  {
    capability: "leaderboard",
    table: "users",
    why: "a page of the all-time ladder joins its players' names and wallets in the same query",
  },
  {
    capability: "auth",
    table: "users",
    why: "a session and its user are read in one query on every request",
  },
  {
    capability: "predictions",
    table: "events",
    why: "a bet is inserted only while its event is open, in one statement (insert … select from events), without locking the event's row",
  },
];
