/**
 * Request validation: JSON bodies are checked as sent (no type coercion: `"10"` is not a number, `true` is not
 * 1), while query strings, params and headers, which are text on the wire, are coerced to their schema types.
 * Unknown properties are errors, never silently dropped.
 *
 * Two checks hold for every route, whatever its schema says:
 * - no string of the query, params or body (value or key, at any depth) holds a NUL character (PostgreSQL text
 *   cannot store one) or a lone UTF-16 surrogate (`"\ud800"` is valid JSON but no Unicode text: PostgreSQL
 *   refuses it, or it would be stored as an unpaired code unit no client can decode), so it is refused with 400
 *   VALIDATION_FAILED naming the field, before the route runs;
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

/** Why a string cannot be stored as text, or null when it can. */
function unstorable(s: string): string | null {
  if (s.includes("\u0000")) return "must not contain a NUL character";
  // A lone surrogate: a high one not followed by a low one, or a low one not after a high one.
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)) {
    return "must not contain a lone UTF-16 surrogate";
  }
  return null;
}

/** The dotted path of the first string (or key) in `value` that cannot be stored as text, and why; or null. */
export function findUnstorable(
  value: unknown,
  path: string,
  depth = 0,
): { field: string; message: string } | null {
  if (typeof value === "string") {
    const message = unstorable(value);
    return message ? { field: path, message } : null;
  }
  if (value === null || typeof value !== "object" || depth > 64) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}.${key}`;
    const message = unstorable(key);
    if (message) return { field: at, message };
    const found = findUnstorable(child, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The two validators' Ajv instances, made at the first app and shared by every app of the process. Ajv keeps each
 * schema it compiled by the schema object, and the routes' schemas are module constants: an app built again in
 * the same process (the tests build one or more per file, in workers that keep their modules) reuses the compiled
 * functions instead of compiling them and Ajv's meta-schema again. The options and formats never vary, so a shared validator is the one a new instance would compile.
 */
let shared: { strict: Ajv; coercing: Ajv } | null = null;

export function registerValidation(app: FastifyInstance): void {
  shared ??= { strict: makeAjv(false), coercing: makeAjv(true) };
  const { strict, coercing } = shared;
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? strict : coercing).compile(schema),
  );
  app.addHook("preValidation", async (request) => {
    // Only the parts a route reads (those its schema declares; a write's body always): others are ignored.
    const schema = request.routeOptions.schema ?? {};
    const found =
      (schema.params ? findUnstorable(request.params, "params") : null) ??
      (schema.querystring ? findUnstorable(request.query, "query") : null) ??
      (schema.body || request.body !== undefined ? findUnstorable(request.body, "body") : null);
    if (found) {
      throw new AppError("VALIDATION_FAILED", `${found.field} ${found.message}`, [found]);
    }
  });
}
