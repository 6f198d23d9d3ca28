/**
 * The business metrics of SPEC §11 that count what this process did, as Prometheus counters, histograms and a
 * gauge held in process memory (the usual Prometheus practice: each instance counts its own work, dashboards sum
 * the instances with `sum(rate(…))`). The code that does the work increments them; GET /metrics serves them with
 * the HTTP and process metrics (src/http/metrics.ts), beside the gauges read from the database at each scrape
 * (`app_last_finalized_week`, `app_indexer_lag_*`: the same value on every instance).
 *
 * - `app_bets_total{version,status}`: bets recorded, by version (1, 2) and the status they were recorded with
 *   (v1 `open`; v2 `pending`, `open` or `rejected`).
 * - `app_settlements_total`: predictions settled (won, lost or void).
 * - `app_sp_ledger_rows_total{type}`: SP ledger rows written, by type.
 * - `app_finalize_duration_seconds`: how long each finalization that finalized a week took, whatever its path.
 * - `app_finalize_failures_total`: failed attempts of the automatic finalize (not "not ready yet").
 * - `app_webhook_deliveries_total{outcome}`: webhook delivery attempts: `delivered`, `retry` (failed, will be
 *   retried), `failed` (failed for the last time).
 * - `app_stream_clients`: live-stream connections open on this instance; the stream sets it (`streamClients`).
 * - `app_display_store_users`: users held by this instance's display store (ladder names and wallets in memory,
 *   competition/rank-cache/display-cache.ts): 0 until its load in the background ends after a start.
 *
 * Counted when the row is written, inside its transaction: a transaction that rolls back after its write was
 * counted is counted anyway (rare: the writes are the last steps of their use cases).
 */
import { Counter, Gauge, Histogram, type Metric } from "prom-client";

export const betsTotal = new Counter({
  name: "app_bets_total",
  help: "Bets recorded, by version and the status they were recorded with",
  labelNames: ["version", "status"] as const,
  registers: [],
});

export const settlementsTotal = new Counter({
  name: "app_settlements_total",
  help: "Predictions settled (won, lost or void)",
  registers: [],
});

export const spLedgerRowsTotal = new Counter({
  name: "app_sp_ledger_rows_total",
  help: "SP ledger rows written, by type",
  labelNames: ["type"] as const,
  registers: [],
});

export const finalizeDurationSeconds = new Histogram({
  name: "app_finalize_duration_seconds",
  help: "Duration of each finalization of a week",
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [],
});

export const finalizeFailuresTotal = new Counter({
  name: "app_finalize_failures_total",
  help: "Failed attempts of the automatic finalize (retried every minute)",
  registers: [],
});

export const webhookDeliveriesTotal = new Counter({
  name: "app_webhook_deliveries_total",
  help: "Webhook delivery attempts, by outcome (delivered, retry, failed)",
  labelNames: ["outcome"] as const,
  registers: [],
});

/** Live-stream connections open on this instance: the stream calls `streamClients.inc()` / `.dec()` / `.set(n)`. */
export const streamClients = new Gauge({
  name: "app_stream_clients",
  help: "Live-stream (SSE) clients connected to this instance",
  registers: [],
});

/** Users in this instance's display store; the display cache sets it when its load ends. */
export const displayStoreUsers = new Gauge({
  name: "app_display_store_users",
  help: "Users whose ladder display data this instance holds in memory (0 until loaded after a start)",
  registers: [],
});

/** Every metric above, for a registry to serve. */
export const processMetrics: readonly Metric[] = [
  betsTotal,
  settlementsTotal,
  spLedgerRowsTotal,
  finalizeDurationSeconds,
  finalizeFailuresTotal,
  webhookDeliveriesTotal,
  streamClients,
  displayStoreUsers,
];
