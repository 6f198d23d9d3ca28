/**
 * GET /healthz (process alive) and GET /readyz (SPEC §1, §11): readiness names every dependency it checked and
 * every configured chain indexer's lag.
 *
 * - 200 `{status: "ready", dependencies: [{name, status: "ok"}], indexers: [{indexer, lagBlocks, lagSeconds,
 *   status}]}`: the database answers (and Redis, when REDIS_URL is set) and no indexer lags.
 * - 200 with `status: "degraded"`: the same, but an indexer lags more than INDEXER_MAX_LAG_SECONDS (or its lag is
 *   not known yet: it has not completed a run). The service still serves; the operator looks at the indexer.
 * - 503 NOT_READY envelope naming the dependency that failed (database, then Redis). Every check is bounded by
 *   its client's timeouts.
 */
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { Nullable, StringEnum } from "../shared/schema-types.js";
import { ErrorEnvelope, errorBody, ok, okSchema } from "./envelope.js";

/** How far behind the chain one indexer is, as the chain capability reports it (null: never checked). */
export interface IndexerLag {
  indexer: string;
  lagBlocks: number | null;
  lagSeconds: number | null;
  checkedAt: Date | null;
}

export interface HealthOptions {
  ping: () => Promise<void>;
  /** Redis's ping, when REDIS_URL is set. */
  redisPing?: (() => Promise<unknown>) | null;
  /** The configured indexers' lags (read from the database). */
  indexerLags?: () => Promise<IndexerLag[]>;
  /** INDEXER_MAX_LAG_SECONDS. */
  maxLagSeconds?: number;
}

const Ready = okSchema(
  Type.Object({
    status: StringEnum(["ready", "degraded"] as const),
    dependencies: Type.Array(
      Type.Object({ name: StringEnum(["database", "redis"] as const), status: StringEnum(["ok"] as const) }),
    ),
    indexers: Type.Array(
      Type.Object({
        indexer: Type.String(),
        lagBlocks: Nullable(Type.Integer()),
        lagSeconds: Nullable(Type.Integer()),
        status: StringEnum(["ok", "lagging", "unknown"] as const),
      }),
    ),
  }),
  {
    description:
      "The database (and Redis, when configured) answered; `degraded` when a chain indexer lags more than " +
      "INDEXER_MAX_LAG_SECONDS or has not completed a run",
  },
);

export async function healthRoutes(app: FastifyInstance, opts: HealthOptions) {
  const Status = (status: string, description: string) =>
    okSchema(Type.Object({ status: StringEnum([status]) }), { description });
  const maxLag = opts.maxLagSeconds ?? 300;
  app.get(
    "/healthz",
    {
      schema: {
        summary: "The process is alive",
        tags: ["ops"],
        response: { 200: Status("ok", "OK: the process answers (it checks nothing else)") },
      },
      config: { auth: "public" },
    },
    async () => ok({ status: "ok" }),
  );
  app.get(
    "/readyz",
    {
      schema: {
        summary: "The dependencies answer; each chain indexer's lag (degraded past INDEXER_MAX_LAG_SECONDS)",
        tags: ["ops"],
        response: { 200: Ready, 503: ErrorEnvelope },
      },
      config: { auth: "public", errors: ["NOT_READY"] },
    },
    async (request, reply) => {
      const dependencies: Array<{ name: "database" | "redis"; status: "ok" }> = [];
      try {
        await opts.ping();
        dependencies.push({ name: "database", status: "ok" });
      } catch (err) {
        request.log.warn({ err }, "database not reachable");
        return reply.code(503).send(errorBody("NOT_READY", "Database not reachable"));
      }
      if (opts.redisPing) {
        try {
          await opts.redisPing();
          dependencies.push({ name: "redis", status: "ok" });
        } catch (err) {
          request.log.warn({ err }, "redis not reachable");
          return reply.code(503).send(errorBody("NOT_READY", "Redis not reachable"));
        }
      }
      let lags: IndexerLag[];
      try {
        lags = (await opts.indexerLags?.()) ?? [];
      } catch (err) {
        request.log.warn({ err }, "database not reachable");
        return reply.code(503).send(errorBody("NOT_READY", "Database not reachable"));
      }
      const indexers = lags.map((l) => ({
        indexer: l.indexer,
        lagBlocks: l.lagBlocks,
        lagSeconds: l.lagSeconds,
        status:
          l.lagSeconds === null
            ? ("unknown" as const)
            : l.lagSeconds > maxLag
              ? ("lagging" as const)
              : ("ok" as const),
      }));
      const degraded = indexers.some((i) => i.status !== "ok");
      return ok({ status: degraded ? ("degraded" as const) : ("ready" as const), dependencies, indexers });
    },
  );
}
