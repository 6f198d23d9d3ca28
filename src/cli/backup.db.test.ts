/**
 * Backup and restore (issue 23) on the engine under test, as a round trip: a season with a finalized week, a live
 * week and credits balances is backed up, changed, restored, and reads back exactly as at the backup. Restore
 * refuses beside a running server and, without --overwrite, over a database that holds data.
 *
 * Clock: Fri 2026-11-20 12:00. Week 0 (event bk-w0, Thu 2026-11-05) holds P1 300 SP and P2 200 SP and is finalized;
 * the live week 3 (event bk-w3 at KICKOFF, Wed 2026-11-25) holds P1's won bet: 100 credits on home at 2.15 pay 215
 * credits (once claimed) and 215 SP; P2 lost 100. Balances: P1 claims his payout, 1000 − 100 + 215 = 1115; P2 900.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, signIn, type TestApp, testKey } from "../../test/app.js";
import { createScratchPostgres, testEngine } from "../../test/db.js";
import { unpackTemplateInto } from "../../test/db-template.js";
import { bet, claim, dataOf, postResult, putEvent } from "../../test/player-api.js";
import { nodeArgs } from "../../test/service-bundle.js";
import { type Database, openDatabase } from "../db/client.js";
import { LOCK_FILE } from "../db/data-dir-lock.js";
import { backupCommand, restoreCommand } from "./backup.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NOW = new Date("2026-11-20T12:00:00.000Z");
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** The ladders and balances the round trip must keep. */
async function snapshot(t: TestApp, cookies: string[]) {
  const read = async (url: string, cookie?: string) =>
    dataOf(await call(t.app, { method: "GET", url, headers: cookie ? { cookie } : {} }));
  return {
    week0: await read("/api/competition/leaderboard?week=0"),
    week3: await read("/api/competition/leaderboard?week=3"),
    allTime: await read("/api/leaderboard"),
    balances: await Promise.all(cookies.map(async (c) => (await read("/api/reclaim/info", c)).balance)),
  };
}

async function season(t: TestApp) {
  await putEvent(t, "bk-w0", { kickoffAt: "2026-11-05T18:00:00.000Z" });
  await putEvent(t, "bk-w3");
  const p1 = await signIn(t, testKey(11));
  const p2 = await signIn(t, testKey(12));
  for (const [p, amount] of [
    [p1, 300],
    [p2, 200],
  ] as const) {
    const res = await call(t.app, {
      method: "POST",
      url: "/api/admin/sp-transactions",
      headers: ADMIN,
      payload: {
        userId: p.userId,
        type: "PREDICTION",
        amount,
        eventId: "bk-w0",
        externalId: `bk-${p.userId}`,
      },
    });
    expect(res.status).toBe(201);
  }
  expect(
    (await call(t.app, { method: "POST", url: "/api/competition/finalize?week=0", headers: FINALIZE }))
      .status,
  ).toBe(200);
  const won = dataOf(
    await bet(t, p1.cookie, { eventId: "bk-w3", market: "1x2", outcome: "home", stake: 100 }),
    201,
  );
  dataOf(await bet(t, p2.cookie, { eventId: "bk-w3", market: "1x2", outcome: "away", stake: 100 }), 201);
  dataOf(await postResult(t, "bk-w3", { status: "finished", winningOutcome: "home" }));
  dataOf(await claim(t, p1.cookie, won.prediction.id));
  return [p1, p2];
}

/** After the backup: more SP for P2 in week 3 and week 1 finalized. */
async function changeEverything(t: TestApp, p2UserId: string) {
  await call(t.app, {
    method: "POST",
    url: "/api/admin/sp-transactions",
    headers: ADMIN,
    payload: { userId: p2UserId, type: "ADJUSTMENT", amount: 5000, eventId: "bk-w3", externalId: "bk-after" },
  });
  await call(t.app, { method: "POST", url: "/api/competition/finalize?week=1", headers: FINALIZE });
}

function cli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, nodeArgs("src/cli/main.ts", args), {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: "development", ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
}

describe("backup and restore", () => {
  it("round-trips ladders and balances, refusing beside a live server and without --overwrite", async () => {
    const work = mkdtempSync(join(tmpdir(), "backup-"));
    cleanup.push(() => rmSync(work, { recursive: true, force: true }));
    const file = join(work, testEngine === "postgres" ? "backup.dump" : "backup.tar.gz");
    let reopen: () => Promise<Database>;
    let env: Record<string, string>;
    if (testEngine === "postgres") {
      const scratch = await createScratchPostgres();
      cleanup.push(() => scratch.drop());
      reopen = () => openDatabase({ databaseUrl: scratch.url, dataDir: null, poolSize: 3 });
      env = { DATABASE_URL: scratch.url };
    } else {
      const dataDir = unpackTemplateInto(join(work, "data"));
      reopen = () => openDatabase({ databaseUrl: null, dataDir });
      env = { DATA_DIR: dataDir };
    }

    const db1 = await reopen();
    const t1 = await createTestApp({ database: db1, env, now: NOW });
    const [p1, p2] = await season(t1);
    const cookies = [p1!.cookie, p2!.cookie];
    const before = await snapshot(t1, cookies);
    expect(before.balances).toEqual([1115, 900]);
    expect(before.week0.rows.map((r: { competitiveSp: number }) => r.competitiveSp)).toEqual([300, 200]);
    expect(before.week3.rows.map((r: { competitiveSp: number }) => r.competitiveSp)).toEqual([215]);

    const backup = await backupCommand({ database: db1, config: t1.config, clock: t1.clock }, { file });
    expect(backup).toMatchObject({ engine: testEngine, file });
    expect(backup.bytes).toBe(statSync(file).size);
    expect(backup.bytes).toBeGreaterThan(1000);

    await changeEverything(t1, p2!.userId);
    expect(await snapshot(t1, cookies)).not.toEqual(before);

    // Beside the running server (this process holds the database): refused, nothing changed.
    if (testEngine === "postgres") {
      await expect(restoreCommand(t1.config, { file, overwrite: true })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining("other session(s) are connected"),
      });
    } else {
      const refused = cli(["restore", file, "--overwrite"], env);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`is in use by process ${process.pid}`);
    }
    await t1.close();
    await db1.close();

    // Stopped, but the database holds data: --overwrite is required.
    const noFlag = cli(["restore", file], env);
    expect(noFlag.status, noFlag.stderr).toBe(1);
    expect(noFlag.stderr).toContain("--overwrite");
    const restored = cli(["restore", file, "--overwrite"], env);
    expect(restored.status, restored.stderr).toBe(0);
    const out = JSON.parse(restored.stdout);
    expect(out).toMatchObject({ engine: testEngine, file });
    if (testEngine === "pglite") {
      expect(out.previousDataDir).toMatch(/data\.before-restore-/);
      // The backup's copy of the writer lock (this process's) is not restored: DATA_DIR is free.
      expect(existsSync(join(env.DATA_DIR!, LOCK_FILE))).toBe(false);
    }

    const db2 = await reopen();
    cleanup.push(() => db2.close());
    const t2 = await createTestApp({ database: db2, env, now: NOW });
    cleanup.push(() => t2.close());
    expect(await snapshot(t2, cookies)).toEqual(before);
    // Week 1 was finalized after the backup: it is not, after the restore.
    const again = await call(t2.app, {
      method: "POST",
      url: "/api/competition/finalize?week=1",
      headers: FINALIZE,
    });
    expect(again.body.data.alreadyFinalized).toBe(false);
  }, 240_000);
});
