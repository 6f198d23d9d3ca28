/**
 * Version-1 bets: a stake of free credits on one outcome at the server's current odds. The prediction insert and
 * the credit debit happen in one transaction; the players' rows are locked and their balances read before the
 * stakes are decided, so the balance never goes negative even under many concurrent bets. An Idempotency-Key
 * replays the first answer.
 *
 * Group commit (`betGroup`, db/group-commit.ts): bets arriving while a group is being committed are committed
 * together in the next transaction, a few statements for the whole group (the events' bet locks, the events, the
 * players' balances, one insert of the predictions, one append of the debits), and each bet is still checked on
 * its own (event open, odds, balance after the bets before it in the group, idempotency) and answered on its own:
 * a bet refused in a group is an answer, not a failure of the group. A group where a row was not inserted though
 * its checks passed (an idempotency key used meanwhile, an event closed under the lock) is rolled back and each of
 * its bets committed again alone, which answers as before (the first bet's answer, or EVENT_CLOSED).
 *
 * No bet is accepted once its event's settlement has begun: the bet holds the event's bet lock shared (an
 * advisory lock, not a row lock, so thousands of bets a second on one event do not queue on the event row) and
 * inserts with the window check in the same statement; settlement takes the lock exclusive before it reads the
 * open predictions. A bet either commits before the settlement reads (and is settled with the others) or reads
 * the event after the settlement committed (EVENT_CLOSED). See docs/decisions.md "Bets and settlement".
 */
import type { Clock } from "../clock.js";
import type { Db, Tx } from "../db/client.js";
import { GroupCommit } from "../db/group-commit.js";
import { AppError } from "../errors.js";
import { type EventRow, lockEventsForBets } from "../events/events.js";
import { appendCreditEntries, lockCreditBalances } from "../ledger/credits.js";
import { parseOddsMilli } from "../shared/money.js";
import { assertEventOpen, currentOddsMilli } from "./bet-rules.js";
import { findByIdempotencyKey, insertOpenPredictions, type PredictionRow } from "./predictions.repository.js";

export interface PlaceBetInput {
  userId: bigint;
  eventId: string;
  market: string;
  outcome: string;
  stake: number;
  expectedOdds?: number;
  idempotencyKey?: string;
}

export interface BetResult {
  prediction: PredictionRow;
  balance: number;
}

/** A bet ready to commit: its odds check parsed, its instant fixed. */
interface PendingBet {
  input: PlaceBetInput;
  expectedMilli: bigint | null;
  now: Date;
}

/** One bet's answer from a group: its result, or the error it is refused with. */
type BetOutcome = { ok: BetResult } | { refused: AppError };

export type BetGroup = GroupCommit<PendingBet, BetOutcome>;

export interface PlaceBetDeps {
  db: Db;
  clock: Clock;
  /** The app's group commit of bets (`betGroup`); absent: each bet in its own transaction. */
  bets?: BetGroup;
}

/**
 * Bets in one transaction at most, and grouped commits running at once (one: fewer, larger groups, a quarter less
 * of PostgreSQL's CPU a bet than with two and as many bets a second, at 100,000 and at 1,000,000 players;
 * docs/performance.md, "Session 16").
 */
const MAX_GROUP_BETS = 500;
const MAX_GROUPS_IN_FLIGHT = 1;

/** The group commit of bets that `placeBet` uses when its deps carry it; the app owns one. */
export function betGroup(db: Db): BetGroup {
  return new GroupCommit(db, commitBets, { maxItems: MAX_GROUP_BETS, maxInFlight: MAX_GROUPS_IN_FLIGHT });
}

function sameBet(p: PredictionRow, input: PlaceBetInput): boolean {
  return (
    p.eventId === input.eventId &&
    p.market === input.market &&
    p.outcome === input.outcome &&
    p.stake === input.stake
  );
}

function replay(p: PredictionRow, input: PlaceBetInput): BetResult {
  if (!sameBet(p, input)) {
    throw new AppError("CONFLICT", "Idempotency-Key was already used for a different bet");
  }
  return { prediction: p, balance: p.balanceAfter ?? 0 };
}

function expectedOddsMilli(input: PlaceBetInput): bigint | null {
  if (input.expectedOdds === undefined) return null;
  try {
    return parseOddsMilli(input.expectedOdds);
  } catch {
    throw new AppError(
      "VALIDATION_FAILED",
      "body.expectedOdds must be decimal odds with at most 3 decimals",
      [{ field: "body.expectedOdds", message: "must be decimal odds above 1 with at most 3 decimals" }],
    );
  }
}

export async function placeBet(deps: PlaceBetDeps, input: PlaceBetInput): Promise<BetResult> {
  if (input.idempotencyKey) {
    const earlier = await findByIdempotencyKey(deps.db, input.userId, 1, input.idempotencyKey);
    if (earlier) return replay(earlier, input);
  }
  const bet: PendingBet = { input, expectedMilli: expectedOddsMilli(input), now: deps.clock.now() };
  const outcome = deps.bets
    ? await deps.bets.submit(bet)
    : (await deps.db.transaction((tx) => commitBets(tx, [bet])))[0]!;
  if ("refused" in outcome) throw outcome.refused;
  return outcome.ok;
}

