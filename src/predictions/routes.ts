/** HTTP edge of predictions: bet-placed (v1), quote and bet-placed-v2, claim-payout, /api/user/predictions. */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { requireUser, requireUserId } from "../auth/session.js";
import { presentEvent } from "../events/presenters.js";
import { ok, okSchema } from "../http/envelope.js";
import type { TypedApp } from "../http/typed-app.js";
import { Nullable } from "../shared/schema-types.js";
import { claimPayout } from "./claim-payout.js";
import { listPredictions } from "./list-predictions.js";
import { type BetGroup, placeBet } from "./place-bet.js";
import { presentClaim, presentPrediction, presentQuote } from "./presenters.js";
import { type QuoteDeps, quoteBet } from "./quote-bet.js";
import { type OnchainBetDeps, reportOnchainBet } from "./report-onchain-bet.js";
import {
  BetBody,
  ClaimBody,
  ClaimResponse,
  IdempotencyHeaders,
  OnchainBetBody,
  PredictionSchema,
  PredictionsQuery,
  PredictionWithEvent,
  QuoteBody,
  QuoteResponse,
} from "./schema.js";

interface PredictionRoutesOptions {
  deps: OnchainBetDeps;
  quotes: QuoteDeps;
  /** The app's group commit of version-1 bets (place-bet.ts `betGroup`); absent: one transaction per bet. */
  bets?: BetGroup;
}

export async function predictionRoutes(instance: FastifyInstance, opts: PredictionRoutesOptions) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();

  betPlacedRoute(app, opts);
  quoteRoute(app, opts);
  onchainBetRoute(app, opts);
  claimPayoutRoute(app, opts);
  myPredictionsRoute(app, opts);
}

const tags = ["predictions"];

/** POST /api/pred2earn/bet-placed: a version-1 bet of free credits. */
function betPlacedRoute(app: TypedApp, opts: PredictionRoutesOptions): void {
  const deps = { db: opts.deps.db, clock: opts.deps.clock, bets: opts.bets };
  app.post(
    "/api/pred2earn/bet-placed",
    {
      schema: {
        summary: "Bet free credits on an outcome (version 1)",
        tags,
        headers: IdempotencyHeaders,
        body: BetBody,
        response: {
          201: okSchema(
            Type.Object(
              {
                prediction: PredictionSchema,
                balance: Type.Integer({ description: "The player's credits after the stake" }),
              },
              { title: "BetPlaced" },
            ),
          ),
        },
      },
      config: {
        auth: "session",
        errors: ["NOT_FOUND", "EVENT_CLOSED", "ODDS_CHANGED", "INSUFFICIENT_CREDITS", "CONFLICT"],
      },
    },
    async (request, reply) => {
      const { userId } = await requireUserId(request);
      const result = await placeBet(deps, {
        userId: BigInt(userId),
        ...request.body,
        idempotencyKey: request.headers["idempotency-key"],
      });
      reply.code(201);
      return ok({ prediction: presentPrediction(result.prediction), balance: result.balance });
    },
  );
}

/** POST /api/pred2earn/quote: a signed odds quote for a USDC bet. */
function quoteRoute(app: TypedApp, opts: PredictionRoutesOptions): void {
  app.post(
    "/api/pred2earn/quote",
    {
      schema: {
        summary: "A signed odds quote for a USDC bet of the signed-in wallet",
        tags,
        description:
          "A signed price for a version-2 (USDC) bet of the signed-in wallet: pass `quote` and `signature` to the " +
          "betting contract's placeBet(quote, signature, amount) before `expiresAt` (docs/onchain.md).",
        body: QuoteBody,
        response: { 200: okSchema(QuoteResponse) },
      },
      config: { auth: "session", errors: ["NOT_FOUND", "EVENT_CLOSED", "QUOTES_UNAVAILABLE"] },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const quote = await quoteBet(opts.quotes, {
        userId: user.id,
        walletLower: user.wallet,
        ...request.body,
      });
      return ok(presentQuote(quote));
    },
  );
}

/** POST /api/pred2earn/bet-placed-v2: report a USDC bet placed on-chain. */
function onchainBetRoute(app: TypedApp, opts: PredictionRoutesOptions): void {
  const { deps } = opts;
  app.post(
    "/api/pred2earn/bet-placed-v2",
    {
      schema: {
        summary: "Report a USDC bet placed on-chain (version 2)",
        tags,
        headers: IdempotencyHeaders,
        body: OnchainBetBody,
        response: {
          201: okSchema(Type.Object({ prediction: PredictionSchema }, { title: "OnchainBetReported" })),
        },
      },
      config: {
        auth: "session",
        errors: [
          "NOT_FOUND",
          "EVENT_CLOSED",
          "CONFLICT",
          "BET_NOT_FOUND",
          "BET_MISMATCH",
          "SERVICE_UNAVAILABLE",
        ],
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const prediction = await reportOnchainBet(deps, {
        userId: user.id,
        walletLower: user.wallet,
        ...request.body,
        idempotencyKey: request.headers["idempotency-key"],
      });
      reply.code(201);
      return ok({ prediction: presentPrediction(prediction) });
    },
  );
}

/** POST /api/pred2earn/claim-payout: claim a payout (credits, or a voucher for the contract). */
function claimPayoutRoute(app: TypedApp, opts: PredictionRoutesOptions): void {
  const { deps } = opts;
  app.post(
    "/api/pred2earn/claim-payout",
    {
      schema: {
        summary: "Claim the payout of a won or void prediction, or the stake of a rejected USDC bet",
        description:
          "Version 1: the credits are paid at once. Version 2: a payout voucher for the betting contract's " +
          "claimPayout; the same voucher is returned until it is used (the prediction is then `claimed`) or " +
          "expires (a new deadline is signed). 409 INSUFFICIENT_LIQUIDITY when the contract owes more than it holds.",
        tags,
        body: ClaimBody,
        response: { 200: okSchema(ClaimResponse) },
      },
      config: {
        auth: "session",
        errors: [
          "NOT_FOUND",
          "NOT_CLAIMABLE",
          "ALREADY_CLAIMED",
          "INSUFFICIENT_LIQUIDITY",
          "SERVICE_UNAVAILABLE",
        ],
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const claim = await claimPayout(deps, {
        userId: user.id,
        predictionId: BigInt(request.body.predictionId),
      });
      return ok(presentClaim(claim));
    },
  );
}

/** GET /api/user/predictions: my predictions, newest first, each with its event. */
function myPredictionsRoute(app: TypedApp, opts: PredictionRoutesOptions): void {
  const { deps } = opts;
  app.get(
    "/api/user/predictions",
    {
      schema: {
        summary: "My predictions, newest first, each with its event",
        tags,
        querystring: PredictionsQuery,
        response: {
          200: okSchema(
            Type.Object(
              {
                items: Type.Array(PredictionWithEvent),
                nextCursor: Nullable(
                  Type.String({ description: "The `cursor` of the next page; null on the last page" }),
                ),
              },
              { title: "PredictionPage" },
            ),
          ),
        },
      },
      config: { auth: "session" },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const page = await listPredictions(deps, {
        userId: user.id,
        status: request.query.status,
        limit: request.query.limit ?? 20,
        cursor: request.query.cursor,
      });
      return ok({
        items: page.items.map((i) => ({ ...presentPrediction(i.prediction), event: presentEvent(i.event) })),
        nextCursor: page.nextCursor,
      });
    },
  );
}
