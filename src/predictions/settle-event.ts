/**
 * Settles an event once: stores its result and settles every open prediction (won / lost / void), writing the
 * SP they earn to the ledger with the event id, so the ladders count them by kickoff. The same result again
 * changes nothing; a different one after settlement is a 409. The same transaction records the domain events
 * (src/domain-events/): `event.settled`, and one `prediction.settled` per prediction it settles.
 */
import { isDeepStrictEqual } from "node:util";
import type { Clock } from "../clock.js";
import type { Db, Tx } from "../db/client.js";
import { recordDomainEvent, recordDomainEventsFrom } from "../domain-events/domain-events.js";
import { AppError } from "../errors.js";
import { bettingClosesAt, closedAtAfter } from "../events/betting-window.js";
import {
  type EventRow,
  lockEvent,
  lockEventAgainstBets,
  type StoredMarket,
  updateEvent,
} from "../events/events.js";
import { appendSpEntries, appendSpEntriesFrom, type NewSpEntry } from "../ledger/ledger.js";
import { elapsedMs, type OpLog } from "../shared/op-log.js";
import type { Season } from "../shared/season.js";
import {
  markSettled,
  openPredictionKinds,
  type PredictionKind,
  type PredictionRow,
  type SettledKind,
  type SettledValues,
  settledAwards,
  settledPredictionEvents,
  settledPredictionEventsOfSettle,
  settleKinds,
} from "./predictions.repository.js";
import { presentEventSettled } from "./presenters.js";
import {
  creditsPayout,
  creditsPredictionSp,
  type EventResult,
  lateChainBet,
  settledStatus,
  usdcPayout,
  usdcPredictionSp,
} from "./settlement.js";

export interface SettleDeps {
  db: Db;
  /** Where the settle transaction runs (one event may hold 100,000 predictions: Database.bulkDb); absent: `db`. */
  bulkDb?: Db;
  clock: Clock;
  season: Season;
  spPerUsdc: number;
  /** Where settleEvent writes its one outcome line; absent: nowhere (CLI, tests). */
  outcomeLog?: OpLog;
}

export type ResultInput =
  | { status: "finished"; winningOutcome: string; winningOutcomes?: Record<string, string> }
  | { status: "cancelled" };

/** The stored result: winners per market. `winningOutcome` is the winner of the event's first (main) market. */
export function toEventResult(event: EventRow, input: ResultInput): EventResult {
  if (input.status === "cancelled") return { status: "cancelled" };
  const markets = event.markets as StoredMarket[];
  const winners: Record<string, string> = { ...(input.winningOutcomes ?? {}) };
  const main = markets[0]!;
  winners[main.key] = input.winningOutcome;
  for (const [market, outcome] of Object.entries(winners)) {
    const m = markets.find((x) => x.key === market);
    if (!m?.outcomes.some((o) => o.key === outcome)) {
      const field = market === main.key ? "body.winningOutcome" : `body.winningOutcomes.${market}`;
      throw new AppError("VALIDATION_FAILED", `${field} ${outcome} is not an outcome of market ${market}`, [
        { field, message: "is not an outcome of this market" },
      ]);
    }
  }
  return { status: "finished", winners };
}

/** Settles one open prediction against a stored result and awards its SP (idempotent per prediction). */
export function settlePrediction(
  tx: Tx,
  deps: Pick<SettleDeps, "season" | "spPerUsdc">,
  p: PredictionRow,
  event: SettledEvent,
  result: EventResult,
  now: Date,
): Promise<void> {
  return settlePredictions(tx, deps, [p], event, result, now);
}

type SettledEvent = Pick<EventRow, "id" | "warmup" | "kickoffAt" | "closedAt">;

/**
 * Settles open predictions of one event against its stored result, set-based: the pure rules decide each
 * one's status, payout and SP (a chain bet mined once betting had closed is rejected instead); one statement marks
 * them all settled and one ledger append (idempotent per prediction on `prediction:<id>`) awards the SP of the won
 * ones.
 */
export async function settlePredictions(
  tx: Tx,
  deps: Pick<SettleDeps, "season" | "spPerUsdc">,
  open: PredictionRow[],
  event: SettledEvent,
  result: EventResult,
  now: Date,
): Promise<void> {
  const settled: SettledValues[] = [];
  const awards: NewSpEntry[] = [];
  const closesAt = bettingClosesAt(event);
  for (const p of open) {
    // A row is a kind of its own: the same rules as the set-based settle (`settleKind`).
    const { settled: values, sp } = settleKind(
      deps,
      { ...p, lateAt: p.placedAt, lateKey: null },
      result,
      closesAt,
    );
    settled.push({ id: p.id, ...values });
    if (sp > 0) {
      awards.push({
        userId: p.userId,
        type: spTypeOf(p.version, event),
        amount: sp,
        eventId: event.id,
        externalId: `prediction:${p.id}`,
      });
    }
  }
  await markSettled(tx, settled, now);
  await appendSpEntries(tx, deps.season, awards);
  // Built in the database from the rows just settled: a settle of 100,000 predictions sends none of them back.
  if (settled.length > 0) {
    await recordDomainEventsFrom(tx, "prediction.settled", settledPredictionEvents(settled.map((s) => s.id)));
  }
}

/** The SP ledger type of a won prediction of `version` on `event`. */
function spTypeOf(version: number, event: Pick<EventRow, "warmup">): NewSpEntry["type"] {
  return version === 1 ? (event.warmup ? "WARMUP_PREDICTION" : "PREDICTION") : "ONCHAIN_PREDICTION";
}

