/**
 * A demo run for the operations dashboard (docs/operations.md): runs the real app in this process (embedded
 * database in memory, TEST_CLOCK, AUTO_FINALIZE, a webhook receiver on 127.0.0.1 that answers 500 to the first
 * attempt of one message in five), drives it for about two minutes, scrapes GET /metrics every second, evaluates
 * the dashboard's panels (scripts/grafana-dashboard.ts) over those scrapes and renders them as an HTML page that
 * headless Chromium screenshots to docs/grafana/dashboard.png. Grafana itself is not installable here (no Debian
 * package, no Docker): this is an equivalent rendering of the same queries over the same metrics.
 *
 * What is real: 40 players signed in with SIWE betting over HTTP on twelve events, nine of them settled one every
 * 8 s (settlements, SP ledger rows, webhook messages), the automatic finalize of weeks 0 and 1 at the start and of
 * week 2 once the test clock passes its end plus the grace, webhook deliveries and retries, HTTP traffic. What is synthetic, because the demo has no chain and no live stream yet: the fee
 * indexer's check rows (a catching-up indexer, written through `recordIndexerCheck`) and `app_stream_clients`.
 * Rates use 10 s windows (the dashboard's 5 min, scaled to a two-minute run).
 *
 * Run: `npx tsx scripts/ops-dashboard-demo.ts` (needs /usr/bin/chromium).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { buildApp } from "../src/app.js";
import { feeCursorName } from "../src/chain/fee-indexer.js";
import { recordIndexerCheck } from "../src/chain/indexer-health.js";
import { AdjustableClock } from "../src/clock.js";
import { loadConfig } from "../src/config.js";
import { openDatabase, sql } from "../src/db/client.js";
import { startOperationsJobs } from "../src/jobs/operations-jobs.js";
import { streamClients } from "../src/metrics/app-metrics.js";
import { PANELS, type PanelSpec } from "./grafana-dashboard.js";

const TOKEN = "demo-metrics-token-0123";
const ADMIN = { authorization: "Bearer demo-admin-token" };
const DURATION_S = 120;

type Sample = Map<string, number>;
const scrapes: Array<{ t: number; m: Sample }> = [];

function parse(text: string): Sample {
  const out: Sample = new Map();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const i = line.lastIndexOf(" ");
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** Series name → labels of a sample key `name{a="x",b="y"}`. */
function split(key: string): { name: string; labels: Record<string, string> } {
  const m = /^([^{]+)(?:\{(.*)\})?$/.exec(key)!;
  const labels: Record<string, string> = {};
  for (const [, k, v] of (m[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)) labels[k!] = v!;
  return { name: m[1]!, labels };
}

function expand(legend: string, labels: Record<string, string>): string {
  return legend.replace(/\{\{(\w+)\}\}/g, (_, k: string) => labels[k] ?? "");
}

/** Sum of `name` grouped by `by` (labels of the legend) at scrape i. */
function grouped(i: number, name: string, legend: string, filter?: (l: Record<string, string>) => boolean) {
  const out = new Map<string, number>();
  for (const [key, v] of scrapes[i]!.m) {
    const { name: n, labels } = split(key);
    if (n !== name || (filter && !filter(labels))) continue;
    const g = expand(legend, labels);
    out.set(g, (out.get(g) ?? 0) + v);
  }
  return out;
}

const WINDOW = 10;

/** The series of one panel target, evaluated over the scrapes (the few PromQL shapes the dashboard uses). */
function evaluate(expr: string, legend: string): Map<string, Array<number | null>> {
  const series = new Map<string, Array<number | null>>();
  const put = (g: string, i: number, v: number | null) => {
    if (!series.has(g))
      series.set(
        g,
        scrapes.map(() => null),
      );
    series.get(g)![i] = v;
  };
  const rate = /rate\((\w+)\[/.exec(expr)?.[1];
  const quantile = /histogram_quantile\(([\d.]+), sum by \(le\) \(rate\((\w+)_bucket/.exec(expr);
  const perMinute = expr.includes("* 60") ? 60 : 1;
  for (let i = 0; i < scrapes.length; i++) {
    // The newest scrape at least WINDOW seconds older (scrapes pause while a seed holds the event loop).
    let j = i;
    while (j > 0 && scrapes[i]!.t - scrapes[j]!.t < WINDOW) j--;
    const dt = scrapes[i]!.t - scrapes[j]!.t;
    if (quantile) {
      // Over the whole run for finalize (1d in the dashboard), over the window for HTTP.
      const from = quantile[2] === "app_finalize_duration_seconds" ? 0 : j;
      const buckets = [...grouped(i, `${quantile[2]}_bucket`, "{{le}}")]
        .map(([le, v]) => ({
          le: le === "+Inf" ? Infinity : Number(le),
          v: v - (grouped(from, `${quantile[2]}_bucket`, "{{le}}").get(le) ?? 0),
        }))
        .sort((a, b) => a.le - b.le);
      const total = buckets.at(-1)?.v ?? 0;
      if (total <= 0) continue;
      const rank = Number(quantile[1]) * total;
      let prevLe = 0;
      let prevV = 0;
      for (const b of buckets) {
        if (b.v >= rank) {
          const le = b.le === Infinity ? prevLe : b.le;
          put(legend, i, prevLe + ((le - prevLe) * (rank - prevV)) / Math.max(b.v - prevV, 1e-9));
          break;
        }
        prevLe = b.le;
        prevV = b.v;
      }
    } else if (expr.includes("increase(")) {
      const name = /increase\((\w+)\[/.exec(expr)![1]!;
      put(
        legend,
        i,
        (grouped(i, name, legend).get(legend) ?? 0) - (grouped(0, name, legend).get(legend) ?? 0),
      );
    } else if (rate) {
      const legendFor = rate === "http_requests_total" ? "{{status}}" : legend;
      const now = grouped(i, rate, legendFor);
      const then = grouped(j, rate, legendFor);
      for (const [g, v] of now) {
        const key = rate === "http_requests_total" ? `${g[0]}xx` : g;
        const r = dt > 0 ? ((v - (then.get(g) ?? 0)) / dt) * perMinute : 0;
        put(key, i, ((series.get(key)?.[i] as number | null) ?? 0) + r);
      }
    } else {
      const name = /\((\w+)\)$/.exec(expr)![1]!;
      for (const [g, v] of grouped(i, name, legend)) put(g, i, v);
    }
  }
  return series;
}

const COLORS = ["#73bf69", "#f2cc0c", "#5794f2", "#ff780a", "#b877d9", "#f2495c", "#8ab8ff", "#96d98d"];

function svgChart(series: Map<string, Array<number | null>>, w: number, h: number): string {
  const all = [...series.values()].flat().filter((v): v is number => v !== null);
  const max = Math.max(1e-9, ...all) * 1.1;
  const x = (i: number) => 40 + (scrapes[i]!.t / DURATION_S) * (w - 50);
  const y = (v: number) => h - 20 - (v / max) * (h - 30);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => {
      const v = max * f;
      const label = v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toFixed(3);
      return `<line x1="40" x2="${w - 10}" y1="${y(v)}" y2="${y(v)}" stroke="#2c3235"/><text x="36" y="${y(v) + 4}" fill="#8e8e8e" font-size="10" text-anchor="end">${label}</text>`;
    })
    .join("");
  const ticks = [0, 30, 60, 90, 120]
    .filter((s) => s <= DURATION_S)
    .map(
      (s) =>
        `<text x="${40 + (s / DURATION_S) * (w - 50)}" y="${h - 5}" fill="#8e8e8e" font-size="10" text-anchor="middle">${s}s</text>`,
    )
    .join("");
  const lines = [...series.entries()]
    .map(([, vs], k) => {
      const pts = vs.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`));
      const path = pts.reduce(
        (acc, p, i) => (p === null ? acc : `${acc}${acc === "" || pts[i - 1] === null ? "M" : "L"}${p}`),
        "",
      );
      return `<path d="${path}" fill="none" stroke="${COLORS[k % COLORS.length]}" stroke-width="1.6"/>`;
    })
    .join("");
  return `<svg width="${w}" height="${h}">${grid}${ticks}${lines}</svg>`;
}

function panelHtml(p: PanelSpec, colWidth: number, rowHeight: number): string {
  const w = p.grid.w * colWidth - 8;
  const h = p.grid.h * rowHeight - 8;
  const merged = new Map<string, Array<number | null>>();
  for (const t of p.targets) for (const [k, v] of evaluate(t.expr, t.legend)) merged.set(k, v);
  const style = `left:${p.grid.x * colWidth}px;top:${p.grid.y * rowHeight}px;width:${w}px;height:${h}px`;
  if (p.kind === "stat") {
    const last = [...merged.values()].map((vs) => vs.filter((v) => v !== null).at(-1) ?? null).at(0) ?? null;
    const text = last === null ? "–" : Number.isInteger(last) ? String(last) : last.toFixed(2);
    const color = p.title.startsWith("Finalize failures") && (last ?? 0) > 0 ? "#f2495c" : "#73bf69";
    return `<div class="panel" style="${style}"><div class="title">${p.title}</div><div class="stat" style="color:${color}">${text}</div></div>`;
  }
  const legend = [...merged.keys()]
    .map((k, i) => `<span><i style="background:${COLORS[i % COLORS.length]}"></i>${k}</span>`)
    .join("");
  return `<div class="panel" style="${style}"><div class="title">${p.title} <small>${p.unit === "s" ? "(s)" : ""}</small></div>${svgChart(merged, w - 10, h - 48)}<div class="legend">${legend}</div></div>`;
}

async function main() {
  const config = loadConfig({
    NODE_ENV: "development",
    CHAMPIONS_SEASON_START_ISO: "2026-11-02T00:00:00.000Z",
    CHAMPIONS_WEEK_ONE_START_ISO: "2026-11-10T00:00:00.000Z",
    ADMIN_TOKEN: "demo-admin-token",
    FINALIZE_SECRET: "demo-finalize-secret",
    JWT_SECRET: "demo-jwt-secret-0123456789abcdef0123456789",
    TEST_CLOCK: "1",
    METRICS_TOKEN: TOKEN,
    LOG_LEVEL: "warn",
    FEE_INDEXER: "on",
    CHAIN_ID: "8453",
    CHAIN_RPC_URL: "http://127.0.0.1:9",
    FEE_CONTRACT_ADDRESSES: "0x00000000000000000000000000000000000000fe",
    RATE_LIMIT_READ_PER_MIN: "1000000",
    RATE_LIMIT_WRITE_PER_MIN: "1000000",
    RATE_LIMIT_AUTH_PER_MIN: "1000000",
  });
  const database = await openDatabase({ databaseUrl: null, dataDir: null });
  // Thu 2026-11-19 12:00: weeks 0 and 1 ended, week 2 live.
  const clock = new AdjustableClock(new Date("2026-11-19T12:00:00.000Z"));
  const app = await buildApp({ config, database, clock });
  await app.ready();

  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      const first = !seen.has(id);
      seen.add(id);
      const unlucky = createHash("sha256").update(id).digest()[0]! % 5 === 0;
      res.statusCode = first && unlucky ? 500 : 200;
      res.end();
    });
  });
  const seen = new Set<string>();
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  await app.inject({ method: "POST", url: "/api/admin/webhooks", headers: ADMIN, payload: { url } });

  const log = { info() {}, warn() {}, error() {}, child: () => log };
  const jobs = startOperationsJobs({
    config,
    database,
    clock,
    log,
    overrides: { finalizeIntervalMs: 1000, webhookIntervalMs: 250 },
  });

  const fees = config.feeIndexer!;
  const cursor = feeCursorName(config.chain!.chainId, fees.event.topic0, fees.addresses);
  const start = Date.now();
  const elapsed = () => (Date.now() - start) / 1000;
  let stop = false;

  // HTTP traffic: a few reads a second, some unknown routes.
  const traffic = (async () => {
    let k = 0;
    while (!stop) {
      const urls = [
        "/api/competition/meta",
        "/api/competition/leaderboard?week=2",
        "/api/leaderboard",
        "/api/nope",
      ];
      await app.inject({ method: "GET", url: urls[k++ % urls.length]! });
      await new Promise((r) => setTimeout(r, 80));
    }
  })();

  // The fee indexer catching up 3,000 blocks (2 s blocks), then following the chain (synthetic: no chain here).
  let head = 50_000;
  // Set by the main timeline: the indexer loop moves the test clock and records its check in the same step, so no
  // scrape sees a check from "before" the jump.
  let jumpTo: Date | null = null;
  const indexer = (async () => {
    while (!stop) {
      const t = elapsed();
      head += 1;
      if (jumpTo) {
        clock.set(jumpTo);
        jumpTo = null;
      }
      const lag = Math.max(0, Math.round(3000 - 75 * t));
      const next = head + 1 - lag;
      const now = clock.now();
      await database.db.execute(
        sql`insert into chain_blocks (name, number, hash, block_time)
            values (${cursor}, ${next - 1}, ${`0x${next.toString(16)}`}, ${new Date(now.getTime() - lag * 2000)})
            on conflict do nothing`,
      );
      await recordIndexerCheck(
        database.db,
        "fees",
        {
          status: lag > 0 ? "indexed" : "caught-up",
          ranges: 1,
          created: 0,
          rolledBack: 0,
          nextBlock: BigInt(next),
          head: BigInt(head),
          cursor,
        },
        now,
      );
      streamClients.set(Math.round(40 + 25 * Math.sin(t / 12) + t / 2));
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();

  const scrape = (async () => {
    while (!stop) {
      const res = await app.inject({
        method: "GET",
        url: "/metrics",
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      scrapes.push({ t: elapsed(), m: parse(res.body) });
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();

  const at = async (sec: number) => {
    while (elapsed() < sec) await new Promise((r) => setTimeout(r, 100));
  };
  // Players sign in (SIWE) and bet on twelve events of week 2; one event is settled every 8 s.
  const events = Array.from({ length: 12 }, (_, i) => `demo-ev-${i}`);
  for (const [i, id] of events.entries()) {
    await app.inject({
      method: "PUT",
      url: `/api/admin/events/${id}`,
      headers: ADMIN,
      payload: {
        sport: "football",
        league: "Demo League",
        homeTeam: `Home ${i}`,
        awayTeam: `Away ${i}`,
        kickoffAt: "2026-11-22T18:00:00.000Z",
        markets: [
          {
            key: "1x2",
            outcomes: [
              { key: "home", label: "Home", odds: 2.1 },
              { key: "draw", label: "Draw", odds: 3.3 },
              { key: "away", label: "Away", odds: 3.4 },
            ],
          },
        ],
      },
    });
  }
  const cookies: string[] = [];
  for (let i = 0; i < 40; i++) {
    const account = privateKeyToAccount(`0x${(i + 1000).toString(16).padStart(64, "0")}`);
    const { nonce, domain } = (await app.inject({ method: "GET", url: "/api/auth/nonce" })).json().data as {
      nonce: string;
      domain: string;
    };
    const message = createSiweMessage({
      address: account.address,
      chainId: 1,
      domain,
      nonce,
      uri: `http://${domain}`,
      version: "1",
      issuedAt: clock.now(),
    });
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/wallet",
      payload: { message, signature: await account.signMessage({ message }) },
    });
    cookies.push(`session=${res.cookies.find((c) => c.name === "session")!.value}`);
  }
  let open = [...events];
  const betting = (async () => {
    let k = 0;
    while (!stop && elapsed() < 85) {
      const eventId = open[k % open.length];
      if (eventId) {
        await app.inject({
          method: "POST",
          url: "/api/pred2earn/bet-placed",
          headers: { cookie: cookies[k % cookies.length]! },
          payload: { eventId, market: "1x2", outcome: ["home", "draw", "away"][k % 3], stake: 5 + (k % 7) },
        });
      }
      k++;
      // A busier stretch in the middle of the run.
      await new Promise((r) => setTimeout(r, elapsed() > 30 && elapsed() < 55 ? 40 : 120));
    }
  })();
  for (let n = 0; n < 9; n++) {
    await at(12 + n * 8);
    const eventId = open.shift()!;
    await app.inject({
      method: "POST",
      url: `/api/admin/events/${eventId}/result`,
      headers: ADMIN,
      payload: { status: "finished", winningOutcome: ["home", "draw", "away"][n % 3] },
    });
  }
  await betting;
  open = [];
  await at(90);
  // Tue 2026-11-24 00:05:01: week 2 has ended plus the 300 s grace; the auto-finalize job takes it.
  jumpTo = new Date("2026-11-24T00:05:01.000Z");
  console.log("test clock moved past week 2's end plus the grace");
  await at(DURATION_S);
  stop = true;
  await Promise.all([traffic, indexer, scrape]);
  await jobs.stop();
  const weeks = await database.db.execute(sql`select max(week) as w from competition_weeks`);
  console.log(
    "finalized through week",
    (weeks as unknown as { rows: Array<{ w: number }> }).rows[0]!.w,
    "webhook ids received",
    seen.size,
  );

  const colWidth = 62;
  const rowHeight = 38;
  const height = Math.max(...PANELS.map((p) => (p.grid.y + p.grid.h) * rowHeight)) + 60;
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
    body{margin:0;background:#111217;font-family:Inter,Helvetica,Arial,sans-serif;color:#ccccdc}
    header{height:44px;line-height:44px;padding:0 16px;font-size:16px;border-bottom:1px solid #2c3235}
    header small{color:#8e8e8e;margin-left:12px}
    .grid{position:relative;margin:8px}
    .panel{position:absolute;background:#181b1f;border:1px solid #2c3235;border-radius:3px;overflow:hidden}
    .title{font-size:12px;font-weight:500;padding:6px 8px}
    .stat{font-size:44px;font-weight:500;text-align:center;margin-top:14px}
    .legend{font-size:10px;padding:0 8px}.legend span{margin-right:10px}
    .legend i{display:inline-block;width:10px;height:3px;margin-right:4px;vertical-align:middle}
  </style></head><body><header>SP competition: operations<small>demo run, ${DURATION_S} s, scraped every second from /metrics (rendering of docs/grafana/dashboard.json)</small></header>
  <div class="grid" style="height:${height}px">${PANELS.map((p) => panelHtml(p, colWidth, rowHeight)).join("")}</div></body></html>`;
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  const page = await browser.newPage({ viewport: { width: 24 * colWidth + 16, height: height + 60 } });
  await page.setContent(html);
  const out = fileURLToPath(new URL("../docs/grafana/dashboard.png", import.meta.url));
  await page.screenshot({ path: out, fullPage: true });
  await browser.close();
  await app.close();
  await database.close();
  receiver.close();
  console.log(`wrote ${out}`);
}

await main();
