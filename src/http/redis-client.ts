/**
 * The Redis connection of the rate limits. Every wait on it is bounded, so a Redis that is down or stalled (it
 * accepts connections, or it stops answering a live one) never holds a request: connecting gives up after 2 s,
 * each command after REDIS_COMMAND_TIMEOUT_MS, and commands are not queued while disconnected. Each of those
 * failures is an error the rate limiter skips (fail open); the client reconnects by itself.
 *
 * At start (`waitForRedis`) the connection must come up: a Redis unreachable then is a configuration to fix, not a
 * passing fault, and the server refuses to start (server.ts).
 */
import { Redis } from "ioredis";

const CONNECT_TIMEOUT_MS = 2000;

export function openRedis(url: string, commandTimeoutMs: number): Redis {
  const redis = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  // A lost connection is retried by the client and shows in the failed commands; without a listener ioredis
  // would print every reconnection error.
  redis.on("error", () => {});
  return redis;
}

/** Resolves once `redis` is ready; rejects with the first connection error, or after the connect timeout. */
export function waitForRedis(redis: Redis, timeoutMs = CONNECT_TIMEOUT_MS + 1000): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      redis.off("ready", onReady);
      redis.off("error", onError);
      if (err) reject(err);
      else resolve();
    };
    const onReady = () => done();
    const onError = (err: Error) => done(err);
    const timer = setTimeout(() => done(new Error(`connect timed out after ${timeoutMs} ms`)), timeoutMs);
    redis.once("ready", onReady);
    redis.once("error", onError);
  });
}
