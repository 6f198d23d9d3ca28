/**
 * Sends a CLI command to the server holding the embedded DATA_DIR, through POST /api/admin/cli with the
 * ADMIN_TOKEN, and returns its JSON output; a refusal is an AppError with the server's code and message. Bounded:
 * a seed may take minutes, nothing waits more than 10.
 *
 * The server's URL comes from `<DATA_DIR>/sp-writer.lock`, a file anyone who can write there may have left stale
 * or forged, so before the token leaves this process (`verifyHolder`):
 * - the URL must be on this machine's loopback (127.0.0.0/8 or [::1], as an IP: no name to resolve elsewhere);
 * - the server must answer a fresh random challenge with the proof only the lock's holder can compute (an HMAC
 *   with the secret it wrote in that file for this run, over the URL it advertised: data-dir-lock.ts). A stale
 *   file's URL now served by another process, or a forged URL relaying to the real server, fails the check.
 */
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { isIdentityProof, LOCK_FILE, type LockHolder } from "../db/data-dir-lock.js";
import { AppError, ERROR_STATUS, type ErrorCode } from "../errors.js";
import { filesOf, type RunnableCommand } from "./arguments.js";

const TIMEOUT_MS = 10 * 60_000;
/**
 * The holder's answer to the identity challenge, on loopback. Generous: a server that has just started, on a busy
 * machine, answered its first request after more than 5 s in a test run (three test files at once, load ≈ 10).
 */
const VERIFY_TIMEOUT_MS = 20_000;

/** True for an http URL whose host is a loopback IP address. */
export function isLoopbackUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== "http:") return false;
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}

const refused = (why: string) =>
  new AppError(
    "SERVICE_UNAVAILABLE",
    `DATA_DIR is held by another process, ${why}: the admin token was not sent`,
  );

/** Resolves with the holder's URL once it has proven it holds the lock; throws (token unsent) otherwise. */
export async function verifyHolder(holder: LockHolder): Promise<string> {
  const { url, secret } = holder;
  if (!url || !secret) throw refused("which does not say where its API listens (still starting? retry)");
  if (!isLoopbackUrl(url)) throw refused(`whose advertised URL ${url} is not on this machine's loopback`);
  const challenge = randomBytes(32).toString("hex");
  let proof: unknown = null;
  try {
    const res = await fetch(new URL(`/api/cli/identity?challenge=${challenge}`, url), {
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    const body = (await res.json().catch(() => null)) as { data?: { proof?: unknown } } | null;
    proof = body?.data?.proof ?? null;
  } catch (err) {
    throw refused(`and the server it names (${url}) did not answer: ${(err as Error).message}`);
  }
  if (!isIdentityProof(secret, url, challenge, proof)) {
    throw refused(`and the server at ${url} could not prove it holds it (a stale or forged ${LOCK_FILE})`);
  }
  return url;
}

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
