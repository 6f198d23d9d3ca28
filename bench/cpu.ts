import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "../src/db/client.js";

/** CPU seconds used so far by this process and by the PostgreSQL backends serving `database` (/proc). */
export async function cpuNow(database: Database): Promise<{ node: number; pg: number }> {
  const node = process.cpuUsage();
  let pgTicks = 0;
  for (const ticks of (await backendTicks(database)).values()) pgTicks += ticks;
  return { node: (node.user + node.system) / 1e6, pg: pgTicks / 100 };
}

/** CPU ticks (1/100 s) used so far by each PostgreSQL backend serving `database`, by pid; empty on PGlite. */
export async function backendTicks(database: Database): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  if (database.engine !== "postgres") return ticks;
  const pids = await database.db.execute(
    sql`select pid from pg_stat_activity where datname = current_database()`,
  );
  for (const { pid } of (pids as unknown as { rows: Array<{ pid: number }> }).rows) {
    const used = processCpuTicks(pid);
    if (used !== null) ticks.set(pid, used);
  }
  return ticks;
}

/** CPU ticks (1/100 s, user + system) process `pid` has used so far, from /proc; null when it is gone. */
export function processCpuTicks(pid: number | string): number | null {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

/**
 * CPU ms the PostgreSQL backends serving `database` used since `before` (a backend opened since counts from zero;
 * one closed since is left out).
 */
export async function backendCpuMsSince(database: Database, before: Map<number, number>): Promise<number> {
  let ticks = 0;
  for (const [pid, now] of await backendTicks(database)) ticks += now - (before.get(pid) ?? 0);
  return ticks * 10;
}

/** A process's resident memory now (`VmRSS`) or at its peak so far (`VmHWM`), in MB, from /proc; null when gone. */
export function processMemoryMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}
