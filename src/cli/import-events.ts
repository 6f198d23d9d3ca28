/**
 * `import-events FILE.json`: a JSON array of `{id, ...event body}`. Every entry is validated first (the admin
 * API's schemas and market rules); any invalid entry imports nothing and the error names each bad entry by its
 * index. Valid files are upserted in one transaction, so a failure part-way also leaves nothing behind.
 * Re-importing the same file changes nothing but the events' odds update time.
 */
import { AppError } from "../errors.js";
import { EventIdParams, EventUpsertBody, type EventUpsertInput } from "../events/schema.js";
import { toStoredMarkets, upsertEvent } from "../events/upsert-event.js";
import { type CliContext, inOneTransaction, seasonOf } from "./cli-context.js";
import { describeErrors, type FieldError, schemaErrors } from "./validate.js";

export interface EventEntry {
  id: string;
  body: EventUpsertInput;
}

/** Checks a whole import document; fields are named `[index].field`. Pure. */
export function validateEventEntries(doc: unknown): { entries: EventEntry[]; errors: FieldError[] } {
  if (!Array.isArray(doc)) {
    return { entries: [], errors: [{ field: "file", message: "must be a JSON array of events" }] };
  }
  const entries: EventEntry[] = [];
  const errors: FieldError[] = [];
  const firstIndexOf = new Map<string, number>();
  doc.forEach((entry: unknown, i) => {
    const at = `[${i}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      errors.push({ field: at, message: "must be an object {id, sport, league, …}" });
      return;
    }
    const { id, ...body } = entry as Record<string, unknown>;
    const found = [...schemaErrors(EventIdParams, { id }, at), ...schemaErrors(EventUpsertBody, body, at)];
    if (typeof id === "string") {
      const first = firstIndexOf.get(id);
      if (first !== undefined)
        found.push({ field: `${at}.id`, message: `is repeated (first at [${first}])` });
      else firstIndexOf.set(id, i);
    }
    if (found.length === 0) {
      try {
        toStoredMarkets((body as EventUpsertInput).markets);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const details = (err.details as FieldError[] | undefined) ?? [
          { field: "body", message: err.message },
        ];
        for (const d of details) found.push({ field: d.field.replace(/^body/, at), message: d.message });
      }
    }
    if (found.length > 0) errors.push(...found);
    else entries.push({ id: id as string, body: body as EventUpsertInput });
  });
  return { entries, errors };
}

export async function importEventsCommand(ctx: CliContext, doc: unknown) {
  const { entries, errors } = validateEventEntries(doc);
  if (errors.length > 0) {
    const summary = Array.isArray(doc)
      ? `${new Set(errors.map((e) => /^\[\d+\]/.exec(e.field)?.[0])).size} of ${doc.length} entries are invalid`
      : "invalid file";
    throw new AppError(
      "VALIDATION_FAILED",
      `${summary}, nothing imported: ${describeErrors(errors)}`,
      errors,
    );
  }
  const season = seasonOf(ctx.config);
  const results = await inOneTransaction(ctx.database.db, async (db) => {
    const out: Array<{ id: string; created: boolean }> = [];
    for (const e of entries) {
      const { created } = await upsertEvent({ db, clock: ctx.clock, season }, e.id, e.body);
      out.push({ id: e.id, created });
    }
    return out;
  });
  const created = results.filter((r) => r.created).length;
  return { total: results.length, created, updated: results.length - created, events: results };
}
