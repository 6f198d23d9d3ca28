/**
 * The live stream's one reader per instance (SPEC §12): it follows the domain-event outbox (src/domain-events/)
 * from the newest event on, and fans every new event out to the local clients it concerns: a public event to
 * every client, a private one (`balance`, `prediction`) only to the connections of its player. No query is made
 * per client, except once when a client reconnects with `Last-Event-ID`.
 *
 * - Stream ids are outbox event ids. A client reconnecting with the id of an event still in the outbox gets what
 *   it missed since (read from the outbox: public events and its own) when the first of it was recorded less than
 *   `replayWindowMs` (5 minutes) ago, nothing when it missed nothing (however quiet the site was), then the live
 *   events; otherwise (missed since longer, unknown, pruned, or more than `MAX_REPLAY_EVENTS` to scan) one
 *   `reset` event: refetch everything. Live events arriving during the replay wait in the connection's
 *   buffer, so nothing is lost or sent twice.
 * - When to read: at each wake-up (`wake()`: the instance's own commits, Redis pub/sub or PostgreSQL NOTIFY from
 *   the others, stream-signals.ts) and every `pollMs` (1 s) whatever happens, so a lost signal delays an event by
 *   a second at most, never loses it; and every 50 ms while committed events wait behind the outbox's watermark
 *   (a wake-up that came before an older transaction ended). The outbox's total order (position = (xid, id)) is
 *   the same on every instance.
 * - A `ladder` event goes out at most once per `ladderIntervalMs` (1 s) per ladder: a change within the interval
 *   is sent at its end, once, whatever the number of changes.
 * - A `: ping` comment every `pingMs` to every client.
 * - A client that does not read (its unsent backlog above `MAX_BACKLOG_BYTES`) is disconnected; it reconnects and
 *   replays.
 * - A new client (no `Last-Event-ID`) gets the events committed after it connected. The reader may still be
 *   behind events committed earlier (the outbox's watermark holds them while an older transaction runs, on any
 *   database of the server): their ids are read once at connect time and skipped for that client, whose page
 *   already shows their effect (one query per new client, at most `MAX_SKIPPED` ids).
 * - The reader starts with the first client (an instance without stream clients makes no query) and stops with
 *   `stop()`, which also ends every stream (graceful shutdown).
 */
import type { Db } from "../db/client.js";
import {
  committedAfter,
  type DomainEvent,
  type EventPosition,
  headPosition,
  positionOf,
  readDomainEvents,
  recentPositionOf,
} from "../domain-events/domain-events.js";
import { AppError } from "../errors.js";
import { streamClients } from "../metrics/app-metrics.js";
import { formatSse, PING, presentStreamMessages, type StreamMessage } from "./presenters.js";

/** One open stream, as the hub sees it. */
export interface StreamClient {
  /** The signed-in player, or null. */
  userId: string | null;
  write(chunk: string): void;
  /** Bytes written but not yet sent to the client. */
  backlogBytes(): number;
  /** Ends the stream (the server stops). */
  end(): void;
  /** Drops a client that stopped reading: its connection closed at once, its unsent bytes discarded. */
  drop(): void;
}

export interface StreamHubOptions {
  db: Db;
  /** Calls `wake` whenever new events may be in the outbox; resolves to its stop function. */
  listen(wake: () => void): Promise<() => Promise<void>>;
  maxClients: number;
  pingMs: number;
  pollMs?: number;
  replayWindowMs?: number;
  ladderIntervalMs?: number;
  log: { warn(obj: object, msg: string): void };
}

/** Outbox events per read: a settle of up to ~10,000 predictions is one read, and one write per client. */
const BATCH = 10_000;
/** A replay that would scan more outbox events than this sends `reset` instead. */
export const MAX_REPLAY_EVENTS = 20_000;
export const MAX_BACKLOG_BYTES = 1024 * 1024;
export const REPLAY_WINDOW_MS = 5 * 60_000;
/** At most this many events committed before a client connected are skipped for it (see the file's contract). */
const MAX_SKIPPED = 1_000;
/** How soon the reader looks again while committed events wait behind the outbox's watermark. */
const HELD_RETRY_MS = 50;

