/**
 * Whether an error means a dependency (the database) is down, stalled or saturated rather than that the request
 * is wrong: the edge answers those with 503 SERVICE_UNAVAILABLE and retry-after instead of 500 INTERNAL.
 *
 * Recognised, on the error or any of its causes (Drizzle wraps the driver error in `cause`):
 * - socket errors (`ECONNREFUSED`, `ECONNRESET`, `ETIMEDOUT`, `EPIPE`, `ENOTFOUND`, `EHOSTUNREACH`, `EAI_AGAIN`);
 * - PostgreSQL SQLSTATEs of class 08 (connection exception), 53 (insufficient resources), 57P01–57P03 (the server
 *   shutting down or starting), 57014 (statement_timeout cancelled the query), and 40001 / 40P01 (a serialization
 *   failure or deadlock that outlasted the retries of db/client.ts: the same request will likely pass later);
 * - node-postgres's own timeouts and lost connections, which carry no code, only their fixed messages: the driver
 *   gives nothing else to tell them by, so they are listed here once.
 */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "EAI_AGAIN",
]);
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "57014", "40001", "40P01"]);
const SQLSTATE_CLASSES = ["08", "53"];
/** node-postgres's messages of a connection it gave up on (query_timeout) or lost: no code to tell them by. */
const PG_CONNECTION_LOST_MESSAGES = [
  "Query read timeout",
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "Client has encountered a connection error and is not queryable",
];
/** Those, and the pool's wait for a free connection running out. */
const PG_DRIVER_MESSAGES = [...PG_CONNECTION_LOST_MESSAGES, "timeout exceeded when trying to connect"];

export function isDependencyUnavailable(err: unknown): boolean {
  return someCause(err, (code, message) => {
    if (code !== null) {
      if (SOCKET_CODES.has(code) || SQLSTATES.has(code)) return true;
      if (code.length === 5 && SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
    }
    return message !== null && PG_DRIVER_MESSAGES.some((m) => message.startsWith(m));
  });
}

/** The server ended the session: admin shutdown (57P01), crash shutdown (57P02). Class 08 is tested apart. */
const SESSION_ENDED_SQLSTATES = new Set(["57P01", "57P02"]);

/**
 * Whether an error (or any of its causes) means that the connection it came from can no longer be trusted: a
 * socket error, the server ending the session, or the client giving up on a statement the server may still be
 * running (query_timeout). Such a connection is closed rather than given back to the pool (pool-transactions.ts).
 */
export function isConnectionLost(err: unknown): boolean {
  return someCause(err, (code, message) => {
    if (
      code !== null &&
      (SOCKET_CODES.has(code) || SESSION_ENDED_SQLSTATES.has(code) || code.startsWith("08"))
    )
      return true;
    return message !== null && PG_CONNECTION_LOST_MESSAGES.some((m) => message.startsWith(m));
  });
}

/** Whether `test` holds for the error or one of its first causes (Drizzle wraps the driver's error in `cause`). */
function someCause(err: unknown, test: (code: string | null, message: string | null) => boolean): boolean {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (test(typeof code === "string" ? code : null, typeof message === "string" ? message : null))
      return true;
    e = cause;
  }
  return false;
}
