/** HTTP edge of the payout reconcile report: GET /api/admin/reconcile, behind the admin bearer token. */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/client.js";
import { AppError } from "../errors.js";
import { hasAdminToken } from "../http/admin-token.js";
import { ok, okSchema } from "../http/envelope.js";
import type { PayoutDeps } from "./claim-payout.js";
import { presentReconciliation } from "./presenters.js";
import { reconcilePayouts } from "./reconcile-payouts.js";
import { ReconcileResponse } from "./schema.js";

export async function reconcileRoutes(
  instance: FastifyInstance,
  opts: { deps: { db: Db; payouts: PayoutDeps | null }; adminToken: string },
) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook("onRequest", async (request) => {
    if (!hasAdminToken(request.headers.authorization, opts.adminToken)) {
      throw new AppError("UNAUTHENTICATED", "Missing or wrong admin bearer token");
    }
  });
  app.get(
    "/api/admin/reconcile",
    {
      schema: {
        summary:
          "The betting contract's balance against what it owes, vouchers against payouts, orphaned claims",
        tags: ["admin"],
        response: { 200: okSchema(ReconcileResponse) },
      },
      config: { auth: "admin", errors: ["PAYOUTS_UNAVAILABLE", "SERVICE_UNAVAILABLE"] },
    },
    async () => ok(presentReconciliation(await reconcilePayouts(opts.deps))),
  );
}
