/**
 * The ingest path without HTTP: `recordSpTransactions` (batches of 1,000, existing players and new wallets) and
 * the app's group commit of single rows (`spAppendGroup`, 32 concurrent writers), against COPY of the same rows
 * (bench/copy.ts), on a data set built by bench/dataset.ts. `--explain` prints EXPLAIN (ANALYZE, BUFFERS) of every
 * statement of one batch (PostgreSQL: auto_explain, nested statements and triggers included).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/ingest-direct.ts --players 100000 [--explain]
 *   npx tsx bench/ingest-direct.ts --players 20000            # embedded database, in memory
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { type Database, openDatabase } from "../src/db/client.js";
import {
  type RecordSpInput,
  recordSpTransaction,
  recordSpTransactions,
  spAppendGroup,
} from "../src/ledger/record-sp-transaction.js";
import type { Season } from "../src/shared/season.js";
import { createScratchPostgres } from "../test/db.js";
import { type CopyRow, copyRates } from "./copy.js";
import { cpuNow } from "./cpu.js";
import { BENCH_SEASON, BENCH_SQL_TIMEOUT_MS, buildDataset } from "./dataset.js";

const { values: args } = parseArgs({
  options: {
    players: { type: "string", default: "20000" },
    batches: { type: "string", default: "20" },
    concurrency: { type: "string", default: "4" },
    seconds: { type: "string", default: "5" },
    explain: { type: "boolean", default: false },
    /** SQL run after the data set is built (an A/B experiment on the scratch database, e.g. dropping an index). */
    setup: { type: "string", default: "" },
  },
});
const players = Number(args.players);
const log = (s: string) => process.stderr.write(`${s}\n`);
const W = 10;
let seq = 0;
const rnd = (() => {
  let a = 2026;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
function row(userId: number | null): RecordSpInput & CopyRow {
  seq++;
  return {
    ...(userId === null
      ? { wallet: `0x${(0xbe0d0000000 + seq).toString(16).padStart(40, "0")}` }
      : { userId: String(userId) }),
    type: "PREDICTION",
    amount: 10 * (1 + (seq % 7)),
    eventId: `bench-${W}-${1 + (seq % 21)}`,
    externalId: `direct:${seq}`,
  };
}
const randomPlayer = () => 1 + Math.floor(rnd() * players);

/** CPU ms per 1,000 rows since `before`. */
async function cpuPerKRow(database: Database, before: { node: number; pg: number }, rows: number) {
  const after = await cpuNow(database);
  const per = (a: number, b: number) => Math.round(((a - b) * 1e6) / rows);
  return { nodeMs: per(after.node, before.node), pgMs: per(after.pg, before.pg) };
}

type Deps = Parameters<typeof recordSpTransactions>[0] & { database: Database };

async function batches(deps: Deps, pick: () => number | null) {
  const n = Number(args.batches);
  const conc = Number(args.concurrency);
  const sent: CopyRow[] = [];
  let next = 0;
  const cpu = await cpuNow(deps.database);
  const t = Date.now();
  await Promise.all(
    Array.from({ length: conc }, async () => {
      while (next++ < n) {
        const rows = Array.from({ length: 1000 }, () => row(pick()));
        sent.push(...rows);
        await recordSpTransactions(deps, rows);
      }
    }),
  );
  const rowsPerSec = Math.round(sent.length / ((Date.now() - t) / 1000));
  return { rowsPerSec, cpu: await cpuPerKRow(deps.database, cpu, sent.length), sent };
}

async function singles(deps: Deps) {
  const group = spAppendGroup(deps);
  const until = Date.now() + Number(args.seconds) * 1000;
  let done = 0;
  const cpu = await cpuNow(deps.database);
  const t = Date.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (Date.now() < until) {
        await recordSpTransaction({ ...deps, spAppends: group }, row(randomPlayer()));
        done++;
      }
    }),
  );
  const rowsPerSec = Math.round(done / ((Date.now() - t) / 1000));
  return { rowsPerSec, cpu: await cpuPerKRow(deps.database, cpu, done) };
}

async function explainOne(database: Database, deps: Parameters<typeof recordSpTransactions>[0]) {
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  pool.on("connect", (c) => c.on("notice", (n) => log(String(n.message))));
  // Every connection the pool opens from now on logs its plans to the client.
  pool.on("connect", (c) => {
    void c.query(
      "load 'auto_explain'; set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on; set auto_explain.log_triggers = on; set auto_explain.log_timing = on; set client_min_messages = log",
    );
  });
  await pool.query("select 1");
  for (let i = 0; i < 3; i++) {
    log("== explain: one batch of existing players ==");
    const t = Date.now();
    await recordSpTransactions(
      deps,
      Array.from({ length: 1000 }, () => row(randomPlayer())),
    );
    log(`== batch took ${Date.now() - t} ms`);
  }
  log("== explain: one batch of new wallets ==");
  await recordSpTransactions(
    deps,
    Array.from({ length: 1000 }, () => row(null)),
  );
}

async function main() {
  const url = process.env.DATABASE_URL ?? null;
  const scratch = url ? await createScratchPostgres() : null;
  const poolSize = args.explain ? 1 : 10;
  let database = await openDatabase({
    databaseUrl: scratch?.url ?? null,
    dataDir: null,
    statementTimeoutMs: BENCH_SQL_TIMEOUT_MS,
    poolSize,
  });
  try {
    await buildDataset(database, players, () => {});
    if (args.setup) await database.db.execute(sql.raw(args.setup));
    if (scratch && args.explain) {
      // A fresh pool of one connection, opened after the hooks are in place.
      await database.close();
      database = await openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 1 });
    }
    const season: Season = {
      seasonStart: new Date(BENCH_SEASON.seasonStart),
      weekOneStart: new Date(BENCH_SEASON.weekOneStart),
    };
    const deps = { db: database.db, season, welcomeCredits: 1000, database };
    if (args.explain) {
      await explainOne(database, deps);
      return;
    }
    const existing = await batches(deps, randomPlayer);
    const wallets = await batches(deps, () => null);
    const single = await singles(deps);
    const copy = await copyRates(database, scratch?.url ?? null, existing.sent, wallets.sent);
    const result = {
      engine: database.engine,
      players,
      batchRowsPerSec: existing.rowsPerSec,
      copyRowsPerSec: copy.existingRowsPerSec,
      batchVsCopy: Number((existing.rowsPerSec / copy.existingRowsPerSec).toFixed(2)),
      newWalletRowsPerSec: wallets.rowsPerSec,
      copyNewWalletRowsPerSec: copy.newWalletRowsPerSec,
      newWalletVsCopy: Number((wallets.rowsPerSec / copy.newWalletRowsPerSec).toFixed(2)),
      batchCpuMsPerKRow: existing.cpu,
      newWalletCpuMsPerKRow: wallets.cpu,
      singleRowsPerSec: single.rowsPerSec,
      singleCpuMsPerKRow: single.cpu,
    };
    console.log(`DIRECT ${JSON.stringify(result)}`);
  } finally {
    await database.close();
    await scratch?.drop();
  }
}

await main();
