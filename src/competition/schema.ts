/** Request and response schemas of the competition routes (SPEC §8). */
import { Type } from "typebox";
import { Nullable, StringEnum, UsdcString } from "../shared/schema-types.js";
import { MAX_WEEK, WEEK_STATUSES } from "../shared/season.js";
import { LADDERS } from "./ranking.js";

const Week = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_WEEK, description });
const WEEK = "The week index: 0 is the opening week";
const WEEK_OR_CURRENT = `${WEEK}; default the current week`;
const Iso = Type.String({ format: "date-time" });
const Usdc = UsdcString();
const Via = Nullable(StringEnum(["qualification", "champions"]));

export const WeekParams = Type.Object({ week: Week(WEEK) }, { additionalProperties: false });
export const WeekQuery = Type.Object(
  { week: Type.Optional(Week(WEEK_OR_CURRENT)) },
  { additionalProperties: false },
);
export const FinalizeQuery = Type.Object(
  { week: Week("The ended week to finalize (weeks finalize in order)") },
  { additionalProperties: false },
);

export const LeaderboardQuery = Type.Object(
  {
    week: Type.Optional(Week(WEEK_OR_CURRENT)),
    type: Type.Optional(
      Type.Union([Type.Literal("qualification"), Type.Literal("champions")], {
        description: "Which ladder (default qualification)",
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000_000, description: "Rows to skip from rank 1 (default 0)" }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: "Rows per page (default 50)" }),
    ),
  },
  { additionalProperties: false },
);

const RailWeek = Type.Object(
  {
    week: Type.Integer(),
    label: Type.String(),
    startsAt: Iso,
    endsAt: Iso,
    status: StringEnum(WEEK_STATUSES),
    provisional: Type.Boolean(),
    championsEnabled: Type.Boolean(),
  },
  { title: "RailWeek" },
);

export const MetaResponse = Type.Object(
  {
    now: Iso,
    currentWeek: Type.Integer(),
    seasonStarted: Type.Boolean(),
    championsEnabled: Type.Boolean(),
    countdown: Type.Object({ endsAt: Iso, secondsRemaining: Type.Integer() }),
    constants: Type.Object({
      qualificationCutoff: Type.Integer(),
      championsCutoff: Type.Integer(),
      paidRanks: Type.Integer(),
      prizeSplitPct: Type.Array(Type.Integer()),
      weekLengthDays: Type.Integer(),
    }),
    weeks: Type.Array(RailWeek),
  },
  { title: "CompetitionMeta" },
);

const LadderRow = Type.Object(
  {
    rank: Type.Integer(),
    userId: Type.String(),
    displayName: Type.String(),
    wallet: Nullable(Type.String()),
    competitiveSp: Type.Integer(),
    withinCutoff: Type.Boolean({ description: "At or above the ladder's cutoff line (ties included)" }),
    prizeUsdc: Nullable(Usdc),
  },
  {
    title: "LadderRow",
    examples: [
      {
        rank: 1,
        userId: "42",
        displayName: "0x70F1…79C8",
        wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        competitiveSp: 1250,
        withinCutoff: true,
        prizeUsdc: "350.000000",
      },
    ],
  },
);

export const LeaderboardResponse = Type.Object(
  {
    week: Type.Integer(),
    type: StringEnum(LADDERS),
    label: Type.String(),
    championsEnabled: Type.Boolean(),
    provisional: Type.Boolean(),
    total: Type.Integer(),
    offset: Type.Integer(),
    limit: Type.Integer(),
    cutoffRank: Type.Integer(),
    cutoffSp: Nullable(Type.Integer()),
    rows: Type.Array(LadderRow),
  },
  { title: "LadderPage" },
);

const Hex32 = Type.String({ pattern: "^0x[0-9a-f]{64}$" });
const Checksummed = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "checksummed address" });
const MicroUsdc = Type.String({
  pattern: "^(0|[1-9][0-9]*)$",
  description: "the amount in micro-USDC (uint256)",
});

const PrizeClaim = Type.Object(
  {
    week: Type.Integer(),
    root: Nullable(Hex32),
    account: Nullable(Checksummed),
    amountUsdc: Usdc,
    amountMicro: MicroUsdc,
    carriedUsdc: Usdc,
    proof: Type.Array(Hex32, { description: "the Merkle proof of (week, account, amountMicro) under root" }),
    claimed: Type.Boolean({ description: "a PrizeClaimed log of the distributor pays this leaf" }),
    awaitingWallet: Type.Boolean({
      description:
        "won without a wallet: carried into the tree of the first week finalized after one is linked",
    }),
    paidInWeek: Nullable(
      Type.Integer({ description: "the later week whose tree carries this awaiting prize" }),
    ),
  },
  {
    title: "PrizeClaim",
    description: "the signed-in winner's prize of a finalized week, for PrizeDistributor.claim",
  },
);

