/**
 * The live stream's messages (SPEC §12, `GET /api/stream`) read into typed values, and what each one changes in
 * the page's data cache — pure, no I/O; `use-live-updates.ts` applies the result to the QueryClient.
 *
 * - `odds` {eventId, markets} and `event` {eventId, status, winningOutcome} carry the new state: it is written
 *   into the cached event (`["event", id]`, the slip's) and into every cached list page that holds it
 *   (`["events", …]`), so a price or a closed market shows at once without every open page asking the server.
 * - `ladder` {week, type} and `week` {week, status} only say what changed: the affected queries are invalidated
 *   (those on screen refetch; the server sends `ladder` at most once a second per ladder).
 * - `balance` {credits} is written into the player's cached balance; `balance` and `prediction` invalidate the
 *   player's data (his bets, status, profile). `reset` (the server could not replay what was missed) invalidates
 *   everything.
 * Anything malformed is ignored (null), never thrown.
 */
import type { Market, PredictionStatus, SportEvent } from "../api";

export type StreamMessage =
  | { type: "odds"; eventId: string; markets: Market[] }
  | { type: "event"; eventId: string; status: SportEvent["status"]; winningOutcome: string | null }
  | { type: "ladder"; week: number; ladder: string }
  | { type: "week"; week: number; status: string }
  | { type: "balance"; credits: number }
  | {
      type: "prediction";
      predictionId: string;
      eventId: string | null;
      status: PredictionStatus;
      /** Credits won (version 1); null when not given. */
      payout: number | null;
      /** USDC won (version 2), a 6-decimal string; null when not given. */
      payoutUsdc: string | null;
    }
  | { type: "reset" };

/** The event names the page listens to. */
export const STREAM_EVENT_NAMES = [
  "odds",
  "event",
  "ladder",
  "week",
  "balance",
  "prediction",
  "reset",
] as const;

const EVENT_STATUSES = ["scheduled", "live", "finished", "cancelled"] as const;
const PREDICTION_STATUSES = ["pending", "open", "won", "lost", "void", "rejected"] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const int = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) ? v : null);

function isMarket(v: unknown): v is Market {
  return (
    isRecord(v) &&
    typeof v.key === "string" &&
    Array.isArray(v.outcomes) &&
    v.outcomes.every(
      (o) =>
        isRecord(o) && typeof o.key === "string" && typeof o.label === "string" && typeof o.odds === "number",
    )
  );
}

/** One message of the stream (its `event:` name and `data:` text), or null when it is not one the page knows. */
export function parseStreamMessage(name: string, data: string): StreamMessage | null {
  if (name === "reset") return { type: "reset" };
  let d: unknown;
  try {
    d = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(d)) return null;
  switch (name) {
    case "odds": {
      const eventId = str(d.eventId);
      if (!eventId || !Array.isArray(d.markets) || !d.markets.every(isMarket)) return null;
      return { type: "odds", eventId, markets: d.markets };
    }
    case "event": {
      const eventId = str(d.eventId);
      const status = EVENT_STATUSES.find((s) => s === d.status);
      if (!eventId || !status) return null;
      return { type: "event", eventId, status, winningOutcome: str(d.winningOutcome) };
    }
    case "ladder": {
      const week = int(d.week);
      const ladder = str(d.type);
      return week === null || ladder === null ? null : { type: "ladder", week, ladder };
    }
    case "week": {
      const week = int(d.week);
      return week === null ? null : { type: "week", week, status: str(d.status) ?? "finalized" };
    }
    case "balance": {
      const credits = int(d.credits);
      return credits === null ? null : { type: "balance", credits };
    }
    case "prediction": {
      const predictionId = d.predictionId === undefined ? null : String(d.predictionId);
      const status = PREDICTION_STATUSES.find((s) => s === d.status);
      if (!predictionId || !status) return null;
      return {
        type: "prediction",
        predictionId,
        eventId: str(d.eventId),
        status,
        payout: int(d.payout),
        payoutUsdc: str(d.payoutUsdc),
      };
    }
    default:
      return null;
  }
}

export type CacheKey = readonly (string | number)[];

/** What a message changes in the cache: events patched in place, and key prefixes to invalidate. */
export interface CacheEffects {
  /** The event's new markets and/or status, for `["event", id]` and every `["events", …]` page holding it. */
  patchEvent: { eventId: string; markets?: Market[]; status?: SportEvent["status"] } | null;
  /** The player's new balance, for `["player", userId, "balance"]`. */
  balance: number | null;
  /** Key prefixes to invalidate; `[]` (the empty prefix) is everything. */
  invalidate: CacheKey[];
}

/** What `message` changes in the cache of a page whose signed-in player is `userId` (null: signed out). */
export function cacheEffectsOf(message: StreamMessage, userId: string | null): CacheEffects {
  const none: CacheEffects = { patchEvent: null, balance: null, invalidate: [] };
  const player: CacheKey[] = userId ? [["player", userId]] : [];
  switch (message.type) {
    case "odds":
      return { ...none, patchEvent: { eventId: message.eventId, markets: message.markets } };
    case "event":
      return { ...none, patchEvent: { eventId: message.eventId, status: message.status } };
    case "ladder":
      // The ladder's pages, and my standing in that week (rank, SP to a line) which moves with it.
      return {
        ...none,
        invalidate: [["ladder", message.week, message.ladder], ...(userId ? [["player", userId, "me"]] : [])],
      };
    case "week":
      return {
        ...none,
        invalidate: [["meta"], ["ladder", message.week], ["pool", message.week], ["prize-tree"], ...player],
      };
    case "balance":
      return { ...none, balance: message.credits, invalidate: player };
    case "prediction":
      return { ...none, invalidate: player };
    case "reset":
      return { ...none, invalidate: [[]] };
  }
}

/**
 * Every key prefix a message can change (patch or invalidate) on the page of `userId` (null: signed out): what a
 * connection that could not resume may have missed, so what it reads again once open. A page's first connection
 * too: its data was read while it was connecting, and the stream sends only what commits after it connected.
 * What no message changes (sign-in providers, the chain's settings) is not read again.
 */
export function streamedPrefixes(userId: string | null): CacheKey[] {
  return [
    ["event"],
    ["events"],
    ["meta"],
    ["ladder"],
    ["pool"],
    ["prize-tree"],
    ...(userId ? [["player", userId]] : []),
  ];
}

/** `event` with a patch applied (a new object only when something changed). */
export function patchedEvent(
  event: SportEvent,
  patch: { markets?: Market[]; status?: SportEvent["status"] },
): SportEvent {
  const markets = patch.markets ?? event.markets;
  const status = patch.status ?? event.status;
  return markets === event.markets && status === event.status ? event : { ...event, markets, status };
}

/**
 * Whether betting on the event is closed: it is no longer scheduled (live, finished, cancelled) or its kickoff
 * has passed on the server's clock.
 */
export const bettingClosed = (event: SportEvent, nowMs: number): boolean =>
  event.status !== "scheduled" || Date.parse(event.kickoffAt) <= nowMs;

/** The key prefixes of `list` with duplicates and prefixes covered by a shorter one removed. */
export function coveringPrefixes(list: CacheKey[]): CacheKey[] {
  const startsWith = (key: CacheKey, prefix: CacheKey) =>
    prefix.length <= key.length && prefix.every((p, i) => key[i] === p);
  const sorted = [...list].sort((a, b) => a.length - b.length);
  const out: CacheKey[] = [];
  for (const key of sorted) if (!out.some((p) => startsWith(key, p))) out.push(key);
  return out;
}
