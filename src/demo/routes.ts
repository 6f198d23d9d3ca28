/**
 * HTTP edge of the demo chain: `POST /api/demo/faucet {address}`. Registered only by `npm run demo` (src/demo/
 * demo.ts passes a faucet to buildApp); every other server answers the JSON 404 for it.
 */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { ok, okSchema } from "../http/envelope.js";
import { type Faucet, FaucetCooldown } from "./faucet.js";
import { FaucetBody, FaucetResponse } from "./schema.js";

export async function demoRoutes(instance: FastifyInstance, opts: { faucet: Faucet }) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    "/api/demo/faucet",
    {
      schema: {
        summary: "Demo chain only: send test USDC and gas to a wallet",
        tags: ["demo"],
        description:
          "Only under `npm run demo` (404 otherwise). A fixed amount of test USDC and of the native coin, none " +
          "of either once the address holds the cap; one request per address a minute.",
        body: FaucetBody,
        response: { 200: okSchema(FaucetResponse) },
      },
      // Per IP, tight: the sign-in class (RATE_LIMIT_AUTH_PER_MIN).
      config: { auth: "public", rateClass: "auth", errors: ["SERVICE_UNAVAILABLE"] },
    },
    async (request, reply) => {
      try {
        return ok(await opts.faucet.fund(request.body.address));
      } catch (err) {
        if (err instanceof FaucetCooldown) reply.header("retry-after", String(err.retryAfterSeconds));
        throw err;
      }
    },
  );
}
