/**
 * Prometheus metrics at GET /metrics (text exposition): request count and latency by route template and status,
 * the process defaults, the business counters of this process (src/metrics/app-metrics.ts), and gauges read from
 * the database at each scrape so every instance reports the same value: `app_last_finalized_week` (−1 before any)
 * and `app_indexer_lag_blocks{indexer}` / `app_indexer_lag_seconds{indexer}` of each configured indexer (absent
 * while unknown). A failed read leaves those gauges out of that scrape; the rest is still served.
 *
 * With METRICS_TOKEN set, /metrics needs `Authorization: Bearer <token>` (401 envelope otherwise).
 */
import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { PoolStats } from "../db/client.js";
import { AppError } from "../errors.js";
import { processMetrics } from "../metrics/app-metrics.js";
import { bearerMatches } from "../shared/secrets.js";
import type { IndexerLag } from "./health.js";

export interface MetricsOptions {
  /** METRICS_TOKEN; null leaves /metrics open. */
  token: string | null;
  /** The newest finalized week, or null before any. */
  lastFinalizedWeek?: () => Promise<number | null>;
  /** The configured indexers' lags. */
  indexerLags?: () => Promise<IndexerLag[]>;
  /** PostgreSQL only: each connection pool's state now. */
  poolStats?: () => PoolStats[];
}

export function registerMetrics(app: FastifyInstance, opts: MetricsOptions = { token: null }): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const metric of processMetrics) registry.registerMetric(metric);
  const labelNames = ["method", "route", "status"] as const;
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by route and status",
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by route and status",
    labelNames,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const readState = opts.lastFinalizedWeek;
  if (readState) {
    new Gauge({
      name: "app_last_finalized_week",
      help: "The newest finalized competition week (-1 before any), read from the database",
      registers: [registry],
      async collect() {
        this.reset();
        const week = await readState().catch(() => undefined);
        if (week !== undefined) this.set(week ?? -1);
      },
    });
  }
  // Read once per scrape by the /metrics handler, before the registry collects both lag gauges from it.
  let lags: IndexerLag[] = [];
  if (opts.indexerLags) {
    new Gauge({
      name: "app_indexer_lag_blocks",
      help: "Final blocks a chain indexer has not indexed yet, as of its last check",
      labelNames: ["indexer"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const l of lags) if (l.lagBlocks !== null) this.set({ indexer: l.indexer }, l.lagBlocks);
      },
    });
    new Gauge({
      name: "app_indexer_lag_seconds",
      help: "Seconds since the instant a chain indexer's records are known complete through",
      labelNames: ["indexer"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const l of lags) if (l.lagSeconds !== null) this.set({ indexer: l.indexer }, l.lagSeconds);
      },
    });
  }

  const poolStats = opts.poolStats;
  if (poolStats) {
    // A pool whose connections are all busy while requests wait for one, scrape after scrape, is saturated (load)
    // or wedged (connections never given back: docs/reliability.md row 12); docs/operations.md tells them apart.
    new Gauge({
      name: "app_db_pool_connections",
      help: "PostgreSQL connections of this instance's pools: busy (checked out), idle, and the queries waiting",
      labelNames: ["pool", "state"] as const,
      registers: [registry],
      collect() {
        for (const p of poolStats()) {
          for (const state of ["busy", "idle", "waiting"] as const)
            this.set({ pool: p.pool, state }, p[state]);
        }
      },
    });
    new Gauge({
      name: "app_db_pool_size",
      help: "The most PostgreSQL connections each of this instance's pools opens",
      labelNames: ["pool"] as const,
      registers: [registry],
      collect() {
        for (const p of poolStats()) this.set({ pool: p.pool }, p.size);
      },
    });
  }

  app.addHook("onResponse", async (request, reply) => {
    const labels = {
      method: request.method,
      // The route template, never the raw URL, so ids do not explode the label set.
      route: request.routeOptions.url ?? "unmatched",
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  const token = opts.token;
  app.get(
    "/metrics",
    {
      schema: {
        summary: "Prometheus metrics: requests, latency, the process, and the business (SPEC §11)",
        description:
          "With METRICS_TOKEN set, it needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); open without.",
        tags: ["ops"],
        response: {
          200: {
            description: "The Prometheus text exposition format (version 0.0.4)",
            content: { "text/plain": { schema: { type: "string" } } },
          },
        },
      },
      config: { auth: "public", errors: ["UNAUTHENTICATED"] },
      onRequest: async (request) => {
        if (token !== null && !bearerMatches(request.headers.authorization, token)) {
          throw new AppError("UNAUTHENTICATED", "Missing or wrong metrics bearer token");
        }
      },
    },
    async (_request, reply) => {
      lags = (await opts.indexerLags?.().catch(() => null)) ?? [];
      reply.header("content-type", registry.contentType);
      return registry.metrics();
    },
  );
  return registry;
}
