/** What the CLI writes: results as JSON on stdout, failures as one line `CODE: message` on stderr. */
// The client alone: the operator's commands need not load the SDK's sign-in (viem).
import { SpApiError } from "@sp/sdk/client";
import { ConfigError } from "../config.js";
import { DataDirLockedError } from "../db/data-dir-lock.js";
import { AppError } from "../errors.js";
import { UsageError } from "./arguments.js";

/** Pretty JSON; bigints (never expected in results) are written as strings rather than crashing. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}

/**
 * One line for any failure: AppError or a refusal of the server (SpApiError) → its code, bad configuration →
 * CONFIG_INVALID, anything else → INTERNAL.
 */
export function errorLine(err: unknown): string {
  const oneLine = (s: string) => s.replace(/\s*\n\s*/g, " ").trim();
  if (err instanceof AppError) return `${err.code}: ${oneLine(err.message)}`;
  if (err instanceof SpApiError) return `${err.code}: ${oneLine(err.message)}`;
  if (err instanceof ConfigError) return `CONFIG_INVALID: ${oneLine(err.message)}`;
  if (err instanceof DataDirLockedError) return `DATA_DIR_LOCKED: ${oneLine(err.message)}`;
  if (err instanceof UsageError) return `USAGE: ${oneLine(err.message)} (see "npm run cli -- help")`;
  const message = err instanceof Error ? err.message || err.name : String(err);
  return `INTERNAL: ${oneLine(message)}`;
}
