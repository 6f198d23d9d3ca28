/** HTTP edge of profile statistics: GET /api/user/profile-stats (signed in). */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { requireUser } from "../auth/session.js";
import type { CompetitionDeps } from "../competition/competition-deps.js";
import { ok, okSchema } from "../http/envelope.js";
import { formatUsdc } from "../shared/money.js";
import { Nullable, UsdcString } from "../shared/schema-types.js";
import { SP_TYPES } from "../shared/sp-types.js";
import { presentUser, UserSchema } from "../users/presenters.js";
import { getProfileStats } from "./profile-stats.js";

const ProfileStats = Type.Object(
  {
    user: UserSchema,
    totalSp: Type.Integer(),
    spByType: Type.Object(Object.fromEntries(SP_TYPES.map((type) => [type, Type.Integer()]))),
    predictions: Type.Object({
      total: Type.Integer(),
      won: Type.Integer(),
      lost: Type.Integer(),
      pending: Type.Integer(),
      void: Type.Integer(),
    }),
    winRate: Type.Number(),
    currentStreak: Type.Integer(),
    bestStreak: Type.Integer(),
    creditsBalance: Type.Integer(),
    usdcStaked: UsdcString(),
    usdcWon: UsdcString(),
    allTimeRank: Nullable(Type.Integer()),
    week: Type.Object({
      week: Type.Integer(),
      competitiveSp: Type.Integer(),
      qualificationRank: Nullable(Type.Integer()),
      championsRank: Nullable(Type.Integer()),
    }),
  },
  { title: "ProfileStats" },
);

export async function profileRoutes(app: FastifyInstance, opts: { deps: CompetitionDeps }) {
  app.get(
    "/api/user/profile-stats",
    {
      schema: { summary: "My statistics", tags: ["profile"], response: { 200: okSchema(ProfileStats) } },
      config: { auth: "session" },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { usdcStakedMicro, usdcWonMicro, ...s } = await getProfileStats(opts.deps, user);
      return ok({
        ...s,
        user: presentUser(s.user),
        usdcStaked: formatUsdc(usdcStakedMicro),
        usdcWon: formatUsdc(usdcWonMicro),
      });
    },
  );
}
