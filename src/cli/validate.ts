/**
 * Checks CLI input against the same typebox schemas the HTTP API validates with, and reports every problem as
 * `{field, message}` (the shape of the API's validation `details`).
 */
import type { Static, TSchema } from "typebox";
import { Value } from "typebox/value";
import { AppError } from "../errors.js";
import { findUnstorable } from "../http/validation.js";

export interface FieldError {
  field: string;
  message: string;
}

/** Every way `value` breaks `schema`, with fields named from `prefix` (e.g. `event.markets.0.key`). */
export function schemaErrors(schema: TSchema, value: unknown, prefix: string): FieldError[] {
  if (Value.Check(schema, value)) {
    // What the API refuses for every route whatever its schema (http/validation.ts): a NUL character or a lone
    // surrogate, which PostgreSQL cannot store (before: an INTERNAL error quoting SQL, or stored as U+FFFD).
    const unstorable = findUnstorable(value, prefix);
    return unstorable ? [{ ...unstorable, field: unstorable.field.replace(/^\./, "") }] : [];
  }
  return Value.Errors(schema, value).map((e) => {
    const path = e.instancePath.replace(/^\//, "").replaceAll("/", ".");
    const field = [prefix, path].filter(Boolean).join(".");
    // typebox reports a property refused by `additionalProperties: false` as a false sub-schema.
    return { field, message: e.keyword === "boolean" ? "is not an allowed property" : e.message };
  });
}

/** One line listing the problems (the CLI prints errors on one line). */
export function describeErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.field} ${e.message}`).join("; ");
}

/** Returns `value` typed by `schema`, or throws VALIDATION_FAILED naming every bad field. */
export function assertValid<T extends TSchema>(schema: T, value: unknown, prefix: string): Static<T> {
  const errors = schemaErrors(schema, value, prefix);
  if (errors.length > 0) throw new AppError("VALIDATION_FAILED", describeErrors(errors), errors);
  return value as Static<T>;
}
