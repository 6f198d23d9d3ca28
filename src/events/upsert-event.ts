/**
 * Creates or updates an event and its odds (admin / feed). When the kickoff moves to another competition week,
 * the event's competitive SP moves with it in the same transaction, so the ladders stay exact.
 */
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { moveEventSp } from "../ledger/ledger.js";
import { parseOddsMilli } from "../shared/money.js";
import { type Season, weekIndexAt } from "../shared/season.js";
import { closedAtAfter } from "./betting-window.js";
import { type EventRow, insertEvent, lockEvent, type StoredMarket, updateEvent } from "./events.js";
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
    const existing = await lockEvent(tx, id);
    const values = {
      sport: input.sport,
      league: input.league,
      homeTeam: input.homeTeam,
      awayTeam: input.awayTeam,
      kickoffAt,
      warmup: input.warmup ?? false,
      status: input.status ?? "scheduled",
      closedAt: closedAtAfter(existing, { status: input.status ?? "scheduled" }, now),
      markets,
      oddsUpdatedAt: now,
      updatedAt: now,
    };
    if (!existing) {
      return { event: await insertEvent(tx, { id, ...values }), created: true };
    }
    if (
      existing.result &&
      (values.status !== existing.status || kickoffAt.getTime() !== existing.kickoffAt.getTime())
    ) {
      throw new AppError("CONFLICT", `Event ${id} is settled; its status and kickoff can no longer change`);
    }
    await moveEventSp(
      tx,
      id,
      weekIndexAt(deps.season, existing.kickoffAt),
      weekIndexAt(deps.season, kickoffAt),
    );
    return { event: await updateEvent(tx, id, values), created: false };
  });
}
