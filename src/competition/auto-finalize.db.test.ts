/**
 * The week finalizes itself (SPEC §11, issue 23), on the engine under test. Season of the test config: week 0 =
 * [Mon 2026-11-02, Tue 2026-11-10), week 1 = [11-10, 11-17); FINALIZE_GRACE_SECONDS = 300, so week 0 is due at
 * 2026-11-10T00:05:00Z and week 1 at 2026-11-17T00:05:00Z.
 */
import { afterEach, describe, expect, it } from "vitest";
import { call, createTestApp, FINALIZE, type TestApp } from "../../test/app.js";
import { createScratchPostgres, testEngine } from "../../test/db.js";
import { captureLog } from "../../test/log-capture.js";
import { competitionDepsFor } from "../app-deps.js";
import { betCursorName } from "../chain/bet-indexer.js";
import { type Database, type Db, openDatabase, rows, sql } from "../db/client.js";
import { LOCK_KEYS, leaderLockFor } from "../db/leader-lock.js";
import { startOperationsJobs } from "../jobs/operations-jobs.js";
import { finalizeFailuresTotal } from "../metrics/app-metrics.js";
import { autoFinalizer } from "./auto-finalize.js";

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function app(opts: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(opts);
  open.push(t);
  return t;
}

const finalizedWeeks = async (db: Db) =>
  (await rows<{ week: number }>(db, sql`select week from competition_weeks order by week`)).map(
    (r) => r.week,
  );
const announced = async (db: Db) =>
  (
    await rows<{ week: number }>(
      db,
      sql`select (payload->>'week')::int as week from domain_events where type = 'week.finalized' order by id`,
    )
  ).map((r) => r.week);

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The server's operations jobs on `t`, auto-finalize ticking every 20 ms; stopped after the test. */
function runJobs(t: TestApp, log: ReturnType<typeof captureLog>): void {
  const jobs = startOperationsJobs({
    config: t.config,
    database: t.database,
    clock: t.clock,
    log,
    overrides: { finalizeIntervalMs: 20 },
  });
  open.push({ close: () => jobs.stop() });
}

