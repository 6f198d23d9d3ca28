/** Request and response schemas of the prediction routes (SPEC §9). */
import { Type } from "typebox";
import { EVENT_ID_PATTERN, EventSchema } from "../events/schema.js";
import { USDC_PATTERN } from "../shared/money.js";
import {
  IdString,
  IntegerEnum,
  MAX_CHAIN_ID,
  Nullable,
  StringEnum,
  UsdcString,
} from "../shared/schema-types.js";
import { REJECT_CODES } from "./rejection.js";
import { PREDICTION_STATUSES } from "./statuses.js";

const Key = Type.String({ pattern: "^[A-Za-z0-9_.-]{1,32}$" });

export const IdempotencyHeaders = Type.Object({
  "idempotency-key": Type.Optional(
    Type.String({
      pattern: "^[A-Za-z0-9_.:-]{1,128}$",
      description:
        "One key per bet attempt: a retry with the same key returns the first bet instead of placing another",
    }),
  ),
});

export const BetBody = Type.Object(
  {
    eventId: Type.String({ pattern: EVENT_ID_PATTERN }),
    market: Key,
    outcome: Key,
    stake: Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: "Free credits to stake" }),
    expectedOdds: Type.Optional(
      Type.Number({
        exclusiveMinimum: 1,
        maximum: 1_000_000,
        description: "The odds the player saw: a different current price answers 409 ODDS_CHANGED",
      }),
    ),
  },
  {
    additionalProperties: false,
    title: "BetRequest",
    examples: [{ eventId: "epl-1", market: "1x2", outcome: "home", stake: 100, expectedOdds: 2.15 }],
  },
);

export const OnchainBetBody = Type.Object(
  {
    eventId: Type.String({ pattern: EVENT_ID_PATTERN }),
    market: Key,
    outcome: Key,
    stakeUsdc: Type.String({ pattern: USDC_PATTERN }),
    odds: Type.Number({ exclusiveMinimum: 1, maximum: 1_000_000 }),
    txHash: Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" }),
    chainId: Type.Integer({ minimum: 1, maximum: MAX_CHAIN_ID }),
  },
  { additionalProperties: false, title: "OnchainBetReport" },
);

export const QuoteBody = Type.Object(
  {
    eventId: Type.String({ pattern: EVENT_ID_PATTERN }),
    market: Key,
    outcome: Key,
  },
  { additionalProperties: false, title: "QuoteRequest" },
);

const Hex = (bytes: number, description: string) =>
  Type.String({ pattern: `^0x[0-9a-fA-F]{${bytes * 2}}$`, description });
const UintString = (description: string) => Type.String({ pattern: "^[0-9]{1,78}$", description });

export const QuoteResponse = Type.Object(
  {
    eventId: Type.String(),
    market: Type.String(),
    outcome: Type.String(),
    odds: Type.Number({ description: "decimal odds of the quote" }),
    expiresAt: Type.String({
      description: "the last instant a block may carry for the bet (before kickoff)",
    }),
    chainId: Type.Integer(),
    contract: Hex(20, "the betting contract (checksummed): the EIP-712 verifying contract"),
    quote: Type.Object(
      {
        bettor: Hex(20, "the signed-in wallet (checksummed): only it can place the bet"),
        marketId: Hex(32, 'keccak256(utf8("<eventId>/<market>"))'),
        outcome: Type.Integer({
          minimum: 0,
          maximum: 255,
          description: "index of the outcome in its market",
        }),
        odds: UintString("odds in thousandths (uint256)"),
        expiry: UintString("unix seconds (uint256)"),
      },
      { description: "the first argument of placeBet(quote, signature, amount)" },
    ),
    signature: Type.String({
      pattern: "^0x[0-9a-fA-F]+$",
      description: "EIP-712 signature of the odds signer",
    }),
  },
  { title: "SignedQuote" },
);

export const ClaimBody = Type.Object(
  { predictionId: IdString({ description: "The `id` of a won or void prediction of the signed-in player" }) },
  { additionalProperties: false, title: "ClaimRequest", examples: [{ predictionId: "1" }] },
);

export const PredictionsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Union(
        [
          Type.Literal("pending"),
          Type.Literal("open"),
          Type.Literal("won"),
          Type.Literal("lost"),
          Type.Literal("void"),
          Type.Literal("rejected"),
        ],
        { description: "Only predictions in this status" },
      ),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: "Predictions per page (default 20)" }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: "The `nextCursor` of the previous page; omit for the first page",
      }),
    ),
  },
  { additionalProperties: false },
);

