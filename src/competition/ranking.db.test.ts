/**
 * The SQL forms of the ladder rules (snapshot.repository.ts) against the reference in ranking.ts: for any set of
 * players, `COMPETITION_RANK_SQL` gives every player `rankLadder`'s rank and `LADDER_POSITION_SQL` puts them in
 * `rankLadder`'s order (SP descending, then user id ascending as numbers). Few distinct SP values, so ties are common.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, releaseTestDatabase } from "../../test/db.js";
import { type Database, intArray, rows } from "../db/client.js";
import { rankLadder } from "./ranking.js";
import { COMPETITION_RANK_SQL, LADDER_POSITION_SQL } from "./snapshot.repository.js";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => releaseTestDatabase(database));

/** Ranks and orders the players in SQL, as the Qualification snapshot does. */
async function sqlLadder(players: Array<{ userId: string; sp: number }>) {
  const found = await rows<{ user_id: string; sp: string; rank: string; position: string }>(
    database.db,
    sql`select user_id::text as user_id, sp::text as sp, (${COMPETITION_RANK_SQL})::text as rank,
               (${LADDER_POSITION_SQL})::text as position
        from unnest(${intArray(
          players.map((p) => p.userId),
          "bigint",
        )}, ${intArray(
          players.map((p) => p.sp),
          "bigint",
        )}) as t(user_id, sp)
        where sp > 0`,
  );
  return found
    .sort((a, b) => Number(a.position) - Number(b.position))
    .map((r) => ({ userId: r.user_id, sp: Number(r.sp), rank: Number(r.rank) }));
}

describe("the SQL ranking of the snapshot", () => {
  it("ranks a hand-made ladder 1, 2, 2, 4 with ids 9 before 10", async () => {
    const players = [
      { userId: "10", sp: 300 },
      { userId: "9", sp: 300 },
      { userId: "4", sp: 500 },
      { userId: "7", sp: 100 },
      { userId: "8", sp: 0 },
    ];
    expect(await sqlLadder(players)).toEqual([
      { userId: "4", sp: 500, rank: 1 },
      { userId: "9", sp: 300, rank: 2 },
      { userId: "10", sp: 300, rank: 2 },
      { userId: "7", sp: 100, rank: 4 },
    ]);
  });

  it("agrees with rankLadder on any ladder", async () => {
    const ladder = fc.uniqueArray(
      fc.record({
        userId: fc.bigInt({ min: 1n, max: 999_999_999_999_999_999n }).map(String),
        sp: fc.constantFrom(0, 1, 5, 50, 50_000, 9_007_199_254_740_991),
      }),
      { selector: (p) => p.userId, maxLength: 40 },
    );
    await fc.assert(
      fc.asyncProperty(ladder, async (players) => {
        expect(await sqlLadder(players)).toEqual(rankLadder(players));
      }),
      { numRuns: 60 },
    );
  });
});
