/**
 * The Grafana dashboard of docs/operations.md, as data: `PANELS` (title, unit, PromQL per series) is the single
 * source of both docs/grafana/dashboard.json (written by `npx tsx scripts/grafana-dashboard.ts`) and the demo
 * rendering (scripts/ops-dashboard-demo.ts), so the picture shows exactly the dashboard's queries.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface PanelSpec {
  title: string;
  kind: "timeseries" | "stat";
  unit: string;
  /** PromQL and legend per series; `{{label}}` in the legend expands per label value. */
  targets: Array<{ expr: string; legend: string }>;
  description: string;
  /** Grid position: 24 columns wide. */
  grid: { x: number; y: number; w: number; h: number };
}

/** Grafana's datasource input placeholder (a literal `${…}` in the JSON, filled at import). */
const DS = ["$", "{DS_PROMETHEUS}"].join("");
/** PromQL label_replace's first capture group. */
const GROUP1 = ["$", "{1}"].join("");

export const PANELS: PanelSpec[] = [
  {
    title: "Last finalized week",
    kind: "stat",
    unit: "none",
    targets: [{ expr: "max(app_last_finalized_week)", legend: "week" }],
    description: "The newest finalized week (read from the database at each scrape; -1 before any).",
    grid: { x: 0, y: 0, w: 4, h: 5 },
  },
  {
    title: "Finalize failures (24 h)",
    kind: "stat",
    unit: "none",
    targets: [{ expr: "sum(increase(app_finalize_failures_total[24h]))", legend: "failures" }],
    description: "Failed automatic finalize attempts (retried every minute). Alert: any.",
    grid: { x: 4, y: 0, w: 4, h: 5 },
  },
  {
    title: "Stream clients",
    kind: "stat",
    unit: "none",
    targets: [{ expr: "sum(app_stream_clients)", legend: "clients" }],
    description: "Live-stream (SSE) connections over all instances.",
    grid: { x: 8, y: 0, w: 4, h: 5 },
  },
  {
    title: "Finalize duration",
    kind: "timeseries",
    unit: "s",
    targets: [
      {
        expr: "histogram_quantile(0.5, sum by (le) (rate(app_finalize_duration_seconds_bucket[1d])))",
        legend: "p50",
      },
      {
        expr: "histogram_quantile(0.95, sum by (le) (rate(app_finalize_duration_seconds_bucket[1d])))",
        legend: "p95",
      },
    ],
    description: "How long finalizing a week takes (all paths).",
    grid: { x: 12, y: 0, w: 12, h: 5 },
  },
  {
    title: "Bets per minute",
    kind: "timeseries",
    unit: "short",
    targets: [
      { expr: "sum by (version, status) (rate(app_bets_total[5m])) * 60", legend: "v{{version}} {{status}}" },
    ],
    description: "Bets recorded, by version and the status they were recorded with.",
    grid: { x: 0, y: 5, w: 12, h: 8 },
  },
  {
    title: "Settlements per minute",
    kind: "timeseries",
    unit: "short",
    targets: [{ expr: "sum(rate(app_settlements_total[5m])) * 60", legend: "predictions settled" }],
    description: "Predictions settled (won, lost, void).",
    grid: { x: 12, y: 5, w: 12, h: 8 },
  },
  {
    title: "SP ledger rows per minute",
    kind: "timeseries",
    unit: "short",
    targets: [{ expr: "sum by (type) (rate(app_sp_ledger_rows_total[5m])) * 60", legend: "{{type}}" }],
    description: "SP ledger rows written, by type.",
    grid: { x: 0, y: 13, w: 12, h: 8 },
  },
  {
    title: "Webhook deliveries per minute",
    kind: "timeseries",
    unit: "short",
    targets: [
      { expr: "sum by (outcome) (rate(app_webhook_deliveries_total[5m])) * 60", legend: "{{outcome}}" },
    ],
    description: "Delivery attempts: delivered, retry (failed, will retry), failed (gave up).",
    grid: { x: 12, y: 13, w: 12, h: 8 },
  },
  {
    title: "Indexer lag (seconds)",
    kind: "timeseries",
    unit: "s",
    targets: [{ expr: "max by (indexer) (app_indexer_lag_seconds)", legend: "{{indexer}}" }],
    description: "Seconds since each chain indexer's records are known complete. /readyz degrades past 300.",
    grid: { x: 0, y: 21, w: 12, h: 8 },
  },
  {
    title: "Indexer lag (blocks)",
    kind: "timeseries",
    unit: "short",
    targets: [{ expr: "max by (indexer) (app_indexer_lag_blocks)", legend: "{{indexer}}" }],
    description: "Final blocks not yet indexed, as of each indexer's last check.",
    grid: { x: 12, y: 21, w: 12, h: 8 },
  },
  {
    title: "HTTP requests per second",
    kind: "timeseries",
    unit: "reqps",
    targets: [
      {
        expr: `sum by (class) (label_replace(rate(http_requests_total[5m]), "class", "${GROUP1}xx", "status", "(.).."))`,
        legend: "{{class}}",
      },
    ],
    description: "Requests by status class.",
    grid: { x: 0, y: 29, w: 12, h: 8 },
  },
  {
    title: "HTTP latency p95",
    kind: "timeseries",
    unit: "s",
    targets: [
      {
        expr: "histogram_quantile(0.95, sum by (le) (rate(http_request_duration_seconds_bucket[5m])))",
        legend: "p95",
      },
    ],
    description: "95th percentile of request latency over all routes.",
    grid: { x: 12, y: 29, w: 12, h: 8 },
  },
];

export function dashboardJson() {
  return {
    __inputs: [
      {
        name: "DS_PROMETHEUS",
        label: "Prometheus",
        type: "datasource",
        pluginId: "prometheus",
        pluginName: "Prometheus",
      },
    ],
    title: "SP competition: operations",
    uid: "sp-competition-ops",
    tags: ["sp-competition"],
    timezone: "utc",
    schemaVersion: 39,
    version: 1,
    refresh: "30s",
    time: { from: "now-6h", to: "now" },
    templating: { list: [] },
    annotations: { list: [] },
    panels: PANELS.map((p, i) => ({
      id: i + 1,
      type: p.kind,
      title: p.title,
      description: p.description,
      gridPos: p.grid,
      datasource: { type: "prometheus", uid: DS },
      fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
      options:
        p.kind === "stat"
          ? { reduceOptions: { calcs: ["lastNotNull"], fields: "", values: false }, colorMode: "value" }
          : {
              legend: { displayMode: "list", placement: "bottom", showLegend: true },
              tooltip: { mode: "multi" },
            },
      targets: p.targets.map((t, j) => ({
        refId: String.fromCharCode(65 + j),
        expr: t.expr,
        legendFormat: t.legend,
        datasource: { type: "prometheus", uid: DS },
      })),
    })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = fileURLToPath(new URL("../docs/grafana/dashboard.json", import.meta.url));
  writeFileSync(out, `${JSON.stringify(dashboardJson(), null, 2)}\n`);
  console.log(`wrote ${out}`);
}