export const PredictionSchema = Type.Object(
  {
    id: Type.String(),
    version: IntegerEnum([1, 2]),
    eventId: Type.String(),
    market: Type.String(),
    outcome: Type.String(),
    odds: Type.Number(),
    stake: Type.Optional(Type.Integer()),
    stakeUsdc: Type.Optional(UsdcString()),
    status: StringEnum(PREDICTION_STATUSES),
    payout: Type.Optional(Nullable(Type.Integer())),
    payoutUsdc: Type.Optional(Nullable(UsdcString())),
    claimed: Type.Boolean(),
    placedAt: Type.String(),
    settledAt: Nullable(Type.String()),
    txHash: Type.Optional(Type.String()),
    chainId: Type.Optional(Type.Integer()),
    rejectReason: Type.Optional(
      Nullable(
        StringEnum(REJECT_CODES, {
          description: "why a rejected bet does not count (machine code); null unless rejected",
        }),
      ),
    ),
    rejectMessage: Type.Optional(Nullable(Type.String({ description: "the same in words" }))),
  },
  {
    title: "Prediction",
    examples: [
      {
        id: "1",
        version: 1,
        eventId: "epl-1",
        market: "1x2",
        outcome: "home",
        odds: 2.15,
        stake: 100,
        status: "won",
        payout: 215,
        claimed: false,
        placedAt: "2030-01-01T12:05:00.000Z",
        settledAt: "2030-01-01T17:00:00.000Z",
      },
    ],
  },
);

export const PredictionWithEvent = Type.Intersect([PredictionSchema, Type.Object({ event: EventSchema })], {
  title: "PredictionWithEvent",
});

const PaidClaim = Type.Object(
  {
    predictionId: Type.String(),
    payout: Type.Optional(Type.Integer({ description: "credits paid (version 1)" })),
    payoutUsdc: Type.Optional(UsdcString()),
    claimedAt: Type.String({ format: "date-time" }),
    balance: Type.Integer({ description: "the credits balance after the claim" }),
  },
  {
    title: "PayoutClaim",
    description:
      "A payout recorded by the service: credits (version 1), or a USDC claim without a payout signer",
    examples: [{ predictionId: "1", payout: 215, claimedAt: "2030-01-01T17:05:00.000Z", balance: 1115 }],
  },
);

export const PayoutVoucher = Type.Object(
  {
    predictionId: Type.String(),
    account: Hex(20, "where the USDC goes: the bettor's wallet (checksummed)"),
    amountMicro: UintString("micro-USDC (uint256)"),
    amountUsdc: UsdcString(),
    nonce: Hex(32, "the bet's quote digest: the contract pays a nonce once"),
    deadline: UintString("unix seconds (uint256): the last block timestamp the voucher can be used at"),
    signature: Type.String({
      pattern: "^0x[0-9a-fA-F]+$",
      description: "EIP-712 signature of the payout signer",
    }),
    chainId: Type.Integer(),
    contract: Hex(20, "the betting contract that pays (checksummed)"),
  },
  {
    title: "PayoutVoucher",
    description:
      "A payout voucher (version 2): pass {predictionId, account, amount: amountMicro, nonce, deadline} and " +
      "`signature` to the betting contract's claimPayout(payout, signature). The prediction becomes `claimed` " +
      "once the contract's PayoutClaimed log is final (docs/onchain.md).",
  },
);

export const ClaimResponse = Type.Union([PaidClaim, PayoutVoucher], { title: "ClaimAnswer" });

export const ReconcileResponse = Type.Object(
  {
    chainId: Type.Integer(),
    contract: Hex(20, "the betting contract (checksummed)"),
    balanceUsdc: UsdcString(),
    liabilities: Type.Object(
      { bets: Type.Integer(), amountUsdc: UsdcString() },
      { description: "what the contract owes: unpaid won and void bets' payouts, rejected bets' stakes" },
    ),
    solvent: Type.Boolean({
      description: "the balance covers the liabilities; claims are refused otherwise",
    }),
    shortfallUsdc: UsdcString(),
    vouchers: Type.Object(
      { issued: Type.Integer(), issuedUsdc: UsdcString(), paid: Type.Integer(), paidUsdc: UsdcString() },
      { description: "vouchers signed, and payouts the contract made (PayoutClaimed logs on final blocks)" },
    ),
    orphanedClaims: Type.Array(
      Type.Object({
        predictionId: Type.String(),
        userId: Type.String(),
        account: Hex(20, "where the voucher pays (checksummed)"),
        nonce: Hex(32, "the bet's quote digest"),
        amountUsdc: UsdcString(),
        voucherIssuedAt: Type.String({ format: "date-time" }),
        orphanedAt: Type.String({ format: "date-time" }),
        paidAt: Nullable(Type.String({ format: "date-time" })),
      }),
      {
        description:
          "bets a voucher was signed for, then removed from the chain by a reorganisation: never paid again",
      },
    ),
  },
  { title: "PayoutReconciliation" },
);
