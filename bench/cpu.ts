import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "../src/db/client.js";

/** CPU seconds used so far by this process and by the PostgreSQL backends serving `database` (/proc). */
export async function cpuNow(database: Database): Promise<{ node: number; pg: number }> {
  const node = process.cpuUsage();
  let pgTicks = 0;
  if (database.engine === "postgres") {
    const pids = await database.db.execute(
      sql`select pid from pg_stat_activity where datname = current_database()`,
    );
    for (const { pid } of (pids as unknown as { rows: Array<{ pid: number }> }).rows) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        pgTicks += Number(f[11]) + Number(f[12]);
      } catch {
        // gone
      }
    }
  }
  return { node: (node.user + node.system) / 1e6, pg: pgTicks / 100 };
}
