/** HTTP edge of rewards: /api/referrals (GET, POST), /api/daily-raffle, /api/reclaim/info, /api/reclaim. */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { ok, okSchema } from "../http/envelope.js";
import { requireUser } from "../http/session.js";
import { claimDailyCredits, type DailyCreditDeps, getDailyClaimInfo } from "./daily-credits.js";
import { getDailyRaffle, type RaffleDeps } from "./daily-raffle.js";
import { getReferrals, type ReferralDeps, redeemReferrals } from "./referrals.js";

const Iso = Type.String({ format: "date-time" });

const ReferralsResponse = Type.Object({
  code: Type.String(),
  referredCount: Type.Integer(),
  pendingRewardSp: Type.Integer(),
  redeemedRewardSp: Type.Integer(),
  referees: Type.Array(
    Type.Object({
      userId: Type.String(),
      displayName: Type.String(),
      joinedAt: Iso,
      status: Type.Union([Type.Literal("waiting"), Type.Literal("redeemable"), Type.Literal("redeemed")]),
    }),
  ),
});

export async function rewardRoutes(
  app: FastifyInstance,
  opts: { referrals: ReferralDeps; raffle: RaffleDeps; daily: DailyCreditDeps },
) {
  const tags = ["rewards"];
  const security = [{ session: [] }];

  app.get(
    "/api/referrals",
    { schema: { tags, security, response: { 200: okSchema(ReferralsResponse) } } },
    async (request) => {
      const { user } = await requireUser(request);
      const r = await getReferrals(opts.referrals, user);
      return ok({
        ...r,
        referees: r.referees.map((x) => ({
          userId: x.userId,
          displayName: x.displayName,
          joinedAt: x.joinedAt.toISOString(),
          status: x.status,
        })),
      });
    },
  );

  app.post(
    "/api/referrals",
    {
      schema: {
        tags,
        security,
        response: {
          200: okSchema(Type.Object({ redeemedSp: Type.Integer(), redeemedCount: Type.Integer() })),
        },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return ok(await redeemReferrals(opts.referrals, user));
    },
  );

  app.get(
    "/api/daily-raffle",
    {
      schema: {
        tags,
        response: {
          200: okSchema(
            Type.Object({
              date: Type.String(),
              eligible: Type.Boolean(),
              reason: Type.Union([Type.String(), Type.Null()]),
              drawAt: Iso,
            }),
          ),
        },
      },
    },
    async (request) => {
      const session = await request.session();
      const r = await getDailyRaffle(opts.raffle, session?.user.id ?? null);
      return ok({ ...r, drawAt: r.drawAt.toISOString() });
    },
  );

  app.get(
    "/api/reclaim/info",
    {
      schema: {
        tags,
        security,
        response: {
          200: okSchema(
            Type.Object({
              balance: Type.Integer(),
              amount: Type.Integer(),
              claimable: Type.Boolean(),
              nextClaimAt: Iso,
            }),
          ),
        },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const info = await getDailyClaimInfo(opts.daily, user.id);
      return ok({ ...info, nextClaimAt: info.nextClaimAt.toISOString() });
    },
  );

  app.post(
    "/api/reclaim",
    {
      schema: {
        tags,
        security,
        response: {
          200: okSchema(Type.Object({ amount: Type.Integer(), balance: Type.Integer(), nextClaimAt: Iso })),
        },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const claim = await claimDailyCredits(opts.daily, user.id);
      return ok({ ...claim, nextClaimAt: claim.nextClaimAt.toISOString() });
    },
  );
}
