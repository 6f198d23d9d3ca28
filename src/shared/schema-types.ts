/**
 * Request schema building blocks shared by every route, so each input kind is validated one way everywhere.
 * - `IdString`: a user / prediction id, a positive decimal integer of at most 18 digits (ids are bigint
 *   identities; 18 digits stays inside PostgreSQL's bigint, so no valid-looking id can overflow a query).
 * - `InstantString`: an ISO 8601 instant with a zone, years 0001–9999, no leap second (JavaScript cannot represent
 *   23:59:60, PostgreSQL refuses year 0): whatever passes, `new Date()` and the database both accept.
 * - `DAY_PATTERN`: a day `YYYY-MM-DD` (with `format: "date"`), years 0001–9999 for the same reason.
 */
import { type Static, type TSchema, Type } from "typebox";

export const ID_PATTERN = "^[1-9]\\d{0,17}$";
export const INSTANT_PATTERN =
  "^(?!0000)\\d{4}-\\d{2}-\\d{2}T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)$";

/** A UTC day `YYYY-MM-DD`, years 0001–9999 (PostgreSQL refuses year 0, which JavaScript's Date accepts). */
export const DAY_PATTERN = "^(?!0000)\\d{4}-\\d{2}-\\d{2}$";

/** The largest chain id stored: `chain_id` columns are PostgreSQL `integer`. */
export const MAX_CHAIN_ID = 2_147_483_647;

export const IdString = (options: { description?: string } = {}) =>
  Type.String({ pattern: ID_PATTERN, ...options });
export const InstantString = (options: { description?: string } = {}) =>
  Type.String({ format: "date-time", pattern: INSTANT_PATTERN, ...options });

/**
 * `T | null` as a schema. When T has one plain `type` (a string, an integer, an object, …), it is T with `"null"`
 * added to its type list (and to its `enum`), as JSON Schema 2020-12 and OpenAPI 3.1 write it: the response
 * serializer (fast-json-stringify) then writes the value after one `=== null` test. For an `anyOf` it runs the
 * validator on the value to pick the branch, and the failed branch of every null allocates its errors: a tenth
 * of what a ladder page allocated (docs/performance.md, "Session 11"). Any other T gets the `anyOf`: one without
 * a plain `type` (a union, a `$ref`), one with an `$id`, and one with a `title`, which the OpenAPI document names
 * as a component of its own (http/openapi-components.ts) that must stay non-null.
 */
export function Nullable<T extends TSchema>(t: T) {
  const type = (t as { type?: unknown }).type;
  if (typeof type !== "string" || "$id" in t || "title" in t) return Type.Union([t, Type.Null()]);
  const values = (t as { enum?: unknown }).enum;
  return Type.Unsafe<Static<T> | null>({
    ...t,
    type: [type, "null"],
    ...(Array.isArray(values) ? { enum: [...values, null] } : {}),
  });
}

/** One of the given strings, as one `enum` (what a generated client types as a union). */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });

/** One of the given integers, as one `enum`. */
export const IntegerEnum = <const T extends readonly number[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: "integer", enum: [...values] });

/** A USDC amount as served: a non-negative decimal string with exactly 6 decimals. */
export const UsdcString = () => Type.String({ pattern: "^\\d+\\.\\d{6}$", examples: ["1234.500000"] });
