/** HTTP edge of the chain: GET /api/chain/info. */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { ok, okSchema } from "../http/envelope.js";
import { type ChainInfoDeps, chainInfo } from "./chain-info.js";
import { ChainInfoSchema } from "./schema.js";

export async function chainRoutes(instance: FastifyInstance, opts: { deps: ChainInfoDeps }) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    "/api/chain/info",
    {
      schema: {
        summary: "The chain, contracts and odds signer of USDC bets",
        tags: ["chain"],
        description:
          "The chain, betting contract, USDC token and odds signer of version-2 bets, and the Champions prize " +
          "distributor (nulls when not configured); see docs/onchain.md.",
        response: { 200: okSchema(ChainInfoSchema) },
      },
      config: { auth: "public" },
    },
    async () => ok(await chainInfo(opts.deps)),
  );
}
