/**
 * Ending a dedicated PostgreSQL connection (a leader lock's, a LISTEN's) within a bound: `client.end()` waits for
 * the server to close its side, which a peer that died without a word (a NAT or firewall that forgot the
 * connection) never does. Past the bound the socket is closed without waiting.
 */
import type pg from "pg";

/** How long ending a connection waits for the server's side to close. */
export const END_TIMEOUT_MS = 2000;

/** Ends `client`, or closes its socket when the server has not closed its side within `ms`. Never rejects. */
export async function endWithin(client: pg.Client, ms = END_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = client.end().catch(() => {});
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      // node-postgres has no public way to close a client's socket at once; `connection.stream` is its socket.
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
      resolve();
    }, ms);
    // Never what keeps the process alive.
    timer.unref();
  });
  await Promise.race([ended, late]);
  clearTimeout(timer);
}
