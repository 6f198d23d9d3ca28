/** Request schemas of the admin / feed API (SPEC §7). */
import { type Static, Type } from "typebox";
import type { SP_TYPES } from "../competition/competitive-sp.js";
import { EVENT_ID_PATTERN } from "../events/schema.js";
import { USDC_PATTERN } from "../shared/money.js";
import { IdString, InstantString } from "../shared/schema-types.js";

export const WALLET_PATTERN = "^0x[0-9a-fA-F]{40}$";

export const SpTransactionBody = Type.Object(
  {
    wallet: Type.Optional(Type.String({ pattern: WALLET_PATTERN })),
    userId: Type.Optional(IdString()),
    type: Type.Union([
      Type.Literal("PREDICTION"),
      Type.Literal("WARMUP_PREDICTION"),
      Type.Literal("ONCHAIN_PREDICTION"),
      Type.Literal("ONCHAIN_SP"),
      Type.Literal("REFERRAL"),
      Type.Literal("RAFFLE"),
      Type.Literal("ADJUSTMENT"),
    ] satisfies Array<{ const: (typeof SP_TYPES)[number] }>),
    amount: Type.Integer({ minimum: -1_000_000_000_000, maximum: 1_000_000_000_000 }),
    eventId: Type.Optional(Type.String({ pattern: EVENT_ID_PATTERN })),
    externalId: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type SpTransactionInput = Static<typeof SpTransactionBody>;

/** A feed batch: 1..1,000 rows, each shaped like the single-row body. */
export const SpTransactionBatchBody = Type.Object(
  { rows: Type.Array(SpTransactionBody, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);

export const ProtocolFeeBody = Type.Object(
  {
    txHash: Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" }),
    logIndex: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
    amountUsdc: Type.String({ pattern: USDC_PATTERN }),
    occurredAt: InstantString(),
  },
  { additionalProperties: false },
);

export const ClockBody = Type.Object(
  { now: Type.Union([InstantString(), Type.Null()]) },
  { additionalProperties: false },
);

const OutcomeKey = Type.String({ pattern: "^[A-Za-z0-9_.-]{1,32}$" });
export const EventResultBody = Type.Union([
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
]);

export const RaffleDrawBody = Type.Object(
  { date: Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", format: "date" }) },
  { additionalProperties: false },
);
