/**
 * `npm run bench:stream [-- --clients N] [-- --engine pglite|postgres]`: the live stream under load (issue 24).
 * Starts the real service (bench/service.ts) on a fresh database (embedded by default; PostgreSQL at DATABASE_URL
 * with `--engine postgres`), gives N players (5,000) a session and a credits bet on one event, opens one signed-in
 * `GET /api/stream` per player (N concurrent streams on one instance, from this process), then settles the event
 * through the admin API and measures, from the moment the settle request is sent, when each client has received
 * (a) the public `event` and (b) its own `prediction` (only its own: a foreign one counts as an error). Prints a
 * summary and one `BENCH {json}` line; exits 1 when a client missed its events within 10 s or saw another's.
 * Target (issue 24): every client has the settle within 2 s.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase } from "../src/db/client.js";
import { within } from "../src/shared/bounded-wait.js";
import { createScratchPostgres } from "../test/db.js";
import { openStream, type SseClient } from "../test/sse-client.js";
import { processMemoryMb } from "./cpu.js";
import { BENCH_SEASON } from "./dataset.js";
import { clientAddress } from "./load.js";
import { ADMIN_HEADERS, fetchJson, sessionCookies, startServer, stopServer } from "./service.js";

const { values: args } = parseArgs({
  options: { clients: { type: "string" }, engine: { type: "string" } },
});
const clients = args.clients ? Number(args.clients) : 5000;
const engine = (args.engine ?? "pglite") as "pglite" | "postgres";
const EVENT_ID = "stream-bench";
/** Kickoff a day after the bench's now (Thu 2026-03-12 12:00 UTC): Fri 2026-03-13 12:00. */
const KICKOFF = "2026-03-13T12:00:00.000Z";
const WAIT_MS = 10_000;

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const round = (ms: number | null) => (ms === null ? null : Math.round(ms));

/** Server resident memory in MB (Linux /proc), or null. */
const rssMb = (server: ChildProcess) => processMemoryMb(server.pid, "VmRSS");

