/**
 * Values derived from live ranks (next week's eligibility, a live week's Champions ladder) are computed once per
 * rank-cache version and shared between requests: a write must still show in the very next read. Each check
 * first reads (so the derived value is remembered), then writes, then reads again on the same instance.
 *
 * Season of the test config: week 1 = [Tue 2026-11-10, 11-17), week 2 = [11-17, 11-24); the clock is at Fri
 * 2026-11-20 (week 2 live, nothing finalized).
 * - Week 1 (event d-w1): P1 300, P2 200, P3 100 → all three eligible for Champions week 2 via Qualification.
 * - Week 2 (event d-w2): P1 100, P2 50, fillers Q1..Q25 at 80, X 10.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../../test/app.js";
import { addSp, getData, NO_RATE_LIMITS, player, putEvent } from "../../test/competition-api.js";

let t: TestApp;
const P = (i: number) => player(300 + i);
const Q = (i: number) => player(400 + i);
const X = player(500);
const cookie = new Map<string, string>();
const add = (p: { wallet: string }, amount: number, eventId: string) =>
  addSp(t, { wallet: p.wallet, type: "PREDICTION", amount, eventId });

beforeAll(async () => {
  t = await createTestApp({ env: NO_RATE_LIMITS });
  await putEvent(t, "d-w1", "2026-11-12T18:00:00.000Z");
  await putEvent(t, "d-w2", "2026-11-19T18:00:00.000Z");
  await add(P(1), 300, "d-w1");
  await add(P(2), 200, "d-w1");
  await add(P(3), 100, "d-w1");
  await add(P(1), 100, "d-w2");
  await add(P(2), 50, "d-w2");
  for (let i = 1; i <= 25; i++) await add(Q(i), 80, "d-w2");
  await add(X, 10, "d-w2");
  for (const p of [P(2), X]) cookie.set(p.wallet, (await signIn(t, p.key)).cookie);
});
afterAll(async () => t.close());

const me = (p: { wallet: string }) => getData(t, "/api/competition/me", cookie.get(p.wallet));

describe("derived live values follow every write", () => {
  it("next week's eligibility: X enters the week-2 top 25 and becomes eligible for week 3", async () => {
    // Week 2: P1 100, Q1..Q25 80 (ranks 2..26, tied at 2), P2 50 (27), X 10 (28): X is outside the top 25.
    expect((await me(X)).nextWeek).toEqual({ week: 3, eligible: false, via: null });
    expect((await me(X)).nextWeek).toEqual({ week: 3, eligible: false, via: null });
    await add(X, 200, "d-w2"); // X 210: rank 1
    expect((await me(X)).nextWeek).toEqual({ week: 3, eligible: true, via: "qualification" });
    expect((await me(X)).qualification).toEqual({ rank: 1, competitiveSp: 210, withinCutoff: true });
  });

  it("a live week's Champions ladder: P2 overtakes P1", async () => {
    // Champions week 2 (eligible: P1, P2, P3 from week 1): P1 100 rank 1, P2 50 rank 2; P3 has no week-2 SP.
    expect((await me(P(2))).champions).toMatchObject({ eligible: true, rank: 2, competitiveSp: 50 });
    const page = await getData(t, "/api/competition/leaderboard?type=champions&limit=10");
    expect(page.rows.map((r: { competitiveSp: number; rank: number }) => [r.competitiveSp, r.rank])).toEqual([
      [100, 1],
      [50, 2],
    ]);
    await add(P(2), 100, "d-w2"); // P2 150
    expect((await me(P(2))).champions).toMatchObject({ eligible: true, rank: 1, competitiveSp: 150 });
    const after = await getData(t, "/api/competition/leaderboard?type=champions&limit=10");
    expect(after.rows.map((r: { competitiveSp: number; rank: number }) => [r.competitiveSp, r.rank])).toEqual(
      [
        [150, 1],
        [100, 2],
      ],
    );
  });

  it("under a steady stream of other writes, every read sees the writes acknowledged before it", async () => {
    // A background writer keeps the rank feed changing and background readers keep its reads in flight, to be
    // shared by the reads that arrive; in the foreground, X gains 1 SP at a time and each read right after must
    // show the new total (a read may share only a feed read that covers every write acknowledged before it).
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) await add(Q(1 + (i % 25)), 1, "d-w2");
    })();
    // Background readers keep a feed read in flight most of the time, started before the foreground's writes.
    // (Each yields to the event loop between requests: a read answered from memory completes in microtasks, and
    // an injected loop of those would starve everything else.)
    const readers = [1, 2, 3].map(async () => {
      while (writing) {
        await getData(t, "/api/competition/leaderboard?limit=5");
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    try {
      await add(X, 1000, "d-w2"); // X leads the ladder from here on
      const start = (await me(X)).qualification.competitiveSp as number;
      for (let i = 1; i <= 20; i++) {
        await add(X, 1, "d-w2");
        const [mine, page] = await Promise.all([me(X), getData(t, "/api/competition/leaderboard?limit=1")]);
        expect(mine.qualification.competitiveSp).toBe(start + i);
        expect(page.rows[0]).toMatchObject({ competitiveSp: start + i });
      }
    } finally {
      writing = false;
      await Promise.all([writer, ...readers]);
    }
  });

  it("a live ladder page: a player who joins after it was read shows with his name and checksummed wallet", async () => {
    // The page was read (and the display store loaded) before the player existed: his row's display data comes
    // from the change feed that reports him (created), read in the same statement as his SP.
    const url = "/api/competition/leaderboard?limit=1";
    await getData(t, url);
    const newcomer = player(600);
    await add(newcomer, 5000, "d-w2"); // a new wallet: created by the ingest, and first of week 2
    const [row] = (await getData(t, url)).rows;
    expect(row).toMatchObject({
      rank: 1,
      competitiveSp: 5000,
      wallet: newcomer.wallet, // viem's EIP-55 address
      displayName: `${newcomer.wallet.slice(0, 6)}…${newcomer.wallet.slice(-4)}`,
    });
  });

  it("a live ladder page: a profile changed in the database (another instance) shows on the next read", async () => {
    const url = "/api/competition/leaderboard?limit=3";
    const before = await getData(t, url);
    expect((await getData(t, url)).rows).toEqual(before.rows);
    const top = before.rows[0] as { userId: string; displayName: string };
    await t.database.db.execute(
      sql`update users set display_name = 'Renamed', profile_xid = pg_current_xact_id() where id = ${top.userId}`,
    );
    const after = await getData(t, url);
    expect(after.rows[0]).toMatchObject({ userId: top.userId, displayName: "Renamed" });
    expect(after.rows.slice(1)).toEqual(before.rows.slice(1));
  });
});