interface Connection {
  client: StreamClient;
  /** While a replay runs: the live messages held back until it ends. */
  held: string[] | null;
  /** Live events at or before this position were already sent (replay from an instance further ahead). */
  seenThrough: EventPosition | null;
  /** Ids of events committed before this client connected that the reader had not dispatched then. */
  skip: Set<string> | null;
  /** Takes it out of the hub (idempotent). */
  remove: () => void;
}

function compare(a: EventPosition, b: EventPosition): number {
  const ax = BigInt(a.xid);
  const bx = BigInt(b.xid);
  if (ax !== bx) return ax < bx ? -1 : 1;
  const ai = BigInt(a.id);
  const bi = BigInt(b.id);
  return ai === bi ? 0 : ai < bi ? -1 : 1;
}

export class StreamHub {
  private readonly opts: Required<StreamHubOptions>;
  private readonly all = new Set<Connection>();
  /** Clients between their admission and their place in `all` (connect awaits in between). */
  private connecting = 0;
  private readonly byUser = new Map<string, Set<Connection>>();
  /** The connections that still skip events committed before they connected. */
  private readonly skipping = new Set<Connection>();
  private readonly ladders = new Map<
    string,
    { lastAt: number; timer: NodeJS.Timeout | null; data: Record<string, unknown> }
  >();
  private position: EventPosition = { xid: "0", id: "0" };
  private starting: Promise<void> | null = null;
  private stopListening: (() => Promise<void>) | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private heldTimer: NodeJS.Timeout | null = null;
  private reading = false;
  private again = false;
  private stopped = false;
  /** While a batch of events is dispatched: what each connection gets, written once at the end. */
  private batch: Map<Connection, string> | null = null;

  constructor(opts: StreamHubOptions) {
    this.opts = { pollMs: 1000, replayWindowMs: REPLAY_WINDOW_MS, ladderIntervalMs: 1000, ...opts };
  }

  /** Clients connected now. */
  get size(): number {
    return this.all.size;
  }

  /** True when one more client would exceed the instance's limit (STREAM_MAX_CLIENTS). */
  full(): boolean {
    return this.all.size + this.connecting >= this.opts.maxClients;
  }

