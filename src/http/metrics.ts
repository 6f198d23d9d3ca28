/**
 * Prometheus metrics: request count and latency by route template and status, plus the process defaults,
 * served as text at GET /metrics.
 */
import type { FastifyInstance } from "fastify";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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

  app.get(
    "/metrics",
    {
      schema: {
        summary: "Prometheus metrics: requests by route and status, latency, the process",
        tags: ["ops"],
        response: {
          200: {
            description: "The Prometheus text exposition format (version 0.0.4)",
            content: { "text/plain": { schema: { type: "string" } } },
          },
        },
      },
      config: { auth: "public" },
    },
    async (_request, reply) => {
      reply.header("content-type", registry.contentType);
      return registry.metrics();
    },
  );
  return registry;
}
