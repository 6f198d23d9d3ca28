/**
 * Active sessions remembered by one instance, kept exact through the session change feed (on PostgreSQL with
 * several instances as on the embedded database): a lookup first syncs — it waits for a feed read that started
 * after it arrived, shared by every lookup arriving meanwhile — so a session revoked before the request arrived,
 * through any instance, is refused. The feed is the `sessions.changed_xid` column a trigger sets on every update
 * (migration 0010); unexpired sessions cannot be deleted (another trigger refuses it), only revoked.
 *
 * An entry is the session's user id and its stored expiry, checked on every use. A session found active is only
 * remembered when no feed read was applied between the start of its lookup and its answer: then any revocation
 * the lookup did not see belongs to a transaction at or above the watermark the next feed read starts from.
 *
 * The first feed read also loads the unrevoked sessions (up to MAX_ENTRIES, latest expiry first), after taking its
 * watermark: a revocation it does not see is in a transaction at or above that watermark, so the next feed read
 * forgets the session. Without it, each player's first request after a start paid a query (measured in
 * docs/performance.md, "Round three, reads").
 */
import type { Queryable } from "../db/client.js";
import {
  findActiveSessionExpiry,
  findActiveSessionUser,
  sessionChangesSince,
  unrevokedSessions,
} from "./auth.repository.js";

const MAX_ENTRIES = 100_000;

export class SessionCache {
  private readonly entries = new Map<string, { userId: string; expiresAt: Date }>();
  private watermark: string | null = null;
  /** Counts applied feed reads. */
  private generation = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private nextPull: Promise<void> | null = null;
  /** The embedded database's write counter when the last feed read started (-1: none yet). */
  private seenChanges = -1;

  /**
   * `changeCount` (embedded database only) counts completed writes: when it has not moved since the last feed
   * read, no session changed and a sync needs no query.
   */
  constructor(
    private readonly q: Queryable,
    private readonly changeCount?: () => number,
  ) {}

  /** The user id of an active session (exists, that user's, not revoked, not expired at `now`), else null. */
  async activeUserId(sessionId: string, userId: string, now: Date): Promise<string | null> {
    await this.sync();
    const known = this.entries.get(sessionId);
    if (known && known.userId === userId) return known.expiresAt > now ? userId : null;
    const generation = this.generation;
    const expiresAt = await findActiveSessionExpiry(this.q, sessionId, BigInt(userId), now);
    if (expiresAt === null) return null;
    if (generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(sessionId, { userId, expiresAt });
    }
    return userId;
  }

  /** Resolves once a feed read that started after this call has been applied. */
  sync(): Promise<void> {
    if (this.changeCount && this.changeCount() === this.seenChanges && !this.nextPull)
      return Promise.resolve();
    if (!this.nextPull) {
      const pull = async () => {
        this.nextPull = null;
        const writesSeen = this.changeCount?.() ?? -1;
        const first = this.watermark === null;
        const { xmin, changed } = await sessionChangesSince(this.q, this.watermark);
        if (first)
          for (const s of await unrevokedSessions(this.q, MAX_ENTRIES))
            this.entries.set(s.id, { userId: s.userId, expiresAt: s.expiresAt });
        for (const id of changed) this.entries.delete(id);
        this.watermark = xmin;
        this.generation++;
        this.seenChanges = writesSeen;
      };
      const run = this.chain.then(pull, pull);
      this.chain = run.catch(() => undefined);
      this.nextPull = run;
    }
    return this.nextPull;
  }
}

/**
 * The user id of an active session (exists, that user's, not revoked, not expired at `now`), else null: the one
 * way a request's session is checked, through the session cache when the app runs one, else with one query.
 */
export async function activeSessionUserId(
  q: Queryable,
  sessions: SessionCache | null,
  claims: { sessionId: string; userId: string },
  now: Date,
): Promise<string | null> {
  if (sessions) return sessions.activeUserId(claims.sessionId, claims.userId, now);
  const user = await findActiveSessionUser(q, claims.sessionId, BigInt(claims.userId), now);
  return user ? String(user.id) : null;
}
