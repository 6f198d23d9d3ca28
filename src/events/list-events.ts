/** Read use cases of events: the open-events list (keyset-paginated), one event, its odds. */
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { decodeCursor, encodeCursor } from "../http/cursor.js";
import { type EventRow, findEvent, listOpenEvents } from "./events.js";
import { EVENT_ID_PATTERN } from "./schema.js";

interface EventCursor {
  k: string;
  i: string;
}
const EVENT_ID_RE = new RegExp(EVENT_ID_PATTERN);

/** An instant PostgreSQL can store (years 1..9999); JavaScript dates reach much further. */
const isStorable = (d: Date) =>
  !Number.isNaN(d.getTime()) && d.getUTCFullYear() >= 1 && d.getUTCFullYear() <= 9999;

/** Only what this endpoint issues: `k` an ISO instant as toISOString() writes it, `i` an event id. */
const isEventCursor = (v: unknown): v is EventCursor => {
  if (typeof v !== "object" || v === null) return false;
  const { k, i } = v as Partial<EventCursor>;
  if (typeof k !== "string" || typeof i !== "string" || !EVENT_ID_RE.test(i)) return false;
  const d = new Date(k);
  return isStorable(d) && d.toISOString() === k;
};

/** A `from` / `to` filter as a Date; the schema checked its format, this refuses instants no column holds. */
function filterInstant(name: "from" | "to", value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (!isStorable(d)) {
    throw new AppError("VALIDATION_FAILED", `query.${name} is not a valid instant`, [
      { field: `query.${name}`, message: "is not a valid instant" },
    ]);
  }
  return d;
}

export async function listAvailableEvents(
  deps: { db: Db; clock: Clock },
  input: { sport?: string; league?: string; from?: string; to?: string; limit: number; cursor?: string },
): Promise<{ items: EventRow[]; nextCursor: string | null }> {
  const after = input.cursor ? decodeCursor(input.cursor, isEventCursor) : undefined;
  const items = await listOpenEvents(deps.db, {
    now: deps.clock.now(),
    sport: input.sport,
    league: input.league,
    from: filterInstant("from", input.from),
    to: filterInstant("to", input.to),
    after: after ? { kickoffAt: new Date(after.k), id: after.i } : undefined,
    limit: input.limit + 1,
  });
  const page = items.slice(0, input.limit);
  const last = page.at(-1);
  return {
    items: page,
    nextCursor:
      items.length > input.limit && last
        ? encodeCursor({ k: last.kickoffAt.toISOString(), i: last.id })
        : null,
  };
}

export async function getEvent(deps: { db: Db }, id: string): Promise<EventRow> {
  const event = await findEvent(deps.db, id);
  if (!event) throw new AppError("NOT_FOUND", `Event ${id} not found`);
  return event;
}
