/** Schemas of the general leaderboard routes. */
import { Type } from "typebox";
import { IdString } from "../shared/schema-types.js";

export const LeaderboardQuery = Type.Object(
  {
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);
export const UserRowQuery = Type.Object(
  { userId: Type.Optional(IdString()) },
  { additionalProperties: false },
);
export const TopPointsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
  { additionalProperties: false },
);

export const TotalRowSchema = Type.Object({
  rank: Type.Union([Type.Integer(), Type.Null()]),
  userId: Type.String(),
  displayName: Type.String(),
  wallet: Type.Union([Type.String(), Type.Null()]),
  totalSp: Type.Integer(),
});
