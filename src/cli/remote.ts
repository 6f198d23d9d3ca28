/**
 * Sends a CLI command to the server holding the embedded DATA_DIR (its URL is in the DATA_DIR lock), through
 * POST /api/admin/cli with the ADMIN_TOKEN, and returns its JSON output; a refusal is an AppError with the
 * server's code and message. Bounded: a seed may take minutes, nothing waits more than 10.
 */
import { AppError, ERROR_STATUS, type ErrorCode } from "../errors.js";
import type { RunnableCommand } from "./run-command.js";
import { filesOf } from "./run-command.js";

const TIMEOUT_MS = 10 * 60_000;

export async function runOnServer(opts: {
  url: string;
  adminToken: string;
  /** Sent with a `finalize` (the server asks for it as POST /api/competition/finalize does). */
  finalizeSecret: string;
  argv: readonly string[];
  cmd: RunnableCommand;
  readJson: (path: string) => Promise<unknown>;
}): Promise<unknown> {
  const files: Record<string, unknown> = {};
  for (const path of filesOf(opts.cmd)) files[path] = await opts.readJson(path);
  let res: Response;
  try {
    res = await fetch(new URL("/api/admin/cli", opts.url), {
      method: "POST",
      headers: {
        authorization: `Bearer ${opts.adminToken}`,
        "content-type": "application/json",
        ...(opts.cmd.command === "finalize" ? { "x-competition-finalize-secret": opts.finalizeSecret } : {}),
      },
      body: JSON.stringify({ argv: opts.argv, files }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `The server at ${opts.url} did not answer: ${(err as Error).message}`,
    );
  }
  const body = (await res.json().catch(() => null)) as
    | { success: true; data: unknown }
    | { success: false; error: string; code: string }
    | null;
  if (body?.success === true) return body.data;
  const code = body && body.code in ERROR_STATUS ? (body.code as ErrorCode) : "INTERNAL";
  throw new AppError(code, body ? body.error : `The server at ${opts.url} answered ${res.status}`);
}