async function main(): Promise<void> {
  const cleanups: Array<() => unknown> = [];
  let url: string | null = null;
  let dataDir: string | null = null;
  if (engine === "postgres") {
    const scratch = await createScratchPostgres({ fromTemplate: false });
    cleanups.push(scratch.drop);
    url = scratch.url;
  } else {
    dataDir = mkdtempSync(join(tmpdir(), "sp-stream-bench-"));
    cleanups.push(() => rmSync(dataDir!, { recursive: true, force: true }));
  }
  // Players and their sessions, written before the service starts (it owns an embedded database once running).
  const database = await openDatabase({ databaseUrl: url, dataDir, poolSize: 2 });
  await database.db.execute(
    sql`insert into users (wallet, display_name, referral_code, credits_balance)
        select '0x' || lpad(to_hex(g), 40, '0'), 'Player ' || g, 'S' || upper(lpad(to_hex(g), 10, '0')), 1000
        from generate_series(1, ${clients}) g`,
  );
  const ids = (
    (await database.db.execute(sql`select id::int as id from users order by id`)) as unknown as {
      rows: Array<{ id: number }>;
    }
  ).rows.map((r) => r.id);
  const cookies = await sessionCookies(database, ids);
  await database.close();

  process.env.STREAM_MAX_CLIENTS = String(clients + 100);
  const { base, server } = await startServer(url, dataDir);
  cleanups.push(() => stopServer(server));
  try {
    await fetchJson(`${base}/api/admin/clock`, {
      method: "PUT",
      headers: ADMIN_HEADERS,
      body: JSON.stringify({ now: BENCH_SEASON.now }),
    });
    await fetchJson(`${base}/api/admin/events/${EVENT_ID}`, {
      method: "PUT",
      headers: ADMIN_HEADERS,
      body: JSON.stringify({
        sport: "football",
        league: "Bench League",
        homeTeam: "Home",
        awayTeam: "Away",
        kickoffAt: KICKOFF,
        markets: [
          {
            key: "1x2",
            outcomes: [
              { key: "home", label: "Home", odds: 2 },
              { key: "away", label: "Away", odds: 2 },
            ],
          },
        ],
      }),
    });
    // One bet per player: half on each outcome.
    const predictionOf = new Map<number, string>();
    await pool(ids, 32, async (id) => {
      const body = await fetchJson(`${base}/api/pred2earn/bet-placed`, {
        method: "POST",
        headers: { cookie: cookies.get(id)!, "content-type": "application/json" },
        body: JSON.stringify({
          eventId: EVENT_ID,
          market: "1x2",
          outcome: id % 2 ? "home" : "away",
          stake: 10,
        }),
      });
      predictionOf.set(id, body.data.prediction.id);
    });

    // N streams, opened 100 at a time; the server's memory before them gives the memory per stream.
    const rssIdle = rssMb(server);
    const connectStart = performance.now();
    const streams = await pool(ids, 100, async (id) => ({
      id,
      // Each from its own client address, as real pages are (one address may open 300 reads a minute, streams
      // included: RATE_LIMIT_READ_PER_MIN), through the trusted proxy's x-forwarded-for as in the main bench.
      stream: await openStream(base, {
        cookie: cookies.get(id)!,
        headers: { "x-forwarded-for": clientAddress() },
      }),
    }));
    const connectMs = performance.now() - connectStart;
    const refused = streams.filter((s) => s.stream.status !== 200).length;
    // Let the last connections' first bytes settle before the clock starts.
    await new Promise((r) => setTimeout(r, 500));
    const rssBefore = rssMb(server);

    const eventAt = new Map<number, number>();
    const predictionAt = new Map<number, number>();
    let foreign = 0;
    let t0 = 0;
    let resolveAll: () => void = () => {};
    const all = new Promise<void>((r) => {
      resolveAll = r;
    });
    const check = () => {
      if (eventAt.size === streams.length && predictionAt.size === streams.length) resolveAll();
    };
    for (const { id, stream } of streams) {
      stream.onEvent((e) => {
        const at = performance.now() - t0;
        if (e.event === "event" && e.data.eventId === EVENT_ID && !eventAt.has(id)) eventAt.set(id, at);
        if (e.event === "prediction") {
          if (e.data.predictionId !== predictionOf.get(id)) foreign++;
          else if (!predictionAt.has(id)) predictionAt.set(id, at);
        }
        check();
      });
    }
    t0 = performance.now();
    const settle = fetchJson(`${base}/api/admin/events/${EVENT_ID}/result`, {
      method: "POST",
      headers: ADMIN_HEADERS,
      body: JSON.stringify({ status: "finished", winningOutcome: "home" }),
    }).then(() => performance.now() - t0);
    await within(all, WAIT_MS);
    const settleMs = await settle;
    const rssAfter = rssMb(server);
    for (const { stream } of streams) (stream as SseClient).close();

    const events = [...eventAt.values()].sort((a, b) => a - b);
    const own = [...predictionAt.values()].sort((a, b) => a - b);
    const everything = streams
      .map(({ id }) =>
        Math.max(
          eventAt.get(id) ?? Number.POSITIVE_INFINITY,
          predictionAt.get(id) ?? Number.POSITIVE_INFINITY,
        ),
      )
      .sort((a, b) => a - b);
    const result = {
      engine,
      clients,
      connected: streams.length - refused,
      refused,
      connectAllMs: round(connectMs),
      settleRequestMs: round(settleMs),
      eventReceived: events.length,
      eventMs: {
        p50: round(quantile(events, 0.5)),
        p95: round(quantile(events, 0.95)),
        max: round(events.at(-1) ?? null),
      },
      ownPredictionReceived: own.length,
      ownPredictionMs: {
        p50: round(quantile(own, 0.5)),
        p95: round(quantile(own, 0.95)),
        max: round(own.at(-1) ?? null),
      },
      allReceivedMs: Number.isFinite(everything.at(-1)!) ? round(everything.at(-1)!) : null,
      // The same, counted from the settle's answer (its commit) instead of its request: the fan-out alone.
      allReceivedAfterAnswerMs: Number.isFinite(everything.at(-1)!)
        ? round(everything.at(-1)! - settleMs)
        : null,
      foreignPredictions: foreign,
      withinTarget: Number.isFinite(everything.at(-1)!) && everything.at(-1)! <= 2000,
      serverRssMb: { idle: rssIdle, before: rssBefore, after: rssAfter },
      kbPerStream:
        rssIdle !== null && rssBefore !== null
          ? Math.round(((rssBefore - rssIdle) * 1024) / Math.max(1, streams.length - refused))
          : null,
    };
    console.log(
      `stream load (${engine}): ${result.connected}/${clients} streams open in ${result.connectAllMs} ms; settle answered in ${result.settleRequestMs} ms;` +
        ` event to all in ${result.eventMs.max} ms (p50 ${result.eventMs.p50}), own prediction to all in ${result.ownPredictionMs.max} ms (p50 ${result.ownPredictionMs.p50}); foreign ${foreign}`,
    );
    console.log(`BENCH ${JSON.stringify(result)}`);
    if (result.allReceivedMs === null || foreign > 0 || refused > 0) process.exitCode = 1;
  } finally {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => {});
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
