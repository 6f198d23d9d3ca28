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
  // One statement, one snapshot: the watermark row, then the changed rows (an index range scan on changed_xid).
  // Prepared (every read after the first): each request of a busy instance waits for one of these reads.
  const query = sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
               (select coalesce(string_agg(week::text, ','), '') from competition_weeks) as finalized,
               null::int as week, null::text as user_id, null::text as sp,
               null::text as display_name, null::text as wallet, null::text as checksum
        union all
        select null, null, w.week, w.user_id::text, w.sp::text, null, null, null from week_user_sp w
        where ${sinceXid === null ? sql`false` : sql`w.changed_xid >= ${sinceXid}::xid8`}
        union all
        select null, null, null, u.id::text, null, u.display_name, u.wallet, u.wallet_checksum from users u
        where ${sinceXid === null ? sql`false` : sql`u.profile_xid >= ${sinceXid}::xid8`}`;
  type Row = {
    xmin: string | null;
    finalized: string | null;
    week: number | null;
    user_id: string | null;
    sp: string | null;
    display_name: string | null;
    wallet: string | null;
    checksum: string | null;
  };
  const found =
    sinceXid === null ? await rows<Row>(q, query) : await preparedRows<Row>(q, "rank_feed", query);
  const head = found.find((r) => r.xmin !== null)!;
  return {
    xmin: head.xmin!,
    finalized: head.finalized ? head.finalized.split(",").map(Number) : [],
    changes: found
      .filter((r) => r.user_id !== null && r.week !== null)
      .map((r) => ({ week: Number(r.week), userId: Number(r.user_id), sp: Number(r.sp) })),
    profiles: found
      .filter((r) => r.user_id !== null && r.week === null)
      .map((r) => ({
        id: Number(r.user_id),
        ...displayInfoOf({ display_name: r.display_name!, wallet: r.wallet, checksum: r.checksum }),
      })),
  };
}

/** Every ranked (SP > 0) player of week W with their SP, in no particular order (the cache sorts). */
export async function loadWeekSp(q: Queryable, week: number): Promise<Array<{ userId: number; sp: number }>> {
  const found = await rows<{ user_id: string; sp: string }>(
    q,
    sql`select user_id::text as user_id, sp::text as sp from week_user_sp where week = ${week} and sp > 0`,
  );
  return found.map((r) => ({ userId: Number(r.user_id), sp: Number(r.sp) }));
}
