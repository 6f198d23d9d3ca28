/**
 * Remembers sessions found active on an embedded database, for as long as that database has seen no write at
 * all (its write counter has not moved): then no session can have been revoked, and no user changed. Any write
 * — a logout included — makes every entry stale. On PostgreSQL (several instances) there is no such counter and
 * every request asks the database.
 */
import type { UserRow } from "../users/users.js";

const MAX_ENTRIES = 100_000;

export class SessionCache {
  private readonly entries = new Map<string, { user: UserRow; expiresAt: Date; writes: number }>();

  constructor(private readonly changeCount: () => number) {}

  get(sessionId: string, now: Date): UserRow | null {
    const e = this.entries.get(sessionId);
    if (!e) return null;
    if (e.writes !== this.changeCount() || e.expiresAt <= now) {
      this.entries.delete(sessionId);
      return null;
    }
    return e.user;
  }

  /** Records a session found active; `writes` is the counter read before the lookup started. */
  set(sessionId: string, user: UserRow, expiresAt: Date, writes: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(sessionId, { user, expiresAt, writes });
  }

  writes(): number {
    return this.changeCount();
  }
}
