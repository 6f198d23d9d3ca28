/**
 * PostgreSQL `LISTEN channel` on a dedicated connection (a pooled one cannot hold a LISTEN), kept up: a lost
 * connection is reopened after 1 s, then 2, 4 … up to 30 s, and `onNotify` is also called when it comes back (a
 * notification sent while it was down is lost; the caller reads what it may have missed). Every wait is bounded
 * (connect timeout). `close()` ends it for good.
 */
import pg from "pg";

export interface PgListener {
  close(): Promise<void>;
}

const MAX_BACKOFF_MS = 30_000;

export function listenPostgres(
  url: string,
  channel: string,
  onNotify: () => void,
  opts: { connectTimeoutMs?: number } = {},
): PgListener {
  let closed = false;
  let client: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let backoff = 1000;

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
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
        await c.end().catch(() => {});
        return;
      }
      client = c;
      backoff = 1000;
      onNotify();
    } catch {
      await c.end().catch(() => {});
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
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
