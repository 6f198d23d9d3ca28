/**
 * Migrations that move players' data, applied to a database holding data (every other test starts from an empty,
 * fully migrated one). 0017 moves the all-time SP out of `users.total_sp` into `user_sp_totals` and drops the
 * column; 0018 makes the reversal index partial; 0019 partitions the snapshot table by week, the weeks stored
 * before it kept together as one partition. A database migrated part of the way with players in it is migrated the
 * rest of the way, as a service started on a new version does, on both engines.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { tryInsertSnapshotRow } from "../../test/competition-api.js";
import { createScratchPostgres, testEngine } from "../../test/db.js";
import {
  attachWeekSnapshot,
  insertSnapshotRows,
  openWeekSnapshot,
} from "../competition/snapshot.repository.js";
import { countUsersAbove, totalRowOf, totalsPage } from "../leaderboard/leaderboard.repository.js";
import { type Db, rows, sql } from "./client.js";

const migrations = fileURLToPath(new URL("./migrations/", import.meta.url));
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A migrations folder holding the real migrations up to and including `lastTag`. */
function migrationsUpTo(lastTag: string): string {
  const dir = mkdtempSync(join(tmpdir(), "migrations-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const journal = JSON.parse(readFileSync(join(migrations, "meta/_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  expect(last, lastTag).toBeGreaterThanOrEqual(0);
  const entries = journal.entries.slice(0, last + 1);
  mkdirSync(join(dir, "meta"));
  writeFileSync(join(dir, "meta/_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const e of entries) copyFileSync(join(migrations, `${e.tag}.sql`), join(dir, `${e.tag}.sql`));
  return dir;
}

/** A database of this run's engine, and a function that applies a migrations folder to it. */
async function bareDatabase(): Promise<{ db: Db; migrate: (folder: string) => Promise<void> }> {
  if (testEngine === "postgres") {
    const scratch = await createScratchPostgres();
    const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    cleanups.push(async () => {
      await pool.end();
      await scratch.drop();
    });
    const db = drizzleNodePg({ client: pool });
    return { db: db as unknown as Db, migrate: (folder) => migrateNodePg(db, { migrationsFolder: folder }) };
  }
  const client = new PGlite();
  cleanups.push(() => client.close());
  const db = drizzlePglite({ client });
  return { db: db as unknown as Db, migrate: (folder) => migratePglite(db, { migrationsFolder: folder }) };
}

describe("migrating a database that holds players (0016 → latest)", () => {
  it("keeps every player's all-time SP: non-zero totals move to user_sp_totals, ranked as before", async () => {
    const { db, migrate } = await bareDatabase();
    await migrate(migrationsUpTo("0016_partial_prediction_indexes"));
    // Four players as version 0016 stored them: 1200 and 700 SP, a player at 0, one below 0 (adjustments).
    const ids = await rows<{ id: string }>(
      db,
      sql`insert into users (wallet, display_name, referral_code, total_sp)
          values ('0x00000000000000000000000000000000000000a1', 'A', 'RA', 1200),
                 ('0x00000000000000000000000000000000000000a2', 'B', 'RB', 0),
                 ('0x00000000000000000000000000000000000000a3', 'C', 'RC', 700),
                 ('0x00000000000000000000000000000000000000a4', 'D', 'RD', -20)
          returning id::text as id`,
    );
    const [a, b, c, d] = ids.map((r) => r.id);
    // A ledger row and its reversal: the reversal index is rebuilt (0018) over them.
    await db.execute(
      sql`insert into sp_ledger (user_id, type, amount, external_id) values (${a}, 'ADJUSTMENT', 5, 'x:1')`,
    );
    await db.execute(
      sql`insert into sp_ledger (user_id, type, amount, external_id, reverses_id)
          select user_id, type, -amount, 'reversal:x:1', id from sp_ledger where external_id = 'x:1'`,
    );

    await migrate(migrations);

    const moved = await rows<{ user_id: string; total_sp: string }>(
      db,
      sql`select user_id::text as user_id, total_sp::text as total_sp from user_sp_totals order by user_id`,
    );
    expect(moved).toEqual([
      { user_id: a, total_sp: "1200" },
      { user_id: c, total_sp: "700" },
      { user_id: d, total_sp: "-20" },
    ]);
    const columns = await rows<{ column_name: string }>(
      db,
      sql`select column_name from information_schema.columns where table_name = 'users' and column_name = 'total_sp'`,
    );
    expect(columns).toEqual([]);
    // The all-time ladder reads them: A then C; B (0) and D (−20) unranked but still found, with their SP.
    expect((await totalsPage(db, 0, 10)).map((r) => [r.userId, r.totalSp])).toEqual([
      [a, 1200],
      [c, 700],
    ]);
    expect(await countUsersAbove(db, 0)).toBe(2);
    expect((await totalRowOf(db, BigInt(b!)))?.totalSp).toBe(0);
    expect((await totalRowOf(db, BigInt(d!)))?.totalSp).toBe(-20);
    // A second reversal of the same row is still refused by the (now partial) unique index.
    await expect(
      db.execute(
        sql`insert into sp_ledger (user_id, type, amount, external_id, reverses_id)
            select user_id, type, -amount, 'reversal:again', id from sp_ledger where external_id = 'x:1'`,
      ),
    ).rejects.toThrow();
  });
});

describe("migrating stored snapshots (0018 → latest)", () => {
  it("keeps the weeks stored before as one partition, unchanged and still keyed; a new week gets its own", async () => {
    const { db, migrate } = await bareDatabase();
    await migrate(migrationsUpTo("0018_sp_ledger_reverses_partial"));
    // Weeks 0 and 2 as 0018 stored them: two Qualification rows each, and week 2's Champions winner with a prize.
    await db.execute(
      sql`insert into competition_leaderboard_snapshots
            (week, ladder, position, user_id, competitive_sp, rank, within_cutoff, prize_micro)
          values (0, 'qualification', 1, 11, 500, 1, true, null), (0, 'qualification', 2, 12, 300, 2, true, null),
                 (2, 'qualification', 1, 12, 900, 1, true, null), (2, 'qualification', 2, 11, 900, 1, true, null),
                 (2, 'champions', 1, 12, 900, 1, true, 140000000)`,
    );

    await migrate(migrations);

    const stored = await rows<Record<string, string>>(
      db,
      sql`select tableoid::regclass::text as part, week::text, ladder, position::text, user_id::text,
                 competitive_sp::text, rank::text, within_cutoff::text, prize_micro::text
          from competition_leaderboard_snapshots order by week, ladder desc, position`,
    );
    const before = "competition_leaderboard_snapshots_before_0019";
    expect(stored.map((r) => Object.values(r))).toEqual([
      [before, "0", "qualification", "1", "11", "500", "1", "true", null],
      [before, "0", "qualification", "2", "12", "300", "2", "true", null],
      [before, "2", "qualification", "1", "12", "900", "1", "true", null],
      [before, "2", "qualification", "2", "11", "900", "1", "true", null],
      [before, "2", "champions", "1", "12", "900", "1", "true", "140000000"],
    ]);
    const insert = (week: number, position: number, userId: number) =>
      tryInsertSnapshotRow(db, week, position, String(userId));
    expect(await insert(2, 3, 11)).toBe("23505"); // user 11 is on week 2's ladder
    expect(await insert(0, 2, 13)).toBe("23505"); // position 2 of week 0 is taken
    expect(await insert(0, 3, 13)).toBe("inserted");
    expect(await insert(1, 1, 13)).toBe("23514"); // no partition for a week never finalized

    // Finalize's steps for a new week: a table of its own, attached beside the old one.
    await db.transaction(async (tx) => {
      expect(await openWeekSnapshot(tx, 3, 25)).toBe(0);
      await insertSnapshotRows(tx, 3, "champions", [
        { position: 1, userId: "11", sp: 40, rank: 1, withinCutoff: true, prizeMicro: 5n },
      ]);
      await attachWeekSnapshot(tx, 3);
    });
    const week3 = await rows<{ part: string; user_id: string }>(
      db,
      sql`select tableoid::regclass::text as part, user_id::text from competition_leaderboard_snapshots where week = 3`,
    );
    expect(week3).toEqual([{ part: "competition_leaderboard_snapshots_w3", user_id: "11" }]);
    expect(await insert(3, 2, 11)).toBe("inserted"); // the Qualification ladder: another ladder, same player
    expect(await insert(3, 3, 11)).toBe("23505");
  });
});