describe("auto-finalize", () => {
  it("finalizes week 0 by itself once the test clock passes its end plus the grace, then serves it idempotently", async () => {
    // Mon 2026-11-09 23:00: week 0 still runs.
    const t = await app({ now: new Date("2026-11-09T23:00:00.000Z") });
    const log = captureLog();
    runJobs(t, log);
    await new Promise((r) => setTimeout(r, 150));
    expect(await finalizedWeeks(t.database.db)).toEqual([]);
    // Tue 2026-11-10 00:04:59: ended, but within the grace.
    t.clock.set(new Date("2026-11-10T00:04:59.000Z"));
    await new Promise((r) => setTimeout(r, 150));
    expect(await finalizedWeeks(t.database.db)).toEqual([]);
    // 00:05:00: due.
    t.clock.set(new Date("2026-11-10T00:05:00.000Z"));
    await until(async () => (await finalizedWeeks(t.database.db)).length === 1);
    expect(await finalizedWeeks(t.database.db)).toEqual([0]);
    expect(await announced(t.database.db)).toEqual([0]);
    const line = log.lines.find((l) => l.op === "finalize");
    expect(line).toMatchObject({ job: "auto-finalize", week: 0, outcome: "finalized", level: "info" });
    expect(typeof line!.durationMs).toBe("number");
    // Week 1 is not due: nothing more happens.
    await new Promise((r) => setTimeout(r, 150));
    expect(await finalizedWeeks(t.database.db)).toEqual([0]);

    // Manual finalize answers the stored result.
    const res = await call(t.app, {
      method: "POST",
      url: "/api/competition/finalize?week=0",
      headers: FINALIZE,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ week: 0, alreadyFinalized: true });
    expect(await announced(t.database.db)).toEqual([0]);
  });

  it("waits for the bet indexer to pass the week's end before finalizing it, as every other path does", async () => {
    // Before: the job built its own dependencies without the bet indexer's progress, so it finalized week 0 at
    // 00:05 with no chain bet indexed (the HTTP finalize answered 409 BETS_NOT_INDEXED meanwhile).
    const contract = "0x2946259E0334f33A064106302415aD3391BeD384";
    const t = await app({
      now: new Date("2026-11-10T00:06:00.000Z"), // week 0 is due
      env: {
        CHAIN_VERIFIER: "rpc",
        CHAIN_RPC_URL: "http://127.0.0.1:1/", // never answers: the indexer stays where the test puts it
        CHAIN_ID: "8453",
        BETTING_CONTRACT_ADDRESS: contract,
        ODDS_SIGNER_PRIVATE_KEY: "0x4442369ed0f9186ed28c3a7f804ca928593fedabb965d3322630570b19770f80",
        PAYOUT_SIGNER_PRIVATE_KEY: "0x9d0cbbc46d43d6b3a8cef3ad7e4a2b0b8a4c1f3e5d7b9a1c3e5f7092b4d6f8a1",
      },
    });
    expect(t.config.betIndexer).not.toBeNull();
    const log = captureLog();
    runJobs(t, log);
    const indexedUpTo = (blockTime: string, number: bigint) =>
      t.database.db.execute(
        sql`insert into chain_blocks (name, number, hash, block_time)
            values (${betCursorName(8453, contract)}, ${number}, ${`0x${"ab".repeat(32)}`}, ${new Date(blockTime)})`,
      );
    // Nothing indexed, then a block a second before week 0's end: ten ticks or more, week 0 stays open.
    await new Promise((r) => setTimeout(r, 250));
    await indexedUpTo("2026-11-09T23:59:59.000Z", 100n);
    await new Promise((r) => setTimeout(r, 250));
    expect(await finalizedWeeks(t.database.db)).toEqual([]);
    expect(log.lines.filter((l) => l.level === "error")).toEqual([]);
    // A final block past the end: the next tick finalizes it.
    await indexedUpTo("2026-11-10T00:00:01.000Z", 101n);
    await until(async () => (await finalizedWeeks(t.database.db)).length === 1);
    expect(await finalizedWeeks(t.database.db)).toEqual([0]);
  });

  it("catches up every due week in order after a downtime", async () => {
    // Sat 2026-11-21: weeks 0 and 1 are both due.
    const t = await app({ now: new Date("2026-11-21T00:00:00.000Z") });
    const finalizer = autoFinalizer({
      competition: competitionDepsFor(t.config, t.database, t.clock),
      lock: leaderLockFor(null, t.database, LOCK_KEYS.autoFinalize),
      graceSeconds: 300,
      log: captureLog(),
    });
    expect(await finalizer.tick()).toEqual({ status: "idle", finalized: [0, 1] });
    expect(await finalizer.tick()).toEqual({
      status: "waiting",
      week: 2,
      dueAt: new Date("2026-11-24T00:05:00.000Z"),
    });
    expect(await announced(t.database.db)).toEqual([0, 1]);
  });

  it("retries a failure after a minute of the clock, counting each in app_finalize_failures_total", async () => {
    const t = await app({ now: new Date("2026-11-10T00:06:00.000Z") });
    let failing = true;
    const real = t.database.bulkDb;
    // The finalize transaction fails while `failing` (a database refusing writes).
    const flaky = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === "transaction" && failing) return () => Promise.reject(new Error("disk full"));
        return Reflect.get(target, prop, receiver);
      },
    }) as Db;
    const log = captureLog();
    const finalizer = autoFinalizer({
      competition: { ...competitionDepsFor(t.config, t.database, t.clock), bulkDb: flaky },
      lock: leaderLockFor(null, t.database, LOCK_KEYS.autoFinalize),
      graceSeconds: 300,
      log,
    });
    const before = (await finalizeFailuresTotal.get()).values[0]?.value ?? 0;
    expect(await finalizer.tick()).toEqual({ status: "failed", week: 0 });
    expect((await finalizeFailuresTotal.get()).values[0]!.value).toBe(before + 1);
    const failure = log.lines.find((l) => l.message.includes("automatic finalize failed"));
    expect(failure).toMatchObject({ level: "error", week: 0, retryInSeconds: 60 });
    expect((failure!.err as Error).message).toBe("disk full");
    // 59 s later: still waiting out the failure.
    t.clock.set(new Date("2026-11-10T00:06:59.000Z"));
    expect(await finalizer.tick()).toEqual({ status: "backing-off" });
    // A minute later: tried again, failed again.
    t.clock.set(new Date("2026-11-10T00:07:00.000Z"));
    expect(await finalizer.tick()).toEqual({ status: "failed", week: 0 });
    expect((await finalizeFailuresTotal.get()).values[0]!.value).toBe(before + 2);
    // The database recovers: the next retry finalizes.
    failing = false;
    t.clock.set(new Date("2026-11-10T00:08:00.000Z"));
    expect(await finalizer.tick()).toEqual({ status: "idle", finalized: [0] });
    expect(await finalizedWeeks(t.database.db)).toEqual([0]);
    expect((await finalizeFailuresTotal.get()).values[0]!.value).toBe(before + 2);
  });

  it("two service instances on one database finalize the week once", async () => {
    // PostgreSQL: two pools on one scratch database, each instance with its own advisory-lock connection, as two
    // processes would have. Embedded: one database object (one process owns a DATA_DIR), so one in-process lease.
    let databases: Database[];
    let env: Record<string, string> = {};
    if (testEngine === "postgres") {
      const scratch = await createScratchPostgres();
      open.push({ close: () => scratch.drop() });
      const a = await openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 5 });
      const b = await openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 5 });
      open.push(a, b);
      databases = [a, b];
      env = { DATABASE_URL: scratch.url };
    } else {
      const a = await openDatabase({ databaseUrl: null, dataDir: null });
      open.push(a);
      databases = [a, a];
    }
    const logs = [captureLog(), captureLog()];
    for (const [i, database] of databases.entries()) {
      const t = await app({ database, env, now: new Date("2026-11-10T00:05:00.000Z") });
      const jobs = startOperationsJobs({
        config: t.config,
        database,
        clock: t.clock,
        log: logs[i]!,
        overrides: { finalizeIntervalMs: 10 },
      });
      open.push({ close: () => jobs.stop() });
    }
    const db = databases[0]!.db;
    await until(async () => (await finalizedWeeks(db)).length === 1);
    // Both instances keep looking for a while.
    await new Promise((r) => setTimeout(r, 300));
    expect(await finalizedWeeks(db)).toEqual([0]);
    expect(await announced(db)).toEqual([0]);
    const finalizeLines = logs.map((l) => l.lines.filter((x) => x.op === "finalize"));
    // Only the lease holder ever ran the use case.
    expect(finalizeLines.map((lines) => lines.length).sort()).toEqual([0, 1]);
    expect(finalizeLines.flat()[0]).toMatchObject({ outcome: "finalized", week: 0 });
  });
});
