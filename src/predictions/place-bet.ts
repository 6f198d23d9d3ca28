/**
 * Version-1 bets: a stake of free credits on one outcome at the server's current odds. The prediction insert and
 * the credit debit happen in one transaction; the debit is a conditional update, so the balance never goes
 * negative even under many concurrent bets. An Idempotency-Key replays the first answer.
 *
 * No bet is accepted once its event's settlement has begun: the bet holds the event's bet lock shared (an
 * advisory lock, not a row lock, so thousands of bets a second on one event do not queue on the event row) and
 * inserts with the window check in the same statement; settlement takes the lock exclusive before it reads the
 * open predictions. A bet either commits before the settlement reads (and is settled with the others) or reads
 * the event after the settlement committed (EVENT_CLOSED). See docs/decisions.md "Bets and settlement".
 */
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { lockEventForBet } from "../events/events.js";
import { appendCredits } from "../ledger/credits.js";
import { parseOddsMilli } from "../shared/money.js";
import { assertEventOpen, currentOddsMilli } from "./bet-rules.js";
import {
  findByIdempotencyKey,
  insertPredictionIfOpen,
  type PredictionRow,
  setBalanceAfter,
} from "./predictions.repository.js";

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

export async function placeBet(deps: { db: Db; clock: Clock }, input: PlaceBetInput): Promise<BetResult> {
  if (input.idempotencyKey) {
    const earlier = await findByIdempotencyKey(deps.db, input.userId, 1, input.idempotencyKey);
    if (earlier) return replay(earlier, input);
  }
  let expectedMilli: bigint | null = null;
  if (input.expectedOdds !== undefined) {
    try {
      expectedMilli = parseOddsMilli(input.expectedOdds);
    } catch {
      throw new AppError(
        "VALIDATION_FAILED",
        "body.expectedOdds must be decimal odds with at most 3 decimals",
        [{ field: "body.expectedOdds", message: "must be decimal odds above 1 with at most 3 decimals" }],
      );
    }
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const event = await lockEventForBet(tx, input.eventId);
    if (!event) throw new AppError("NOT_FOUND", `Event ${input.eventId} not found`);
    assertEventOpen(event, now);
    const oddsMilli = currentOddsMilli(event.markets, input.market, input.outcome);
    if (expectedMilli !== null && expectedMilli !== oddsMilli) {
      throw new AppError("ODDS_CHANGED", `Odds changed to ${Number(oddsMilli) / 1000}`, {
        currentOdds: Number(oddsMilli) / 1000,
      });
    }
    const inserted = await insertPredictionIfOpen(
      tx,
      {
        userId: input.userId,
        eventId: input.eventId,
        market: input.market,
        outcome: input.outcome,
        oddsMilli,
        stake: input.stake,
        placedAt: now,
        idempotencyKey: input.idempotencyKey ?? null,
      },
      now,
    );
    if (!inserted) {
      // A concurrent request with the same key committed first: answer as it did. Else the event closed between
      // the read and the insert (not possible under the bet lock; the insert's own check is the last word).
      const winner = input.idempotencyKey
        ? await findByIdempotencyKey(tx, input.userId, 1, input.idempotencyKey)
        : null;
      if (!winner) throw new AppError("EVENT_CLOSED", `Event ${input.eventId} is not open for predictions`);
      return replay(winner, input);
    }
    const { balance } = await appendCredits(tx, {
      userId: input.userId,
      reason: "STAKE",
      amount: -input.stake,
      externalId: `stake:${inserted}`,
    });
    return { prediction: await setBalanceAfter(tx, inserted, balance), balance };
  });
}
