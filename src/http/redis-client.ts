/**
 * The Redis connection of the rate limits. Every wait on it is bounded, so a Redis that is down or stalled (it
 * accepts connections, or it stops answering a live one) never holds a request: connecting gives up after 2 s,
 * each command after REDIS_COMMAND_TIMEOUT_MS, and commands are not queued while disconnected. Each of those
 * failures is an error the rate limiter skips (fail open).
 */
import { Redis } from "ioredis";

export function openRedis(url: string, commandTimeoutMs: number): Redis {
  return new Redis(url, {
    connectTimeout: 2000,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
}
