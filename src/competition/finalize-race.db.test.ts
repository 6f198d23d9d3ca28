/**
 * Finalize reads the week's live ladder several times (its Qualification snapshot, the top 25, eligibility, the
 * Champions ladder): all in one snapshot of the database (REPEATABLE READ), so an SP row that commits while it
 * runs is in none of them rather than in some. PostgreSQL only: the embedded database runs one transaction at a
 * time, so there the row simply waits for the finalize to commit.
 *
 * Season of the test config: week 0 = [Mon 2026-11-02, Tue 2026-11-10), week 1 = [11-10, 11-17).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, type TestApp } from "../../test/app.js";
import { testEngine } from "../../test/db.js";
import { buildEventBody } from "../../test/factories.js";
import { withStatementHook } from "../../test/statement-hook.js";
import { competitionDepsFor } from "../app-deps.js";
import { rows, sql } from "../db/client.js";
import { finalizeWeek } from "./finalize-week.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: new Date("2026-11-18T00:00:00.000Z") });
});
afterAll(async () => t?.close());

const wallet = (i: number) => `0x${String(i).padStart(40, "0")}`;
const addSp = (i: number, amount: number, eventId: string, externalId: string) =>
  call(t.app, {
    method: "POST",
    url: "/api/admin/sp-transactions",
    headers: ADMIN,
    payload: { wallet: wallet(i), type: "PREDICTION", amount, eventId, externalId },
  });

describe("finalize and an SP row committed while it runs", () => {
  it.runIf(testEngine === "postgres")(
    "stores ladders, prizes and eligibility all without the row, however late in the finalize it commits",
    async () => {
      for (const [id, kickoffAt] of [
        ["race-w0", "2026-11-05T12:00:00.000Z"],
        ["race-w1", "2026-11-12T12:00:00.000Z"],
      ]) {
        const res = await call(t.app, {
          method: "PUT",
          url: `/api/admin/events/${id}`,
          headers: ADMIN,
          payload: buildEventBody({ kickoffAt }),
        });
        expect(res.status).toBe(201);
      }
      // Week 0: players 1, 2, 3 (10, 20, 30 SP), all three in its top 25, so all eligible for Champions week 1.
      for (const i of [1, 2, 3]) expect((await addSp(i, 10 * i, "race-w0", `race-w0-${i}`)).status).toBe(201);
      const week0 = await call(t.app, {
        method: "POST",
        url: "/api/competition/finalize?week=0",
        headers: FINALIZE,
      });
      expect(week0.status).toBe(200);
      // Week 1: player 1 100 SP, player 2 50; player 3 nothing yet.
      expect((await addSp(1, 100, "race-w1", "race-w1-1")).status).toBe(201);
      expect((await addSp(2, 50, "race-w1", "race-w1-2")).status).toBe(201);

      // Player 3's 500 SP of week 1 commits right after the Qualification snapshot was copied. Before: it was
      // not in the stored Qualification ladder, yet first in the Champions ladder, paid the first prize, and
      // counted as a qualifier (3 qualifiers among 2 participants).
      const deps = competitionDepsFor(t.config, t.database, t.clock);
      const bulkDb = withStatementHook(deps.bulkDb ?? deps.db, {
        when: (text) => text.includes("'qualification'") && text.includes("from week_user_sp"),
        after: async () => {
          expect((await addSp(3, 500, "race-w1", "race-w1-late")).status).toBe(201);
        },
      });
      const { result } = await finalizeWeek({ ...deps, bulkDb }, { week: 1 });

      const ids = new Map<string, number>();
      for (const i of [1, 2, 3]) {
        const [user] = await rows<{ id: string }>(
          t.database.db,
          sql`select id::text as id from users where wallet = ${wallet(i)}`,
        );
        ids.set(user!.id, i);
      }
      const players = (userIds: string[]) => userIds.map((id) => ids.get(id));
      expect(result.qualification).toMatchObject({ participants: 2 });
      expect(result.champions).toMatchObject({ participants: 2 });
      expect(players(result.prizes.map((p) => p.userId))).toEqual([1, 2]);
      const stored = async (type: string) =>
        (
          await call(t.app, {
            method: "GET",
            url: `/api/competition/leaderboard?week=1&type=${type}&limit=10`,
          })
        ).body.data.rows.map((r: { userId: string; rank: number; competitiveSp: number }) => [
          ids.get(r.userId),
          r.rank,
          r.competitiveSp,
        ]);
      expect(await stored("qualification")).toEqual([
        [1, 1, 100],
        [2, 2, 50],
      ]);
      expect(await stored("champions")).toEqual([
        [1, 1, 100],
        [2, 2, 50],
      ]);
    },
  );
});
