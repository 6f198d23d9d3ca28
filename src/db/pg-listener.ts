/**
 * PostgreSQL `LISTEN channel` on a dedicated connection (a pooled one cannot hold a LISTEN), kept up: a lost
 * connection is reopened after 1 s, then 2, 4 … up to 30 s, and `onNotify` is also called when it comes back (a
 * notification sent while it was down is lost; the caller reads what it may have missed). A connection that died
 * without a word (no RST, no FIN: a NAT or firewall that forgot it) delivers nothing and reports nothing, so the
 * listener asks the server a trivial question every `heartbeatMs` (30 s) and reopens the connection when no answer
 * comes within `queryTimeoutMs` (10 s). Every wait is bounded: connecting, each statement, ending the connection
 * (end-connection.ts). `close()` ends it for good.
 */
import pg from "pg";
import { endWithin } from "./end-connection.js";

export interface PgListener {
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 30_000;
/** Between two checks that the listening connection still answers. */
export const HEARTBEAT_MS = 30_000;
/** The most the LISTEN and each check wait for the server's answer. */
const QUERY_TIMEOUT_MS = 10_000;

export function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
  opts: { connectTimeoutMs?: number; heartbeatMs?: number; queryTimeoutMs?: number } = {},
): PgListener {
  let closed = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let backoff = 1000;
  let checking = false;
  const heartbeat = setInterval(() => {
    const c = client;
    if (!c || checking) return;
    checking = true;
    c.query("select 1")
      // No answer in time: end it; its 'end' schedules the reconnection.
      .catch(() => {
        if (client === c) void endWithin(c);
      })
      .finally(() => {
        checking = false;
      });
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
      query_timeout: opts.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
    });
    c.on("error", () => {});
    c.on("notification", (n) => {
      if (n.channel === channel) onNotify();
    });
    c.on("end", () => {
      if (client === c) client = null;
      schedule();
    });
    try {
      await c.connect();
      await c.query(`listen "${channel.replace(/"/g, '""')}"`);
      if (closed) {
        await endWithin(c);
        return;
      }
      client = c;
      backoff = 1000;
      onNotify();
    } catch {
      await endWithin(c);
      schedule();
    }
  };
  const schedule = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, backoff);
    retryTimer.unref();
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  };
  void connect();
  return {
    close: async () => {
      closed = true;
      clearInterval(heartbeat);
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = null;
      if (c) await endWithin(c);
    },
  };
}
