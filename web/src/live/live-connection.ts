/**
 * openLiveConnection(): the page's one connection to the live stream, on the browser's own `EventSource` (no
 * library: it already parses the stream, reconnects, and resends the last event's id as `Last-Event-ID` so the
 * server replays what was missed or sends `reset`). What this adds:
 *
 * - **State for the page**: "open", "connecting" (the first connection), or "offline" once the stream has been
 *   down for `offlineAfterMs` (a server restart that reconnects at once shows nothing) or the browser reports
 *   no network.
 * - **Backoff of its own** when the browser gives up (an answer other than a stream, e.g. 503 at the server's
 *   client limit, which closes an EventSource for good), when its own retry (which resumes with `Last-Event-ID`)
 *   fails too (`maxBrowserRetries`), or when a connection fails before it ever opened:
 *   a new EventSource after 1 s, 2 s, 4 s … at most 30 s, randomised (so thousands of pages do not return in
 *   the same second), at once when the browser comes back online. A new EventSource cannot send the
 *   `Last-Event-ID` header: it names the last id received as `?lastEventId=` (the stream takes either), and only
 *   one that has none to name (no event received yet) opens with `resumed: false`, telling the page to refetch.
 *
 * Returns `close()`: ends the connection and every timer (sign-in and sign-out close and open a new one, so the
 * server knows the player: the stream reads the session cookie when it connects).
 */

export type LiveState = "connecting" | "open" | "offline";

export interface LiveConnectionOptions {
  url: string;
  /** Event names to listen to (`odds`, `event`, …). */
  events: readonly string[];
  onMessage(name: string, data: string): void;
  onState(state: LiveState): void;
  /**
   * The stream is open. `resumed`: it continues from the last event received (the server replays what was
   * missed, or sends `reset`); false when it cannot (no event received yet), so what happened meanwhile is lost.
   */
  onOpen(info: { first: boolean; resumed: boolean }): void;
  /** How long the stream may be down before the page says so (default 1.5 s). */
  offlineAfterMs?: number;
  /** Browser retries in a row (each resuming with Last-Event-ID) before taking over with backoff (default 1). */
  maxBrowserRetries?: number;
  /**
   * Where the id of the last event received is kept: pass the same object to the next connection (after a
   * sign-in) and it resumes from there.
   */
  lastEvent?: { id: string | null };
  /** The EventSource constructor (tests pass a fake). */
  EventSourceImpl?: typeof EventSource;
  random?: () => number;
}

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

/** The wait before new connection number `attempt` (0-based): 1 s · 2^attempt, at most 30 s, then 50–100 % of it. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling * (0.5 + random() / 2));
}

export function openLiveConnection(opts: LiveConnectionOptions): () => void {
  const Impl = opts.EventSourceImpl ?? EventSource;
  const offlineAfter = opts.offlineAfterMs ?? 1_500;
  const maxRetries = opts.maxBrowserRetries ?? 1;
  let source: EventSource | null = null;
  let opened = 0; // EventSources that opened at least once
  let attempt = 0; // new EventSources since the stream was last open
  let failures = 0; // failed browser retries in a row, on this EventSource
  let state: LiveState | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | null = null;
  let offlineTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;
  // The id of the last event received, on any EventSource (kept by the caller across connections).
  const last = opts.lastEvent ?? { id: null };

  const setState = (next: LiveState) => {
    if (state === next) return;
    state = next;
    opts.onState(next);
  };
  const clearOfflineTimer = () => {
    if (offlineTimer !== null) clearTimeout(offlineTimer);
    offlineTimer = null;
  };
  const down = () => {
    if (state === "offline" || offlineTimer !== null) return;
    offlineTimer = setTimeout(() => {
      offlineTimer = null;
      if (!closed) setState("offline");
    }, offlineAfter);
  };

  const connect = () => {
    reopenTimer = null;
    if (closed) return;
    // A new EventSource cannot send the Last-Event-ID header: the stream takes it as a query parameter.
    const resumes = last.id !== null;
    const es = new Impl(resumes ? `${opts.url}?lastEventId=${encodeURIComponent(last.id!)}` : opts.url);
    source = es;
    let openedOnce = false;
    es.addEventListener("open", () => {
      if (source !== es) return;
      const first = opened === 0;
      // Resumed when this EventSource sends an id: the one in its URL, or (on the browser's own retry) the last
      // event's. A retry with no event received sends none, and the server starts it afresh: the page refetches.
      const resumed = resumes || (openedOnce && last.id !== null);
      if (!openedOnce) opened++;
      openedOnce = true;
      attempt = 0;
      failures = 0;
      clearOfflineTimer();
      setState("open");
      opts.onOpen({ first, resumed });
    });
    es.addEventListener("error", () => {
      if (source !== es) return;
      if (state !== "offline") down();
      // The browser gave up, or keeps failing, or this EventSource never opened (nothing to resume): a new
      // EventSource after a backoff.
      if (es.readyState === Impl.CLOSED || !openedOnce || ++failures > maxRetries) {
        es.close();
        source = null;
        scheduleReconnect();
      }
    });
    for (const name of opts.events) {
      es.addEventListener(name, (e) => {
        if (source !== es) return;
        const m = e as MessageEvent<string>;
        if (m.lastEventId) last.id = m.lastEventId;
        opts.onMessage(name, m.data ?? "");
      });
    }
  };

  const scheduleReconnect = (delayMs = backoffDelay(attempt++, opts.random)) => {
    if (closed || reopenTimer !== null) return;
    reopenTimer = setTimeout(connect, delayMs);
  };

  const onOffline = () => {
    clearOfflineTimer();
    setState("offline");
  };
  const onOnline = () => {
    // Back on the network: try at once rather than at the end of the backoff.
    if (source === null && reopenTimer !== null) {
      clearTimeout(reopenTimer);
      reopenTimer = null;
      connect();
    }
  };
  globalThis.addEventListener?.("offline", onOffline);
  globalThis.addEventListener?.("online", onOnline);

  setState("connecting");
  connect();

  return () => {
    closed = true;
    source?.close();
    source = null;
    if (reopenTimer !== null) clearTimeout(reopenTimer);
    clearOfflineTimer();
    globalThis.removeEventListener?.("offline", onOffline);
    globalThis.removeEventListener?.("online", onOnline);
  };
}
