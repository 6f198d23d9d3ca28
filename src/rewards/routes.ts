/** HTTP edge of rewards: /api/referrals (GET, POST), /api/daily-raffle, /api/reclaim/info, /api/reclaim. */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { requireUser } from "../auth/session.js";
import { ok, okSchema } from "../http/envelope.js";
import { Nullable } from "../shared/schema-types.js";
import { claimDailyCredits, type DailyCreditDeps, getDailyClaimInfo } from "./daily-credits.js";
import { getDailyRaffle, type RaffleDeps } from "./daily-raffle.js";
import { getReferrals, LISTED_REFEREES, type ReferralDeps, redeemReferrals } from "./referrals.js";

const Iso = Type.String({ format: "date-time" });

const ReferralsResponse = Type.Object(
  {
    code: Type.String(),
    referredCount: Type.Integer(),
    pendingRewardSp: Type.Integer(),
    redeemedRewardSp: Type.Integer(),
    referees: Type.Array(
      Type.Object(
        {
          userId: Type.String(),
          displayName: Type.String(),
          joinedAt: Iso,
          status: Type.Union([Type.Literal("waiting"), Type.Literal("redeemable"), Type.Literal("redeemed")]),
        },
        { title: "Referee" },
      ),
      {
        maxItems: LISTED_REFEREES,
        description: `The newest ${LISTED_REFEREES} referees, newest first; the counts cover every referee`,
      },
    ),
  },
  { title: "Referrals" },
);

export async function rewardRoutes(
  app: FastifyInstance,
  opts: { referrals: ReferralDeps; raffle: RaffleDeps; daily: DailyCreditDeps },
) {
  const tags = ["rewards"];

  app.get(
    "/api/referrals",
    {
      schema: {
        summary: "My referral code and referees",
        tags,
        response: { 200: okSchema(ReferralsResponse) },
      },
      config: { auth: "session" },
    },
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
        summary: "Redeem my pending referral rewards as SP",
        tags,
        response: {
          200: okSchema(
            Type.Object(
              { redeemedSp: Type.Integer(), redeemedCount: Type.Integer() },
              { title: "ReferralRedemption" },
            ),
          ),
        },
      },
      config: { auth: "session" },
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
        summary: "Today's raffle and whether I am in it",
        tags,
        response: {
          200: okSchema(
            Type.Object(
              {
                date: Type.String(),
                eligible: Type.Boolean(),
                reason: Nullable(Type.String()),
                drawAt: Iso,
              },
              { title: "DailyRaffle" },
            ),
          ),
        },
      },
      config: { auth: "session-optional" },
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
        summary: "My daily free credits: balance, amount, next claim",
        tags,
        response: {
          200: okSchema(
            Type.Object(
              {
                balance: Type.Integer(),
                amount: Type.Integer(),
                claimable: Type.Boolean(),
                nextClaimAt: Iso,
              },
              { title: "DailyCreditsInfo" },
            ),
          ),
        },
      },
      config: { auth: "session" },
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
        summary: "Claim today's free credits",
        tags,
        response: {
          200: okSchema(
            Type.Object(
              { amount: Type.Integer(), balance: Type.Integer(), nextClaimAt: Iso },
              { title: "DailyCreditsClaim" },
            ),
          ),
        },
      },
      config: { auth: "session", errors: ["ALREADY_CLAIMED"] },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const claim = await claimDailyCredits(opts.daily, user.id);
      return ok({ ...claim, nextClaimAt: claim.nextClaimAt.toISOString() });
    },
  );
}
