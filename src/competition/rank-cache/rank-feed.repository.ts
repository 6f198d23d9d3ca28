/**
 * The SQL of the rank cache: the rank change feed that keeps every instance's cache up to date, and the load of
 * a whole live week.
 */
import { sql } from "drizzle-orm";
import { preparedRows, type Queryable, rows } from "../../db/client.js";
import { displayInfoOf } from "../../users/users.js";
import type { DisplayInfo } from "./display-store.js";

/**
 * The rank change feed: every (week, user, sp) row and every user profile created or changed by a transaction with
 * id ≥ `sinceXid` (with what ladder rows show of it now), the finalized weeks, and the new watermark, read in ONE
 * statement (one snapshot): every transaction older than the returned xmin has finished and is visible here, so
 * reading from it next time misses nothing. Rows may repeat; values are absolute.
 */
export async function rankChangesSince(
  q: Queryable,
  sinceXid: string | null,
): Promise<{
  xmin: string;
  finalized: number[];
  changes: Array<{ week: number; userId: number; sp: number }>;
  /** Users created, or whose displayed profile (name, wallet) changed, with their display data now. */
  profiles: Array<{ id: number } & DisplayInfo>;
}> {
  // One statement, one snapshot: the watermark row, carrying the changed SP rows (an index range scan on
  // changed_xid) as one text of integers, then the changed profiles' rows. A row costs the embedded engine's client
  // ≈ 6 µs to parse: a catch-up of 80,000 changed rows took 0.5 s as rows, 0.08 s as one text (docs/performance.md,
  // session 19). Prepared (every read after the first): each request of a busy instance waits for one of these reads.
  const query = sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
               (select coalesce(string_agg(week::text, ','), '') from competition_weeks) as finalized,
               (select coalesce(string_agg(w.week || ',' || w.user_id || ',' || w.sp, ','), '') from week_user_sp w
                where ${sinceXid === null ? sql`false` : sql`w.changed_xid >= ${sinceXid}::xid8`}) as changes,
               null::text as user_id, null::text as display_name, null::text as wallet, null::text as checksum
        union all
        select null, null, null, u.id::text, u.display_name, u.wallet, u.wallet_checksum from users u
        where ${sinceXid === null ? sql`false` : sql`u.profile_xid >= ${sinceXid}::xid8`}`;
  type Row = {
    xmin: string | null;
    finalized: string | null;
    changes: string | null;
    user_id: string | null;
    display_name: string | null;
    wallet: string | null;
    checksum: string | null;
  };
  const found =
    sinceXid === null ? await rows<Row>(q, query) : await preparedRows<Row>(q, "rank_feed", query);
  const head = found.find((r) => r.xmin !== null)!;
  const numbers = integers(head.changes!);
  const changes: Array<{ week: number; userId: number; sp: number }> = [];
  for (let i = 0; i + 2 < numbers.length; i += 3)
    changes.push({ week: numbers[i]!, userId: numbers[i + 1]!, sp: numbers[i + 2]! });
  return {
    xmin: head.xmin!,
    finalized: integers(head.finalized!),
    changes,
    profiles: found
      .filter((r) => r.xmin === null)
      .map((r) => ({
        id: Number(r.user_id),
        ...displayInfoOf({ display_name: r.display_name!, wallet: r.wallet, checksum: r.checksum }),
      })),
  };
}

/** The integers of a comma-separated text (`string_agg` of integers); none for an empty text. */
function integers(text: string): number[] {
  return text === "" ? [] : text.split(",").map(Number);
}

/** Every ranked (SP > 0) player of week W with their SP, in no particular order (the cache sorts). */
export async function loadWeekSp(q: Queryable, week: number): Promise<Array<{ userId: number; sp: number }>> {
  // As one text of integers, like the feed's changes: 100,000 players took the embedded engine 0.7–1.1 s as rows,
  // 0.11–0.15 s so (PostgreSQL: 0.11–0.18 s as rows, 0.09–0.10 s so).
  const [found] = await rows<{ sp: string }>(
    q,
    sql`select coalesce(string_agg(user_id || ',' || sp, ','), '') as sp from week_user_sp
        where week = ${week} and sp > 0`,
  );
  const numbers = integers(found!.sp);
  const players: Array<{ userId: number; sp: number }> = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) players.push({ userId: numbers[i]!, sp: numbers[i + 1]! });
  return players;
}
