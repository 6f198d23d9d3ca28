/** HTTP edge of the general leaderboard: /api/leaderboard, /user-row, /top-points. */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { requireUser } from "../auth/session.js";
import type { Db } from "../db/client.js";
import { ok, okSchema } from "../http/envelope.js";
import { checksumWallet } from "../users/presenters.js";
import { getAllTimePage, getAllTimeRow, type RankedTotal } from "./all-time.js";
import { LeaderboardQuery, TopPointsQuery, TotalRowSchema, UserRowQuery } from "./schema.js";

const present = (r: RankedTotal) => ({
  rank: r.rank,
  userId: r.userId,
  displayName: r.displayName,
  wallet: checksumWallet(r.wallet),
  totalSp: r.totalSp,
});

export async function leaderboardRoutes(instance: FastifyInstance, opts: { deps: { db: Db } }) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = opts;
  const tags = ["leaderboard"];

  app.get(
    "/api/leaderboard",
    {
      schema: {
        summary: "A page of the all-time SP leaderboard",
        tags,
        querystring: LeaderboardQuery,
        response: {
          200: okSchema(
            Type.Object(
              {
                total: Type.Integer(),
                offset: Type.Integer(),
                limit: Type.Integer(),
                rows: Type.Array(TotalRowSchema),
              },
              { title: "AllTimePage" },
            ),
          ),
        },
      },
      config: { auth: "public", cache: "revalidate" },
    },
    async (request) => {
      const offset = request.query.offset ?? 0;
      const limit = request.query.limit ?? 50;
      const page = await getAllTimePage(deps, { offset, limit });
      return ok({ total: page.total, offset, limit, rows: page.rows.map(present) });
    },
  );

  app.get(
    "/api/leaderboard/user-row",
    {
      schema: {
        summary: "One player's all-time row (mine when userId is omitted)",
        tags,
        querystring: UserRowQuery,
        response: { 200: okSchema(TotalRowSchema) },
      },
      config: { auth: "session-optional", errors: ["UNAUTHENTICATED", "NOT_FOUND"] },
    },
    async (request) => {
      const userId = request.query.userId
        ? BigInt(request.query.userId)
        : (await requireUser(request)).user.id;
      return ok(present(await getAllTimeRow(deps, userId)));
    },
  );

  app.get(
    "/api/leaderboard/top-points",
    {
      schema: {
        summary: "The all-time top players",
        tags,
        querystring: TopPointsQuery,
        response: {
          200: okSchema(Type.Object({ rows: Type.Array(TotalRowSchema) }, { title: "AllTimeTop" })),
        },
      },
      config: { auth: "public", cache: "revalidate" },
    },
    async (request) => {
      const page = await getAllTimePage(deps, { offset: 0, limit: request.query.limit ?? 10 });
      return ok({ rows: page.rows.map(present) });
    },
  );
}