/**
 * What the rules make of one kind of prediction (`lateAt`: when a chain bet of the kind was placed, for the
 * late-bet rejection): its settled status, payout or rejection, and the SP it earns. `settlePredictions` applies it
 * to each row, the set-based settle to each kind.
 */
function settleKind(
  deps: Pick<SettleDeps, "spPerUsdc">,
  kind: PredictionKind,
  result: EventResult,
  closesAt: Date,
): SettledKind {
  const late = kind.lateAt ? lateChainBet({ version: kind.version, placedAt: kind.lateAt }, closesAt) : null;
  if (late)
    return { kind, settled: { status: "rejected", payout: null, payoutMicro: null, rejection: late }, sp: 0 };
  const status = settledStatus(kind, result);
  const v1 = kind.version === 1;
  return {
    kind,
    settled: {
      status,
      payout: v1 ? creditsPayout(kind.stake!, kind.oddsMilli, status) : null,
      payoutMicro: v1 ? null : usdcPayout(kind.stakeMicro!, kind.oddsMilli, status),
    },
    sp: v1
      ? creditsPredictionSp(kind.stake!, kind.oddsMilli, status)
      : usdcPredictionSp(kind.stakeMicro!, kind.oddsMilli, deps.spPerUsdc, status),
  };
}

/**
 * Settles every open prediction of an event (the settlement holds its bet lock and row), set-based by kind: the
 * rules decide once per kind (openPredictionKinds: version, market, outcome, odds, stake, late or not), one
 * statement settles the predictions of every kind (keeping them, with the SP each earns, in the transaction's
 * temporary table), one ledger append from that table awards the SP of the won ones and one insert from it
 * records their `prediction.settled` events. The predictions never reach the process, nor come back from it:
 * 100,000 of them are a few kinds. Returns how many were settled.
 */
async function settleOpenPredictions(
  tx: Tx,
  deps: Pick<SettleDeps, "season" | "spPerUsdc">,
  event: SettledEvent,
  result: EventResult,
  now: Date,
): Promise<number> {
  const closesAt = bettingClosesAt(event);
  const kinds = await openPredictionKinds(tx, event.id, closesAt);
  const settled = await settleKinds(
    tx,
    event.id,
    closesAt,
    kinds.map((k) => settleKind(deps, k, result, closesAt)),
    now,
  );
  if (settled === 0) return 0;
  await appendSpEntriesFrom(
    tx,
    deps.season,
    settledAwards({ v1: spTypeOf(1, event), v2: spTypeOf(2, event) }),
  );
  await recordDomainEventsFrom(tx, "prediction.settled", settledPredictionEventsOfSettle());
  return settled;
}

/**
 * Settles an event (see the file's contract) and logs one line `{op: "settle", eventId, outcome, settled,
 * durationMs}` to `deps.outcomeLog` (outcome `settled`, `already-settled` or the error code).
 */
export async function settleEvent(
  deps: SettleDeps,
  input: { eventId: string; result: ResultInput },
): Promise<{ event: EventRow; settled: number; alreadySettled: boolean }> {
  const startedAt = performance.now();
  try {
    const done = await settleOnce(deps, input);
    deps.outcomeLog?.info(
      {
        op: "settle",
        eventId: input.eventId,
        outcome: done.alreadySettled ? "already-settled" : "settled",
        settled: done.settled,
        durationMs: elapsedMs(startedAt),
      },
      "settle",
    );
    return done;
  } catch (err) {
    const code = err instanceof AppError ? err.code : "INTERNAL";
    const line = { op: "settle", eventId: input.eventId, outcome: code, durationMs: elapsedMs(startedAt) };
    if (err instanceof AppError && err.status < 500) deps.outcomeLog?.info(line, "settle");
    else deps.outcomeLog?.error({ ...line, err }, "settle");
    throw err;
  }
}

async function settleOnce(
  deps: SettleDeps,
  input: { eventId: string; result: ResultInput },
): Promise<{ event: EventRow; settled: number; alreadySettled: boolean }> {
  const now = deps.clock.now();
  return (deps.bulkDb ?? deps.db).transaction(async (tx) => {
    // First: wait for the bets in flight on the event (they hold its bet lock shared); later bets wait for this
    // settlement to commit, then find the event closed.
    await lockEventAgainstBets(tx, input.eventId);
    const event = await lockEvent(tx, input.eventId);
    if (!event) throw new AppError("NOT_FOUND", `Event ${input.eventId} not found`);
    const result = toEventResult(event, input.result);
    if (event.result) {
      if (isDeepStrictEqual(event.result, result)) return { event, settled: 0, alreadySettled: true };
      throw new AppError("CONFLICT", `Event ${event.id} is already settled with a different result`);
    }
    const updated = await updateEvent(tx, event.id, {
      result,
      status: result.status,
      closedAt: closedAtAfter(event, { status: result.status, result: true }, now),
      updatedAt: now,
    });
    // First in the outbox's order, before its predictions: a consumer reading in batches (the live stream) gets
    // the public result with the first batch however many predictions follow.
    await recordDomainEvent(tx, {
      type: "event.settled",
      payload: presentEventSettled({
        eventId: event.id,
        status: result.status,
        winningOutcome: input.result.status === "finished" ? input.result.winningOutcome : null,
        settledAt: now,
      }),
    });
    const settled = await settleOpenPredictions(tx, deps, updated, result, now);
    return { event: updated, settled, alreadySettled: false };
  });
}
