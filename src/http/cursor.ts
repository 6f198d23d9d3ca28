/** Opaque pagination cursors: base64url JSON. A cursor that does not decode to the expected shape is a 400. */
import { AppError } from "../errors.js";

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeCursor<T>(cursor: string, isValid: (v: unknown) => v is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    value = undefined;
  }
  if (!isValid(value)) {
    throw new AppError("VALIDATION_FAILED", "query.cursor is not a cursor this endpoint issued", [
      { field: "query.cursor", message: "is invalid" },
    ]);
  }
  return value;
}
