/** Schemas of the general leaderboard routes. */
import { Type } from "typebox";
import { IdString, Nullable } from "../shared/schema-types.js";

export const LeaderboardQuery = Type.Object(
  {
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100_000_000, description: "Rows to skip from rank 1 (default 0)" }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: "Rows per page (default 50)" }),
    ),
  },
  { additionalProperties: false },
);
export const UserRowQuery = Type.Object(
  { userId: Type.Optional(IdString({ description: "Whose row; default the signed-in player's" })) },
  { additionalProperties: false },
);
export const TopPointsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: "How many players from the top (default 10)" }),
    ),
  },
  { additionalProperties: false },
);

export const TotalRowSchema = Type.Object(
  {
    rank: Nullable(Type.Integer({ description: "null at 0 SP" })),
    userId: Type.String(),
    displayName: Type.String(),
    wallet: Nullable(Type.String()),
    totalSp: Type.Integer(),
  },
  {
    title: "AllTimeRow",
    examples: [
      {
        rank: 1,
        userId: "42",
        displayName: "0x70F1…79C8",
        wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        totalSp: 5400,
      },
    ],
  },
);
