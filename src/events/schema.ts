/** Schemas of events: the admin upsert body, ids in paths, and the event object served to players. */
import { type Static, Type } from "typebox";
import { InstantString, StringEnum } from "../shared/schema-types.js";

export const EVENT_ID_PATTERN = "^[A-Za-z0-9_.:-]{1,64}$";
const KEY_PATTERN = "^[A-Za-z0-9_.-]{1,32}$";

export const EventIdParams = Type.Object({
  id: Type.String({
    pattern: EVENT_ID_PATTERN,
    description: "The event's id: 1–64 letters, digits, `_`, `.`, `:` or `-` (e.g. `epl-1`)",
  }),
});

/** An event as served, for the examples of the document. */
const EVENT_EXAMPLE = {
  id: "epl-1",
  sport: "football",
  league: "EPL",
  homeTeam: "Arsenal",
  awayTeam: "Chelsea",
  kickoffAt: "2030-01-01T15:00:00.000Z",
  status: "scheduled",
  warmup: false,
  markets: [
    {
      key: "1x2",
      outcomes: [
        { key: "home", label: "Arsenal", odds: 2.15 },
        { key: "draw", label: "Draw", odds: 3.4 },
        { key: "away", label: "Chelsea", odds: 3.1 },
      ],
    },
  ],
};

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
  {
    additionalProperties: false,
    title: "EventUpsert",
    description: "An event and its odds: the whole event, created or replaced (its id is in the path)",
    examples: [
      {
        sport: "football",
        league: "EPL",
        homeTeam: "Arsenal",
        awayTeam: "Chelsea",
        kickoffAt: "2030-01-01T15:00:00Z",
        markets: EVENT_EXAMPLE.markets,
      },
    ],
  },
);
export type EventUpsertInput = Static<typeof EventUpsertBody>;

export const MarketSchema = Type.Object(
  {
    key: Type.String({ description: "The market's key, e.g. `1x2`" }),
    outcomes: Type.Array(
      Type.Object(
        {
          key: Type.String({ description: "What a bet names, e.g. `home`" }),
          label: Type.String(),
          odds: Type.Number({ description: "Decimal odds (a winning stake is paid stake × odds)" }),
        },
        { title: "Outcome" },
      ),
    ),
  },
  { title: "Market" },
);

export const EventSchema = Type.Object(
  {
    id: Type.String(),
    sport: Type.String(),
    league: Type.String(),
    homeTeam: Type.String(),
    awayTeam: Type.String(),
    kickoffAt: Type.String({ format: "date-time" }),
    status: StringEnum(EVENT_STATUSES),
    warmup: Type.Boolean({ description: "A warm-up event: its SP counts as WARMUP_PREDICTION" }),
    markets: Type.Array(MarketSchema),
  },
  { title: "Event", examples: [EVENT_EXAMPLE] },
);

export const OddsSchema = Type.Object(
  {
    eventId: Type.String(),
    updatedAt: Type.String({ description: "When the odds last changed" }),
    markets: Type.Array(MarketSchema),
  },
  { title: "EventOdds" },
);

export const AvailableEventsQuery = Type.Object(
  {
    sport: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "Only this sport, e.g. `football`" }),
    ),
    league: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "Only this league, e.g. `EPL`" }),
    ),
    from: Type.Optional(InstantString({ description: "Only events kicking off at or after this instant" })),
    to: Type.Optional(InstantString({ description: "Only events kicking off before this instant" })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: "Events per page (default 20)" }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: "The `nextCursor` of the previous page; omit for the first page",
      }),
    ),
  },
  { additionalProperties: false },
);
