/**
 * Request validation: JSON bodies are checked as sent (no type coercion: `"10"` is not a number, `true` is not
 * 1), while query strings, params and headers, which are text on the wire, are coerced to their schema types.
 * Unknown properties are errors, never silently dropped.
 *
 * Two checks hold for every route, whatever its schema says:
 * - no string of the query, params or body (value or key, at any depth) holds a NUL character: PostgreSQL text
 *   cannot store one, so it is refused with 400 VALIDATION_FAILED naming the field, before the route runs;
 * - a `date-time` is also refused when the instant it names, once its offset is applied, falls outside the UTC
 *   years 0001–9999 ("9999-12-31T23:59:59-14:00" is in year 10000), which JavaScript and PostgreSQL do not agree on.
 */
import { Ajv, type FormatDefinition } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifyInstance } from "fastify";
import { AppError } from "../errors.js";

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** True when the instant `s` names lies in the UTC years 0001–9999. */
export function inUtcYearRange(s: string): boolean {
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) return false;
  const year = new Date(ms).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    removeAdditional: false,
    coerceTypes,
    allErrors: false,
    useDefaults: true,
    strict: false,
  });
  addFormats(ajv);
  const base = ajv.formats["date-time"] as FormatDefinition<string>;
  ajv.addFormat("date-time", {
    type: "string",
    validate: (s: string) => (base.validate as (s: string) => boolean)(s) && inUtcYearRange(s),
  });
  return ajv;
}

/** The dotted path of the first string (or key) holding a NUL character in `value`, or null. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (value === null || typeof value !== "object" || depth > 64) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (key.includes("\u0000")) return at;
    const found = findNul(child, at, depth + 1);
    if (found) return found;
  }
  return null;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? strict : coercing).compile(schema),
  );
  app.addHook("preValidation", async (request) => {
    // Only the parts a route reads (those its schema declares; a write's body always): others are ignored.
    const schema = request.routeOptions.schema ?? {};
    const field =
      (schema.params ? findNul(request.params, "params") : null) ??
      (schema.querystring ? findNul(request.query, "query") : null) ??
      (schema.body || request.body !== undefined ? findNul(request.body, "body") : null);
    if (field) {
      const message = "must not contain a NUL character";
      throw new AppError("VALIDATION_FAILED", `${field} ${message}`, [{ field, message }]);
    }
  });
}
