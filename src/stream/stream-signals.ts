/**
 * The wake-ups of the live stream's reader (stream-hub.ts): "new domain events may be in the outbox, read it".
 * Only hints: the outbox is the truth, and the reader also polls every second, so a lost signal costs a second.
 *
 * - This instance's own commits (`Database.onEventsCommitted`): always, in process.
 * - With Redis (REDIS_URL): every instance publishes on `REDIS_CHANNEL` after each of its commits that recorded
 *   events (`announceCommits`, from start-up, whether or not it has stream clients itself), and a reader
 *   subscribes on its own connection.
 * - Without Redis, on PostgreSQL: `LISTEN domain_events` (the outbox sends `NOTIFY domain_events` at each such
 *   commit) on a dedicated connection.
 * - Embedded (PGlite): one process owns the database, its own commits are all there is.
 */
import type { Redis } from "ioredis";
import type { Database } from "../db/client.js";
import { DOMAIN_EVENTS_CHANNEL } from "../domain-events/domain-events.js";
import { waitForRedis } from "../http/redis-client.js";

export const REDIS_CHANNEL = "sp:domain-events";

/** With Redis: publishes a wake-up to every instance after each local commit that recorded events; returns its stop. */
export function announceCommits(database: Database, redis: Redis | null): () => void {
  if (!redis) return () => {};
  return database.onEventsCommitted(() => {
    // Fire and forget: a failed publish (Redis down) is covered by the readers' polling.
    redis.publish(REDIS_CHANNEL, "").catch(() => {});
  });
}

/** Starts the wake-ups of one reader (see the file's contract); resolves to the function that stops them. */
export async function listenForEvents(
  deps: { database: Database; redis: Redis | null },
  wake: () => void,
): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void> | void> = [deps.database.onEventsCommitted(wake)];
  if (deps.redis) {
    // A subscribed connection can run nothing else: its own, with the offline queue on so the subscription is
    // sent (again after a reconnection, ioredis resubscribes) once connected.
    const sub = deps.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    sub.on("error", () => {});
    sub.on("message", (channel: string) => {
      if (channel === REDIS_CHANNEL) wake();
    });
    // After a reconnection, read what may have been published meanwhile.
    sub.on("ready", wake);
    await waitForRedis(sub).catch(() => {});
    await sub.subscribe(REDIS_CHANNEL).catch(() => {});
    stops.push(() => sub.disconnect());
  } else if (deps.database.listen) {
    const listener = deps.database.listen(DOMAIN_EVENTS_CHANNEL, wake);
    stops.push(() => listener.close());
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}
