/**
 * Creates or updates an event and its odds (admin / feed). When the kickoff moves to another competition week,
 * the event's competitive SP moves with it in the same transaction, so the ladders stay exact. The same
 * transaction records the live stream's domain events: `event.status_changed` when the event is new or its status
 * changed, `event.odds_changed` when it is new or its markets (odds, outcomes) changed.
 */
import { isDeepStrictEqual } from "node:util";
import type { Clock } from "../clock.js";
import type { Db, Tx } from "../db/client.js";
import { type NewDomainEvent, recordDomainEvents } from "../domain-events/domain-events.js";
import { AppError } from "../errors.js";
import { moveEventSp } from "../ledger/ledger.js";
import { parseOddsMilli } from "../shared/money.js";
import { type Season, weekIndexAt } from "../shared/season.js";
import { closedAtAfter } from "./betting-window.js";
import { type EventRow, insertEvent, lockEvent, type StoredMarket, updateEvent } from "./events.js";
import { presentMarkets } from "./presenters.js";
import type { EventUpsertInput } from "./schema.js";

export interface EventDeps {
  db: Db;
  clock: Clock;
  season: Season;
}

function invalid(field: string, message: string): AppError {
  return new AppError("VALIDATION_FAILED", `${field} ${message}`, [{ field, message }]);
}

/** Odds to integer thousandths; unique market and outcome keys. */
export function toStoredMarkets(markets: EventUpsertInput["markets"]): StoredMarket[] {
  const marketKeys = new Set<string>();
  return markets.map((m, i) => {
    if (marketKeys.has(m.key)) throw invalid(`body.markets.${i}.key`, "is repeated");
    marketKeys.add(m.key);
    const outcomeKeys = new Set<string>();
    return {
      key: m.key,
      outcomes: m.outcomes.map((o, j) => {
        const field = `body.markets.${i}.outcomes.${j}`;
        if (outcomeKeys.has(o.key)) throw invalid(`${field}.key`, "is repeated");
        outcomeKeys.add(o.key);
        let oddsMilli: bigint;
        try {
          oddsMilli = parseOddsMilli(o.odds);
        } catch {
          throw invalid(`${field}.odds`, "must be decimal odds above 1 with at most 3 decimals");
        }
        return { key: o.key, label: o.label, oddsMilli: Number(oddsMilli) };
      }),
    };
  });
}

export async function upsertEvent(
  deps: EventDeps,
  id: string,
  input: EventUpsertInput,
): Promise<{ event: EventRow; created: boolean }> {
  const kickoffAt = new Date(input.kickoffAt);
  const markets = toStoredMarkets(input.markets);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    let existing = await lockEvent(tx, id);
    const valuesAfter = (before: EventRow | null) => ({
      sport: input.sport,
      league: input.league,
      homeTeam: input.homeTeam,
      awayTeam: input.awayTeam,
      kickoffAt,
      warmup: input.warmup ?? false,
      status: input.status ?? "scheduled",
      closedAt: closedAtAfter(before, { status: input.status ?? "scheduled" }, now),
      markets,
      // When the odds (or outcomes) last changed: a PUT of the same markets leaves it.
      oddsUpdatedAt: before && isDeepStrictEqual(before.markets, markets) ? before.oddsUpdatedAt : now,
      updatedAt: now,
    });
    if (!existing) {
      const event = await insertEvent(tx, { id, ...valuesAfter(null) });
      if (event) {
        await recordEventChanges(tx, null, event);
        return { event, created: true };
      }
      // Created meanwhile by another request (two feed instances, a retry): the insert waited for it to commit;
      // this one updates it (before: a 500 on the primary key).
      existing = (await lockEvent(tx, id))!;
    }
    const values = valuesAfter(existing);
    if (
      existing.result &&
      (values.status !== existing.status ||
        kickoffAt.getTime() !== existing.kickoffAt.getTime() ||
        !isDeepStrictEqual(marketKeys(markets), marketKeys(existing.markets as StoredMarket[])))
    ) {
      // Its markets and outcomes too: the stored result names them (the same result posted again is checked
      // against them), and its predictions were settled on them. Odds and labels may still change.
      throw new AppError(
        "CONFLICT",
        `Event ${id} is settled; its status, kickoff, markets and outcomes can no longer change`,
      );
    }
    await moveEventSp(
      tx,
      id,
      weekIndexAt(deps.season, existing.kickoffAt),
      weekIndexAt(deps.season, kickoffAt),
    );
    const event = await updateEvent(tx, id, values);
    await recordEventChanges(tx, existing, event);
    return { event, created: false };
  });
}

/** The keys of an event's markets and of their outcomes, in order. */
function marketKeys(markets: readonly StoredMarket[]): string[][] {
  return markets.map((m) => [m.key, ...m.outcomes.map((o) => o.key)]);
}

/** The live stream's events of an event created (`before` null) or updated. */
async function recordEventChanges(tx: Tx, before: EventRow | null, after: EventRow): Promise<void> {
  const changes: NewDomainEvent[] = [];
  if (!before || before.status !== after.status) {
    changes.push({
      type: "event.status_changed",
      payload: { eventId: after.id, status: after.status, winningOutcome: null },
    });
  }
  const markets = presentMarkets(after.markets);
  if (!before || !isDeepStrictEqual(presentMarkets(before.markets), markets)) {
    changes.push({ type: "event.odds_changed", payload: { eventId: after.id, markets } });
  }
  await recordDomainEvents(tx, changes);
}
