/**
 * The stream's presenters: each domain event type becomes its SPEC §12 event with only the allow-listed fields,
 * private events keep their player, and the SSE framing is one `event`/`id`/`data` block.
 */
import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../domain-events/domain-events.js";
import { formatSse, presentStreamMessages } from "./presenters.js";

function event(type: DomainEvent["type"], payload: Record<string, unknown>, userId: string | null = null) {
  return {
    id: "7",
    type,
    payload,
    userId,
    createdAt: new Date("2026-11-20T12:00:00.000Z"), // Fri 2026-11-20
    position: { xid: "900", id: "7" },
  } satisfies DomainEvent;
}

const shown = (e: DomainEvent) =>
  presentStreamMessages(e).map(({ name, data, userId }) => ({ name, data, userId }));

describe("presentStreamMessages", () => {
  it("shows the week finalized, and a settled event without its settlement time", () => {
    expect(
      shown(event("week.finalized", { week: 4, label: "Week 4", finalizedAt: "x", pool: {}, prizes: [] })),
    ).toEqual([{ name: "week", data: { week: 4, status: "finalized" }, userId: null }]);
    expect(
      shown(
        event("event.settled", { eventId: "e1", status: "cancelled", winningOutcome: null, settledAt: "x" }),
      ),
    ).toEqual([
      { name: "event", data: { eventId: "e1", status: "cancelled", winningOutcome: null }, userId: null },
    ]);
  });

  it("names both ladders of a week from week 1, only the qualification one in week 0", () => {
    expect(shown(event("ladder.changed", { week: 0 })).map((m) => m.data)).toEqual([
      { week: 0, type: "qualification" },
    ]);
    expect(presentStreamMessages(event("ladder.changed", { week: 2 })).map((m) => m.ladderKey)).toEqual([
      "2:qualification",
      "2:champions",
    ]);
  });

  it("keeps a prediction private to its player, with payout (v1) or payoutUsdc (v2), and drops the rest", () => {
    const v2 = event(
      "prediction.settled",
      { predictionId: "9", userId: "42", eventId: "e1", status: "won", payoutUsdc: "21.500000" },
      "42",
    );
    expect(shown(v2)).toEqual([
      {
        name: "prediction",
        data: { predictionId: "9", status: "won", payoutUsdc: "21.500000" },
        userId: "42",
      },
    ]);
    const v1 = event(
      "prediction.settled",
      { predictionId: "8", userId: "42", eventId: "e1", status: "lost", payout: 0 },
      "42",
    );
    expect(shown(v1)[0]!.data).toEqual({ predictionId: "8", status: "lost", payout: 0 });
    expect(shown(event("balance.changed", { credits: 900 }, "42"))).toEqual([
      { name: "balance", data: { credits: 900 }, userId: "42" },
    ]);
    // A private event without its player is shown to nobody rather than to everybody.
    expect(shown(event("balance.changed", { credits: 900 }, null))).toEqual([]);
  });

  it("frames one event per block, its data on one line", () => {
    expect(formatSse("balance", "12", { credits: 5 })).toBe(
      'event: balance\nid: 12\ndata: {"credits":5}\n\n',
    );
    expect(formatSse("odds", "1", { label: "a\nb" })).toBe('event: odds\nid: 1\ndata: {"label":"a\\nb"}\n\n');
  });
});