export const MeResponse = Type.Object(
  {
    week: Type.Integer(),
    label: Type.String(),
    provisional: Type.Boolean(),
    qualification: Type.Object({
      rank: Nullable(Type.Integer()),
      competitiveSp: Type.Integer(),
      withinCutoff: Type.Boolean(),
    }),
    champions: Type.Object({
      enabled: Type.Boolean(),
      eligible: Type.Boolean(),
      eligibleVia: Via,
      rank: Nullable(Type.Integer()),
      competitiveSp: Type.Integer(),
      withinCutoff: Type.Boolean(),
      prizeUsdc: Nullable(Usdc),
    }),
    nextWeek: Type.Object({ week: Type.Integer(), eligible: Type.Boolean(), via: Via }),
    prizeClaim: Nullable(PrizeClaim),
  },
  { title: "MyStanding" },
);

export const PrizeTreeResponse = Type.Object(
  {
    week: Type.Integer(),
    root: Nullable(Hex32),
    leafEncoding: Type.Array(Type.String(), {
      description: 'StandardMerkleTree leaf types: ["uint256","address","uint256"]',
    }),
    totalUsdc: Usdc,
    totalMicro: MicroUsdc,
    leaves: Type.Array(
      Type.Object(
        {
          account: Checksummed,
          amountUsdc: Usdc,
          amountMicro: MicroUsdc,
          carriedUsdc: Usdc,
          claimed: Type.Boolean(),
        },
        { title: "PrizeLeaf" },
      ),
      {
        description:
          "one leaf [week, account, amountMicro] per paid winner with a wallet, in ladder order, then winners of " +
          "earlier weeks paid here (carried)",
      },
    ),
    awaitingWallet: Type.Array(
      Type.Object({ userId: Type.String(), amountUsdc: Usdc, paidInWeek: Nullable(Type.Integer()) }),
    ),
    carried: Type.Array(Type.Object({ fromWeek: Type.Integer(), userId: Type.String(), amountUsdc: Usdc })),
  },
  { title: "PrizeTree" },
);

export const PrizePoolResponse = Type.Object(
  {
    estimatedUsdc: Usdc,
    selectedWeek: Type.Integer(),
    fundingWeekIndex: Nullable(Type.Integer()),
    feeWindowStart: Nullable(Iso),
    feeWindowEnd: Nullable(Iso),
    sources: Type.Object({ protocolFeesWeek: Usdc, protocolIncentiveUsdc: Usdc, entries: Usdc }),
  },
  {
    title: "PrizePoolEstimate",
    examples: [
      {
        estimatedUsdc: "1250.000000",
        selectedWeek: 3,
        fundingWeekIndex: 2,
        feeWindowStart: "2026-11-17T00:00:00.000Z",
        feeWindowEnd: "2026-11-24T00:00:00.000Z",
        sources: {
          protocolFeesWeek: "1000.000000",
          protocolIncentiveUsdc: "250.000000",
          entries: "0.000000",
        },
      },
    ],
  },
);

export const FinalizeResponse = Type.Object(
  {
    week: Type.Integer(),
    finalizedAt: Iso,
    alreadyFinalized: Type.Boolean(),
    qualification: Type.Object({
      participants: Type.Integer(),
      cutoffSp: Nullable(Type.Integer()),
      qualifiers: Type.Integer(),
    }),
    champions: Type.Object({
      enabled: Type.Boolean(),
      participants: Type.Integer(),
      cutoffSp: Nullable(Type.Integer()),
      retained: Type.Integer(),
    }),
    prizes: Type.Array(
      Type.Object({
        rank: Type.Integer(),
        userId: Type.String(),
        wallet: Nullable(Type.String()),
        competitiveSp: Type.Integer(),
        rankPct: Type.Integer(),
        splitAmong: Type.Integer(),
        amountUsdc: Usdc,
      }),
    ),
    pool: Type.Object({ estimatedUsdc: Usdc, distributedUsdc: Usdc, undistributedUsdc: Usdc }),
    nextWeekEligible: Type.Integer(),
  },
  { title: "FinalizeResult" },
);
