/** Schemas of events: the admin upsert body, ids in paths, and the event object served to players. */
import { type Static, Type } from "typebox";
import { InstantString, StringEnum } from "../shared/schema-types.js";

export const EVENT_ID_PATTERN = "^[A-Za-z0-9_.:-]{1,64}$";
const KEY_PATTERN = "^[A-Za-z0-9_.-]{1,32}$";

export const EventIdParams = Type.Object({ id: Type.String({ pattern: EVENT_ID_PATTERN }) });

export const EVENT_STATUSES = ["scheduled", "live", "finished", "cancelled"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

const Name = Type.String({ minLength: 1, maxLength: 100 });

export const EventUpsertBody = Type.Object(
  {
    sport: Name,
    league: Name,
    homeTeam: Name,
    awayTeam: Name,
    kickoffAt: InstantString(),
    warmup: Type.Optional(Type.Boolean()),
    status: Type.Optional(
      Type.Union([
        Type.Literal("scheduled"),
        Type.Literal("live"),
        Type.Literal("finished"),
        Type.Literal("cancelled"),
      ]),
    ),
    markets: Type.Array(
      Type.Object(
        {
          key: Type.String({ pattern: KEY_PATTERN }),
          outcomes: Type.Array(
            Type.Object(
              {
                key: Type.String({ pattern: KEY_PATTERN }),
                label: Name,
                odds: Type.Number({ exclusiveMinimum: 1, maximum: 1_000_000 }),
              },
              { additionalProperties: false },
            ),
            { minItems: 2, maxItems: 50 },
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
export type EventUpsertInput = Static<typeof EventUpsertBody>;

export const MarketSchema = Type.Object({
  key: Type.String(),
  outcomes: Type.Array(Type.Object({ key: Type.String(), label: Type.String(), odds: Type.Number() })),
});

export const EventSchema = Type.Object({
  id: Type.String(),
  sport: Type.String(),
  league: Type.String(),
  homeTeam: Type.String(),
  awayTeam: Type.String(),
  kickoffAt: Type.String({ format: "date-time" }),
  status: StringEnum(EVENT_STATUSES),
  warmup: Type.Boolean(),
  markets: Type.Array(MarketSchema),
});

export const OddsSchema = Type.Object({
  eventId: Type.String(),
  updatedAt: Type.String(),
  markets: Type.Array(MarketSchema),
});

export const AvailableEventsQuery = Type.Object(
  {
    sport: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    league: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    from: Type.Optional(InstantString()),
    to: Type.Optional(InstantString()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  { additionalProperties: false },
);
