/** Request schemas of the admin / feed API (SPEC §7). */
import { type Static, Type } from "typebox";
import { EVENT_ID_PATTERN } from "../events/schema.js";
import { USDC_PATTERN } from "../shared/money.js";
import { DAY_PATTERN, IdString, InstantString } from "../shared/schema-types.js";
import type { SP_TYPES } from "../shared/sp-types.js";

export const WALLET_PATTERN = "^0x[0-9a-fA-F]{40}$";

export const SpTransactionBody = Type.Object(
  {
    wallet: Type.Optional(
      Type.String({ pattern: WALLET_PATTERN, description: "The player's wallet (created when unknown)" }),
    ),
    userId: Type.Optional(IdString({ description: "The player's id (instead of wallet)" })),
    type: Type.Union([
      Type.Literal("PREDICTION"),
      Type.Literal("WARMUP_PREDICTION"),
      Type.Literal("ONCHAIN_PREDICTION"),
      Type.Literal("ONCHAIN_SP"),
      Type.Literal("REFERRAL"),
      Type.Literal("RAFFLE"),
      Type.Literal("ADJUSTMENT"),
    ] satisfies Array<{ const: (typeof SP_TYPES)[number] }>),
    amount: Type.Integer({
      minimum: -1_000_000_000_000,
      maximum: 1_000_000_000_000,
      description: "SP, an integer (negative only for ADJUSTMENT)",
    }),
    eventId: Type.Optional(
      Type.String({
        pattern: EVENT_ID_PATTERN,
        description: "The event the SP was earned on: its kickoff week's ladders count it",
      }),
    ),
    externalId: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The feed's id of the row: a replay returns the first row (200)",
    }),
  },
  {
    additionalProperties: false,
    title: "SpTransaction",
    examples: [
      {
        wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        type: "PREDICTION",
        amount: 250,
        eventId: "epl-1",
        externalId: "feed-2030-01-01-0001",
      },
    ],
  },
);
export type SpTransactionInput = Static<typeof SpTransactionBody>;

/** A feed batch: 1..1,000 rows, each shaped like the single-row body. */
export const SpTransactionBatchBody = Type.Object(
  { rows: Type.Array(SpTransactionBody, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false, title: "SpTransactionBatch" },
);

export const ProtocolFeeBody = Type.Object(
  {
    txHash: Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" }),
    logIndex: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    amountUsdc: Type.String({ pattern: USDC_PATTERN }),
    occurredAt: InstantString({
      description: "When the fee was charged: it funds the pool of the week after",
    }),
  },
  { additionalProperties: false, title: "ProtocolFeeRecord" },
);

export const ClockBody = Type.Object(
  {
    now: Type.Union([InstantString(), Type.Null()], {
      description: "The instant the service's clock shows from now on; null returns it to real time",
    }),
  },
  { additionalProperties: false, title: "ClockSetting", examples: [{ now: "2030-01-01T17:00:00Z" }] },
);

const OutcomeKey = Type.String({ pattern: "^[A-Za-z0-9_.-]{1,32}$" });
export const EventResultBody = Type.Union(
  [
    Type.Object(
      {
        status: Type.Literal("finished"),
        winningOutcome: OutcomeKey,
        /** Winners of further markets by market key; a market without a winner voids its predictions. */
        winningOutcomes: Type.Optional(
          Type.Record(Type.String({ pattern: "^[A-Za-z0-9_.-]{1,32}$" }), OutcomeKey),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Object({ status: Type.Literal("cancelled") }, { additionalProperties: false }),
  ],
  {
    title: "EventResult",
    description: "finished with the winning outcome of each market, or cancelled (every prediction void)",
    examples: [{ status: "finished", winningOutcome: "home" }, { status: "cancelled" }],
  },
);

export const RaffleDrawBody = Type.Object(
  {
    date: Type.String({
      pattern: DAY_PATTERN,
      format: "date",
      description: "The ended UTC day whose raffle to draw",
    }),
  },
  { additionalProperties: false, title: "RaffleDrawRequest" },
);
