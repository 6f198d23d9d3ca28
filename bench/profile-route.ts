/**
 * `npx tsx bench/profile-route.ts --phase me|ladder|ingest|batch|mixed [--engine pglite|postgres] [--players N]
 * [--seconds S] [--prof DIR]`: builds the bench's data set, starts the service (with `--cpu-prof` into DIR when
 * given), finalizes the earlier weeks, then loads ONE phase for S seconds so that the CPU profile holds nothing
 * else: `me` (GET /api/competition/me for 1,000 sessions), `ladder` (pages at offset 0), `ingest` (single-row
 * POST /api/admin/sp-transactions, 32 connections), `batch` (POST /api/admin/sp-transactions/batch, 1,000 rows,
 * 4 connections), `mixed` (ladder and /me while 500 rows/s of ingest run). Prints each load's req/s and p99. A
 * profiling aid beside `bench/run.ts`, not part of the BENCH figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { openDatabase } from "../src/db/client.js";
import { createScratchPostgres } from "../test/db.js";
import { BENCH_SEASON, BENCH_SQL_TIMEOUT_MS, buildDataset } from "./dataset.js";
import {
  ADMIN_HEADERS,
  FINALIZE_HEADERS,
  fetchJson,
  sessionCookies,
  startServer,
  stopServer,
} from "./service.js";

const { values: args } = parseArgs({
  options: {
    phase: { type: "string", default: "me" },
    engine: { type: "string", default: "pglite" },
    players: { type: "string", default: "10000" },
    seconds: { type: "string", default: "5" },
    prof: { type: "string" },
  },
});
const players = Number(args.players);
const seconds = Number(args.seconds);
const engine = args.engine === "postgres" ? "postgres" : "pglite";
const W = BENCH_SEASON.liveWeek;
const log = (s: string) => process.stderr.write(`${s}\n`);

async function main() {
  let dataDir: string | null = null;
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
  if (engine === "pglite") dataDir = mkdtempSync(join(tmpdir(), "profile-pglite-"));
  else scratch = await createScratchPostgres();
  const databaseUrl = scratch?.url ?? null;
  const database = await openDatabase({ databaseUrl, dataDir, statementTimeoutMs: BENCH_SQL_TIMEOUT_MS });
  await buildDataset(database, players, log);
  const ids = Array.from({ length: Math.min(1000, players) }, (_, i) => i + 1);
  const cookies = [...(await sessionCookies(database, ids)).values()];
  await database.close();
  const { base, server } = await startServer(databaseUrl, dataDir, args.prof);
  try {
    await fetchJson(`${base}/api/admin/clock`, {
      method: "PUT",
      headers: ADMIN_HEADERS,
      body: JSON.stringify({ now: BENCH_SEASON.now }),
    });
    for (let w = 0; w < W; w++)
      await fetchJson(`${base}/api/competition/finalize?week=${w}`, {
        method: "POST",
        headers: FINALIZE_HEADERS,
      });
    await fetchJson(`${base}/api/competition/leaderboard?week=${W}&limit=50`);
    let next = 0;
    const me = {
      method: "GET",
      path: `/api/competition/me?week=${W}`,
      setupRequest: (req: any) => ({
        ...req,
        headers: { ...req.headers, cookie: cookies[next++ % cookies.length] },
      }),
    };
    let seq = 0;
    const ingestRequest = {
      method: "POST",
      path: "/api/admin/sp-transactions",
      headers: ADMIN_HEADERS,
      setupRequest: (req: any) => {
        seq++;
        return {
          ...req,
          body: JSON.stringify({
            userId: String(1 + ((seq * 7919) % players)),
            type: "PREDICTION",
            amount: 10 * (1 + (seq % 7)),
            eventId: `bench-${W}-${1 + (seq % 21)}`,
            externalId: `profile:${process.pid}:${seq}`,
          }),
        };
      },
    };
    const ladder = { method: "GET", path: `/api/competition/leaderboard?week=${W}&offset=0&limit=50` };
    const run = async (label: string, opts: Parameters<typeof autocannon>[0]) => {
      const r = await autocannon({ connections: 50, duration: seconds, ...opts });
      log(`${label}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`);
      return r;
    };
    await run("ceiling", { url: `${base}/bench/ceiling` });
    if (args.phase === "me") await run("me", { url: base, requests: [me] });
    if (args.phase === "ladder") await run("ladder", { url: base, requests: [ladder] });
    if (args.phase === "ingest")
      await run("ingest", { url: base, connections: 32, requests: [ingestRequest] });
    if (args.phase === "batch") {
      await run("batch (requests of 1,000 rows)", {
        url: base,
        connections: 4,
        requests: [
          {
            method: "POST",
            path: "/api/admin/sp-transactions/batch",
            headers: ADMIN_HEADERS,
            setupRequest: (req: any) => {
              const rows = Array.from({ length: 1000 }, () =>
                JSON.parse(ingestRequest.setupRequest(req).body),
              );
              return { ...req, body: JSON.stringify({ rows }) };
            },
          },
        ],
      });
    }
    if (args.phase === "mixed") {
      const writes = run("mixed ingest", {
        url: base,
        connections: 8,
        overallRate: 500,
        duration: 2 * seconds + 1,
        requests: [ingestRequest],
      });
      await run("mixed ladder", { url: base, requests: [ladder] });
      await run("mixed me", { url: base, requests: [me] });
      await writes;
    }
  } finally {
    await stopServer(server);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (scratch) await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
