/**
 * HTTP edge of the competition: /api/competition/meta, leaderboard, me, prize-pool-estimate, weeks/:week/prize-tree,
 * finalize.
 */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { requireUserId } from "../auth/session.js";
import { AppError } from "../errors.js";
import { cacheFinal } from "../http/caching.js";
import { ok, okSchema } from "../http/envelope.js";
import { sendShared, sendSharedBytes } from "../http/shared-representation.js";
import { secretMatches } from "../shared/secrets.js";
import type { CompetitionDeps } from "./competition-deps.js";
import { finalizeWeek } from "./finalize-week.js";
import { getLadderPage } from "./get-ladder-page.js";
import { getMeta } from "./get-meta.js";
import { getMyStatus } from "./get-my-status.js";
import { getPrizePoolEstimate } from "./get-pool-estimate.js";
import { getPrizeTree } from "./get-prize-tree.js";
import { liveLadderJson } from "./ladder-json.js";
import {
  presentFinalize,
  presentLeaderboard,
  presentMe,
  presentMeta,
  presentPrizePool,
  presentPrizeTree,
} from "./presenters.js";
import {
  FinalizeQuery,
  FinalizeResponse,
  LeaderboardQuery,
  LeaderboardResponse,
  MeResponse,
  MetaResponse,
  PrizePoolResponse,
  PrizeTreeResponse,
  WeekParams,
  WeekQuery,
} from "./schema.js";

export async function competitionRoutes(
  instance: FastifyInstance,
  opts: { deps: CompetitionDeps; finalizeSecret: string },
) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = opts;
  const tags = ["competition"];

  app.get(
    "/api/competition/meta",
    {
      schema: {
        summary: "The current week, its countdown and the week rail",
        tags,
        response: { 200: okSchema(MetaResponse) },
      },
      config: { auth: "public" },
    },
    async () => ok(presentMeta(await getMeta(deps))),
  );

  app.get(
    "/api/competition/leaderboard",
    {
      schema: {
        summary: "A page of a week's Qualification or Champions ladder",
        tags,
        querystring: LeaderboardQuery,
        response: { 200: okSchema(LeaderboardResponse) },
      },
      config: { auth: "public", cache: "immutable-once-final" },
    },
    async (request, reply) => {
      const q = request.query;
      const page = await getLadderPage(deps, {
        week: q.week,
        type: q.type ?? "qualification",
        offset: q.offset ?? 0,
        limit: q.limit ?? 50,
      });
      // A finalized week is served from its snapshot and is not provisional.
      cacheFinal(reply, !page.provisional);
      // A live Qualification page is one object from one rank-cache sync to the next: its bytes are built once,
      // from the rank cache's memory straight into JSON when it is on.
      if ("live" in page) {
        return sendSharedBytes(reply, page, () =>
          liveLadderJson(page, (frame) => reply.serialize(ok(presentLeaderboard(frame))) as string),
        );
      }
      return sendShared(reply, page, () => ok(presentLeaderboard(page)));
    },
  );

  app.get(
    "/api/competition/me",
    {
      schema: {
        summary: "My standing in a week",
        tags,
        querystring: WeekQuery,
        response: { 200: okSchema(MeResponse) },
      },
      config: { auth: "session" },
    },
    async (request) => {
      // Taken on arrival: a rank-cache feed read that starts while the session is checked serves this read too.
      const ticket = deps.cache?.ticket();
      const { userId } = await requireUserId(request);
      return ok(presentMe(await getMyStatus(deps, { userId, week: request.query.week, ticket })));
    },
  );

  app.get(
    "/api/competition/prize-pool-estimate",
    {
      schema: {
        summary: "A week's prize-pool estimate",
        tags,
        querystring: WeekQuery,
        response: { 200: okSchema(PrizePoolResponse) },
      },
      config: { auth: "public", cache: "immutable-once-final" },
    },
    async (request, reply) => {
      const pool = await getPrizePoolEstimate(deps, { week: request.query.week });
      cacheFinal(reply, pool.finalized);
      return ok(presentPrizePool(pool));
    },
  );

  app.get(
    "/api/competition/weeks/:week/prize-tree",
    {
      schema: {
        summary: "A finalized week's prize Merkle tree: root, leaves, total to fund",
        tags,
        description:
          "The leaves [week, account, amountMicro] of the week's Champions prizes as an OpenZeppelin " +
          "StandardMerkleTree (anyone can rebuild the root), the total the distributor is funded with, which leaves " +
          "were claimed on-chain, and the winners awaiting a wallet; see docs/onchain.md.",
        params: WeekParams,
        response: { 200: okSchema(PrizeTreeResponse) },
      },
      // Not immutable: a leaf's `claimed` follows the chain, an awaiting prize gets its later week.
      config: { auth: "public", errors: ["WEEK_NOT_FINALIZED"], cache: "revalidate" },
    },
    async (request) => ok(presentPrizeTree(await getPrizeTree(deps, { week: request.params.week }))),
  );

  app.post(
    "/api/competition/finalize",
    {
      schema: {
        summary: "Finalize an ended week: snapshots, prizes, next week's eligibility",
        tags,
        querystring: FinalizeQuery,
        response: { 200: okSchema(FinalizeResponse) },
      },
      config: {
        rateClass: "finalize",
        auth: "finalize",
        errors: ["WEEK_NOT_ENDED", "PREVIOUS_WEEK_NOT_FINALIZED", "FEES_NOT_INDEXED", "BETS_NOT_INDEXED"],
      },
      // The secret is checked before the query is validated: strangers learn nothing about the endpoint.
      onRequest: async (request) => {
        const given = request.headers["x-competition-finalize-secret"];
        if (!secretMatches(typeof given === "string" ? given : undefined, opts.finalizeSecret)) {
          throw new AppError("UNAUTHENTICATED", "Missing or wrong x-competition-finalize-secret");
        }
      },
    },
    async (request) =>
      ok(presentFinalize(await finalizeWeek({ ...deps, log: request.log }, { week: request.query.week }))),
  );
}