  /**
   * Adds a client (starting the reader if needed); with `lastEventId`, replays what it missed first (see the
   * file's contract). Returns the function that removes it (on disconnect).
   */
  async connect(client: StreamClient, lastEventId: string | null): Promise<() => void> {
    if (this.stopped) throw new AppError("SERVICE_UNAVAILABLE", "The server is shutting down; retry shortly");
    await this.start();
    if (this.full()) {
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        "This instance holds as many live streams as it may; retry shortly",
      );
    }
    // The slot is taken now, before the await: clients connecting at the same moment each see the others.
    this.connecting++;
    let skip: Set<string> | null;
    try {
      skip = lastEventId === null ? await this.committedAhead() : null;
    } finally {
      this.connecting--;
    }
    let removed = false;
    const conn: Connection = {
      client,
      held: lastEventId === null ? null : [],
      seenThrough: null,
      skip,
      remove: () => {
        if (removed) return;
        removed = true;
        this.all.delete(conn);
        this.skipping.delete(conn);
        if (client.userId !== null) {
          const set = this.byUser.get(client.userId);
          set?.delete(conn);
          if (set?.size === 0) this.byUser.delete(client.userId);
        }
        streamClients.dec();
      },
    };
    this.all.add(conn);
    if (skip) this.skipping.add(conn);
    if (client.userId !== null) {
      let set = this.byUser.get(client.userId);
      if (!set) {
        set = new Set();
        this.byUser.set(client.userId, set);
      }
      set.add(conn);
    }
    streamClients.inc();
    if (lastEventId !== null) await this.replay(conn, lastEventId);
    return conn.remove;
  }

  /**
   * Ids of the events committed now that the reader has not dispatched yet (synchronously compared with the
   * reader's position after the query, so an event dispatched meanwhile is not kept); null when there are none.
   */
  private async committedAhead(): Promise<Set<string> | null> {
    const found = await committedAfter(this.opts.db, this.position, MAX_SKIPPED);
    const ahead = found.filter((p) => compare(p, this.position) > 0).map((p) => p.id);
    return ahead.length > 0 ? new Set(ahead) : null;
  }

  /** Reads the outbox now (new events may be there). */
  wake(): void {
    if (this.stopListening === null || this.stopped) return;
    void this.drain();
  }

  /** Stops the reader and ends every stream. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.heldTimer) clearTimeout(this.heldTimer);
    for (const l of this.ladders.values()) if (l.timer) clearTimeout(l.timer);
    for (const conn of this.all) conn.client.end();
    const stop = this.stopListening;
    this.stopListening = null;
    await this.starting?.catch(() => {});
    await stop?.();
  }

  private start(): Promise<void> {
    this.starting ??= (async () => {
      this.position = await headPosition(this.opts.db);
      const stop = await this.opts.listen(() => this.wake());
      if (this.stopped) {
        await stop();
        return;
      }
      this.stopListening = stop;
      this.pollTimer = setInterval(() => this.wake(), this.opts.pollMs);
      this.pingTimer = setInterval(() => this.ping(), this.opts.pingMs);
      this.pollTimer.unref();
      this.pingTimer.unref();
    })().catch((err) => {
      this.starting = null;
      throw err;
    });
    return this.starting;
  }

  private async drain(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    let held = false;
    try {
      do {
        this.again = false;
        for (;;) {
          const read = await readDomainEvents(this.opts.db, { after: this.position, limit: BATCH });
          // Dispatch and the new position together, synchronously: a replay that snapshots the position in
          // between sees either both or neither.
          this.dispatch(read.events);
          if (read.next) this.position = read.next;
          held = read.held;
          if (read.events.length < BATCH || this.stopped) break;
        }
      } while (this.again && !this.stopped);
      // Committed events wait behind an older transaction still running (the outbox's watermark): look again
      // shortly rather than at the next poll, so they leave as soon as it ends.
      if (held && !this.stopped && !this.heldTimer) {
        this.heldTimer = setTimeout(() => {
          this.heldTimer = null;
          this.wake();
        }, HELD_RETRY_MS);
        this.heldTimer.unref();
      }
    } catch (err) {
      this.opts.log.warn(
        { err },
        "stream: reading the domain-event outbox failed; retrying at the next poll",
      );
    } finally {
      this.reading = false;
    }
  }

  private dispatch(events: readonly DomainEvent[]): void {
    // One write per connection per batch (a settle's event, ladder and prediction go out as one chunk): far fewer
    // writes and syscalls when thousands of clients each get several events.
    const batch = new Map<Connection, string>();
    this.batch = batch;
    try {
      this.dispatchEach(events);
    } finally {
      this.batch = null;
      for (const [conn, text] of batch) this.send(conn, text);
    }
  }

  private dispatchEach(events: readonly DomainEvent[]): void {
    for (const event of events) {
      for (const m of presentStreamMessages(event)) {
        if (m.ladderKey) {
          this.ladder(m, event.position);
          continue;
        }
        const text = formatSse(m.name, event.id, m.data);
        const targets = m.userId === null ? this.all : this.byUser.get(m.userId);
        for (const conn of targets ?? []) {
          if (conn.seenThrough && compare(event.position, conn.seenThrough) <= 0) continue;
          if (conn.skip?.has(event.id)) continue;
          this.send(conn, text);
        }
      }
      if (this.skipping.size > 0) this.forgetSkipped(event.id);
    }
  }

  /** Event `id` was dispatched: the clients that skipped it need not remember it any more. */
  private forgetSkipped(id: string): void {
    for (const c of this.skipping) {
      if (!c.skip?.delete(id)) continue;
      if (c.skip.size === 0) {
        c.skip = null;
        this.skipping.delete(c);
      }
    }
  }

  /** A ladder message: now if its ladder sent nothing in the last interval, else once at the interval's end. */
  private ladder(m: StreamMessage, at: EventPosition): void {
    const key = m.ladderKey!;
    let state = this.ladders.get(key);
    if (!state) {
      state = { lastAt: -Infinity, timer: null, data: m.data };
      this.ladders.set(key, state);
    }
    state.data = m.data;
    if (state.timer) return;
    const wait = state.lastAt + this.opts.ladderIntervalMs - Date.now();
    const s = state;
    const emit = (position: EventPosition) => {
      s.timer = null;
      s.lastAt = Date.now();
      const text = formatSse("ladder", position.id, s.data);
      for (const conn of this.all) {
        // Never an id behind what a client has (one that came from an instance further ahead was sent this there):
        // its Last-Event-ID would go back, and its next reconnect replay what it had.
        if (conn.seenThrough && compare(position, conn.seenThrough) <= 0) continue;
        if (conn.skip?.has(position.id)) continue;
        this.send(conn, text);
      }
    };
    if (wait <= 0) emit(at);
    // Sent later: the id is where the reader is then, so a reconnect resumes after what was sent meanwhile.
    else s.timer = setTimeout(() => emit(this.position), wait);
  }

  private send(conn: Connection, text: string): void {
    // Gone (disconnected, or dropped as too slow): a batch or a loop may still name it.
    if (!this.all.has(conn)) return;
    if (this.batch && !conn.held) {
      this.batch.set(conn, (this.batch.get(conn) ?? "") + text);
      return;
    }
    if (conn.held) {
      conn.held.push(text);
      return;
    }
    if (conn.client.backlogBytes() > MAX_BACKLOG_BYTES) {
      // Out of the hub at once, not at its connection's close: nothing more is written to it.
      conn.remove();
      conn.client.drop();
      return;
    }
    conn.client.write(text);
  }

  private ping(): void {
    for (const conn of this.all) if (!conn.held) this.send(conn, PING);
  }

  /** Sends `conn` what it missed after `lastEventId` up to where the reader is, or `reset`; then its held events. */
  private async replay(conn: Connection, lastEventId: string): Promise<void> {
    const upTo = this.position;
    const out: string[] = [];
    let reset = false;
    try {
      // Where the client is, however long ago its last event was: a quiet hour is nothing missed. What it missed
      // is replayed when the first of it is recent (within replayWindowMs); older, it gets `reset`.
      const from = await positionOf(this.opts.db, lastEventId);
      if (!from) reset = true;
      else if (compare(from, upTo) >= 0) conn.seenThrough = from;
      else reset = !(await this.collectMissed(conn.client.userId, from, upTo, out));
    } catch (err) {
      this.opts.log.warn({ err }, "stream: a replay failed; the client gets a reset");
      reset = true;
    }
    if (reset) {
      out.length = 0;
      out.push(formatSse("reset", upTo.id, { reason: "the events since Last-Event-ID are not available" }));
    }
    const held = conn.held ?? [];
    conn.held = null;
    for (const text of [...out, ...held]) this.send(conn, text);
  }

  /** The messages for `userId` of events in (from, upTo]; false when there are too many to scan. */
  private async collectMissed(
    userId: string | null,
    from: EventPosition,
    upTo: EventPosition,
    out: string[],
  ): Promise<boolean> {
    let after = from;
    let scanned = 0;
    const ladders = new Set<string>();
    for (;;) {
      const { events, next } = await readDomainEvents(this.opts.db, { after, limit: BATCH });
      const first = scanned === 0 ? events[0] : undefined;
      if (first && compare(first.position, upTo) <= 0) {
        // Missed since longer than the window: not replayed (the database's clock judges, as it dated the event).
        if (!(await recentPositionOf(this.opts.db, first.id, this.opts.replayWindowMs))) return false;
      }
      for (const event of events) {
        if (compare(event.position, upTo) > 0) return true;
        if (++scanned > MAX_REPLAY_EVENTS) return false;
        for (const m of presentStreamMessages(event)) {
          if (m.userId !== null && m.userId !== userId) continue;
          // One of each ladder is enough: the page refetches it.
          if (m.ladderKey) {
            if (ladders.has(m.ladderKey)) continue;
            ladders.add(m.ladderKey);
          }
          out.push(formatSse(m.name, event.id, m.data));
        }
      }
      if (events.length < BATCH || !next) return true;
      after = next;
    }
  }
}
