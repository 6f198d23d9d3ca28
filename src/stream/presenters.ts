/**
 * What the live stream (SPEC §12) sends for each domain event of the outbox (src/domain-events/), as pure
 * functions: the SSE event name, its `data` (allow-listed fields only), and to whom (every client, or only the
 * connections of one player). `formatSse` writes one event in the `text/event-stream` framing.
 *
 * | domain event | stream event | data | to |
 * |---|---|---|---|
 * | `event.odds_changed` | `odds` | `{eventId, markets}` | everyone |
 * | `event.status_changed`, `event.settled` | `event` | `{eventId, status, winningOutcome}` | everyone |
 * | `ladder.changed` | `ladder` | `{week, type}`: `qualification`, and `champions` from week 1 | everyone |
 * | `week.finalized` | `week` | `{week, status: "finalized"}` | everyone |
 * | `balance.changed` | `balance` | `{credits}` | the player |
 * | `prediction.settled` | `prediction` | `{predictionId, status, payout}` (v1) or `{…, payoutUsdc}` (v2) | the player |
 */
import type { DomainEvent } from "../domain-events/domain-events.js";

export type StreamEventName = "odds" | "event" | "ladder" | "week" | "balance" | "prediction" | "reset";

export interface StreamMessage {
  name: StreamEventName;
  data: Record<string, unknown>;
  /** The player the message is private to; null: every client. */
  userId: string | null;
  /** Ladder messages only: the ladder, sent at most once a second (`${week}:${type}`). */
  ladderKey?: string;
}

export const LADDER_TYPES = ["qualification", "champions"] as const;

/** The stream messages of one domain event (none for a type the stream does not show). */
export function presentStreamMessages(event: DomainEvent): StreamMessage[] {
  const p = event.payload;
  switch (event.type) {
    case "event.odds_changed":
      return [{ name: "odds", data: { eventId: p.eventId, markets: p.markets }, userId: null }];
    case "event.status_changed":
    case "event.settled":
      return [
        {
          name: "event",
          data: { eventId: p.eventId, status: p.status, winningOutcome: p.winningOutcome ?? null },
          userId: null,
        },
      ];
    case "ladder.changed": {
      const week = Number(p.week);
      // Week 0 has no Champions ladder (SPEC §4).
      const types = week >= 1 ? LADDER_TYPES : (["qualification"] as const);
      return types.map((type) => ({
        name: "ladder" as const,
        data: { week, type },
        userId: null,
        ladderKey: `${week}:${type}`,
      }));
    }
    case "week.finalized":
      return [{ name: "week", data: { week: p.week, status: "finalized" }, userId: null }];
    case "balance.changed":
      return event.userId === null
        ? []
        : [{ name: "balance", data: { credits: p.credits }, userId: event.userId }];
    case "prediction.settled": {
      if (event.userId === null) return [];
      const data: Record<string, unknown> = { predictionId: p.predictionId, status: p.status };
      if ("payoutUsdc" in p) data.payoutUsdc = p.payoutUsdc;
      else data.payout = p.payout;
      return [{ name: "prediction", data, userId: event.userId }];
    }
    default:
      return [];
  }
}

/** One SSE event: `event:`, `id:` and a single `data:` line of JSON (JSON never holds a raw newline). */
export function formatSse(name: string, id: string, data: unknown): string {
  return `event: ${name}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The comment every client gets every ping interval (keeps proxies from closing an idle connection). */
export const PING = ": ping\n\n";
