/**
 * The SQL week index (week-index-sql.ts) answers what `weekIndexAt` answers, at each boundary and between.
 * Season: week 0 = [Mon 2026-11-02 00:00, Tue 2026-11-10 00:00), week N ≥ 1 = [11-10 + 7(N−1) d, 11-10 + 7N d).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, releaseTestDatabase } from "../../test/db.js";
import type { Database } from "../db/client.js";
import { rows } from "../db/client.js";
import { type Season, weekIndexAt } from "./season.js";
import { epochMsSql, weekIndexSql } from "./week-index-sql.js";

const season: Season = {
  seasonStart: new Date("2026-11-02T00:00:00.000Z"),
  weekOneStart: new Date("2026-11-10T00:00:00.000Z"),
};
const INSTANTS: Array<[string, number | null]> = [
  ["2026-11-01T23:59:59.999Z", null], // the last instant before the season
  ["2026-11-02T00:00:00.000Z", 0], // the season's first instant
  ["2026-11-09T23:59:59.999Z", 0],
  ["2026-11-10T00:00:00.000Z", 1], // week one's first instant
  ["2026-11-16T23:59:59.999Z", 1],
  ["2026-11-17T00:00:00.000Z", 2],
  ["2027-11-09T12:00:00.000Z", 53], // 364.5 days after week one: 52 whole weeks
];

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  if (database) await releaseTestDatabase(database);
});

it("assigns each instant the week weekIndexAt assigns it", async () => {
  for (const [iso, week] of INSTANTS) {
    expect(weekIndexAt(season, new Date(iso)), iso).toBe(week);
    const [row] = await rows<{ week: number | null }>(
      database.db,
      sql`select ${weekIndexSql(season, epochMsSql(sql`${iso}::timestamptz`))} as week`,
    );
    expect(row!.week === null ? null : Number(row!.week), iso).toBe(week);
  }
});
