/** Read use cases of events: the open-events list (keyset-paginated), one event, its odds. */
import type { Clock } from "../clock.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { decodeCursor, encodeCursor } from "../shared/cursor.js";
import { type EventRow, findEvent, listOpenEvents } from "./events.repository.js";

interface EventCursor {
  k: string;
  i: string;
}
const isEventCursor = (v: unknown): v is EventCursor =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as EventCursor).k === "string" &&
  !Number.isNaN(Date.parse((v as EventCursor).k)) &&
  typeof (v as EventCursor).i === "string";

export async function listAvailableEvents(
  deps: { db: Db; clock: Clock },
  input: { sport?: string; league?: string; from?: string; to?: string; limit: number; cursor?: string },
): Promise<{ items: EventRow[]; nextCursor: string | null }> {
  const after = input.cursor ? decodeCursor(input.cursor, isEventCursor) : undefined;
  const items = await listOpenEvents(deps.db, {
    now: deps.clock.now(),
    sport: input.sport,
    league: input.league,
    from: input.from ? new Date(input.from) : undefined,
    to: input.to ? new Date(input.to) : undefined,
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