/** The odds of a bet on `event`, or why it is refused (pure: the event was read under its bet lock). */
function priceBet(bet: PendingBet, event: EventRow | undefined): bigint {
  const { input } = bet;
  if (!event) throw new AppError("NOT_FOUND", `Event ${input.eventId} not found`);
  assertEventOpen(event, bet.now);
  const oddsMilli = currentOddsMilli(event.markets, input.market, input.outcome);
  if (bet.expectedMilli !== null && bet.expectedMilli !== oddsMilli) {
    throw new AppError("ODDS_CHANGED", `Odds changed to ${Number(oddsMilli) / 1000}`, {
      currentOdds: Number(oddsMilli) / 1000,
    });
  }
  return oddsMilli;
}

/** Thrown inside a group whose insert did not take every row: the group commit retries each bet alone. */
class RetryAlone extends Error {}

/**
 * Commits a group of bets (see the file's contract): one answer per bet, in order. Each bet is priced at its own
 * `now`; the insert's window check uses the group's latest (stricter: a bet it leaves out is retried alone).
 */
async function commitBets(tx: Tx, bets: PendingBet[]): Promise<BetOutcome[]> {
  const events = await lockEventsForBets(
    tx,
    bets.map((b) => b.input.eventId),
  );
  const outcomes: Array<BetOutcome | null> = bets.map(() => null);
  const odds = bets.map((b, i) => {
    try {
      return priceBet(b, events.get(b.input.eventId));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcomes[i] = { refused: err };
      return 0n;
    }
  });
  const priced = bets.flatMap((_, i) => (outcomes[i] ? [] : [i]));
  const locked = await lockCreditBalances(
    tx,
    priced.map((i) => bets[i]!.input.userId),
  );
  const balances = new Map(locked);
  // In order: each stake is debited from what the bets before it in the group left.
  const accepted: Array<{ i: number; balanceAfter: number }> = [];
  for (const i of priced) {
    const { userId, stake } = bets[i]!.input;
    const balance = balances.get(userId) ?? 0;
    if (balance < stake) {
      outcomes[i] = { refused: new AppError("INSUFFICIENT_CREDITS", "Not enough credits for this stake") };
      continue;
    }
    balances.set(userId, balance - stake);
    accepted.push({ i, balanceAfter: balance - stake });
  }
  await insertAccepted(tx, bets, odds, accepted, outcomes, locked);
  return outcomes.map((o) => o!);
}

/**
 * Inserts the accepted bets and debits their stakes (`locked`: the balances read under the group's lock, before
 * these debits); fills their outcomes.
 */
async function insertAccepted(
  tx: Tx,
  bets: PendingBet[],
  odds: bigint[],
  accepted: Array<{ i: number; balanceAfter: number }>,
  outcomes: Array<BetOutcome | null>,
  locked: ReadonlyMap<bigint, number>,
): Promise<void> {
  if (accepted.length === 0) return;
  const now = new Date(Math.max(...accepted.map((a) => bets[a.i]!.now.getTime())));
  const stored = await insertOpenPredictions(
    tx,
    accepted.map(({ i, balanceAfter }) => ({
      ...bets[i]!.input,
      oddsMilli: odds[i]!,
      balanceAfter,
      idempotencyKey: bets[i]!.input.idempotencyKey ?? null,
    })),
    now,
  );
  if (stored.some((row) => row === null)) {
    if (bets.length > 1) throw new RetryAlone("a bet of the group was not inserted");
    outcomes[accepted[0]!.i] = await notInserted(tx, bets[accepted[0]!.i]!.input);
    return;
  }
  const inserted = stored as PredictionRow[];
  await appendCreditEntries(
    tx,
    accepted.map(({ i }, k) => ({
      userId: bets[i]!.input.userId,
      reason: "STAKE" as const,
      amount: -bets[i]!.input.stake,
      externalId: `stake:${inserted[k]!.id}`,
    })),
    locked,
  );
  accepted.forEach(({ i, balanceAfter }, k) => {
    outcomes[i] = { ok: { prediction: inserted[k]!, balance: balanceAfter } };
  });
}

/**
 * A lone bet whose insert took no row: a concurrent request with the same key committed first (answer as it did),
 * else its event closed between the read and the insert (not possible under the bet lock; the insert's own check
 * is the last word).
 */
async function notInserted(tx: Tx, input: PlaceBetInput): Promise<BetOutcome> {
  const winner = input.idempotencyKey
    ? await findByIdempotencyKey(tx, input.userId, 1, input.idempotencyKey)
    : null;
  if (!winner)
    return { refused: new AppError("EVENT_CLOSED", `Event ${input.eventId} is not open for predictions`) };
  try {
    return { ok: replay(winner, input) };
  } catch (err) {
    if (err instanceof AppError) return { refused: err };
    throw err;
  }
}
