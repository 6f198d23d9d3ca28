/** Request schemas and the documented response of GET /api/stream (SPEC §12). */
import { Type } from "typebox";

const EventId = (description: string) => Type.String({ maxLength: 64, description });

export const StreamHeaders = Type.Object({
  "last-event-id": Type.Optional(
    EventId(
      "Sent by EventSource on reconnection: the `id` of the last event received. What was missed since (within 5 minutes) is replayed first; otherwise a `reset` event is sent",
    ),
  ),
});

export const StreamQuery = Type.Object(
  {
    lastEventId: Type.Optional(
      EventId("The same as the Last-Event-ID header, for clients that cannot set headers (the header wins)"),
    ),
  },
  { additionalProperties: false },
);

/** The events of the stream, as the OpenAPI description of its 200 (Markdown). */
export const STREAM_EVENTS_DESCRIPTION = `Server-Sent Events (\`text/event-stream\`): each event has an \`event:\` name, an \`id:\` and one \`data:\` line of JSON.

| event | data | who gets it |
|---|---|---|
| \`odds\` | \`{eventId, markets}\` (markets as GET /api/events/:id/odds) | everyone |
| \`event\` | \`{eventId, status, winningOutcome}\` (\`winningOutcome\` null unless settled \`finished\`) | everyone |
| \`ladder\` | \`{week, type: "qualification"|"champions"}\`: refetch that ladder (at most once a second per ladder) | everyone |
| \`week\` | \`{week, status: "finalized"}\` | everyone |
| \`balance\` | \`{credits}\`: the new credits balance | the signed-in player, his own only |
| \`prediction\` | \`{predictionId, status, payout}\` (v1, credits) or \`{predictionId, status, payoutUsdc}\` (v2) | the signed-in player, his own only |
| \`reset\` | \`{reason}\`: the events since Last-Event-ID cannot be replayed; refetch everything | the reconnecting client |

A \`: ping\` comment every 15 s. Reconnecting with \`Last-Event-ID\` (EventSource does it by itself) replays what was missed in the last 5 minutes, else sends \`reset\`. Changes made through any instance reach every instance's clients within 2 s. Beyond STREAM_MAX_CLIENTS connections on an instance: 503 in the error envelope.`;
