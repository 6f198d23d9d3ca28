/**
 * `weekIndexAt` (season.ts) as a SQL expression, for queries that assign rows to weeks (the ledger's per-week
 * SP): the one place SQL states the rule, from the same constants (the Season, WEEK_MS). week-index-sql.db.test.ts
 * holds it equal to `weekIndexAt` at every boundary on both engines.
 */
import { type SQL, sql } from "drizzle-orm";
import { type Season, WEEK_MS } from "./season.js";

/**
 * The week index of an instant given as UTC epoch milliseconds (`epochMs`, a SQL numeric expression): null
 * before the season, 0 in the opening week, else 1 + whole weeks since week one.
 */
export function weekIndexSql(season: Season, epochMs: SQL): SQL {
  const seasonStartMs = season.seasonStart.getTime();
  const weekOneMs = season.weekOneStart.getTime();
  return sql`case
    when ${epochMs} < ${seasonStartMs} then null
    when ${epochMs} < ${weekOneMs} then 0
    else 1 + floor((${epochMs} - ${weekOneMs}) / ${WEEK_MS})::int
  end`;
}

/** A timestamptz column or expression as UTC epoch milliseconds. */
export function epochMsSql(timestamp: SQL): SQL {
  return sql`(extract(epoch from ${timestamp}) * 1000)`;
}
