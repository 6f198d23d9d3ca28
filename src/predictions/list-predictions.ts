/** A user's prediction history, newest first, with each prediction's event; cursor-paginated. */
import type { Db } from "../db/client.js";
import { type EventRow, findEvents } from "../events/events.js";
import { decodeCursor, encodeCursor } from "../http/cursor.js";
import { ID_PATTERN } from "../shared/schema-types.js";
import { listUserPredictions, type PredictionRow } from "./predictions.repository.js";

const ID_RE = new RegExp(ID_PATTERN);

const isIdCursor = (v: unknown): v is { i: string } =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as { i: unknown }).i === "string" &&
  ID_RE.test((v as { i: string }).i);

export async function listPredictions(
  deps: { db: Db },
  input: { userId: bigint; status?: string; limit: number; cursor?: string },
): Promise<{ items: Array<{ prediction: PredictionRow; event: EventRow }>; nextCursor: string | null }> {
  const before = input.cursor ? BigInt(decodeCursor(input.cursor, isIdCursor).i) : undefined;
  const found = await listUserPredictions(deps.db, {
    userId: input.userId,
    status: input.status,
    beforeId: before,
    limit: input.limit + 1,
  });
  const page = found.slice(0, input.limit);
  const byId = await findEvents(deps.db, [...new Set(page.map((p) => p.eventId))]);
  const last = page.at(-1);
  return {
    items: page.map((p) => ({ prediction: p, event: byId.get(p.eventId)! })),
    nextCursor: found.length > input.limit && last ? encodeCursor({ i: String(last.id) }) : null,
  };
}
