/**
 * Reading over HTTP (SPEC §6 Events, §9): a player's prediction history (newest first, status filter, cursor
 * pages) and the events API (open events by kickoff with filters and stable keyset pages, one event, its odds).
 *
 * One app for the whole file; every test uses its own events (its own sport, so listings do not see each
 * other's events) and players. The clock stays at Fri 2026-11-20 12:00 UTC unless a test moves it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { buildMarket } from "../../test/factories.js";
import {
  bet,
  betV2,
  dataOf,
  expectError,
  expectInvalid,
  postResult,
  putEvent,
  txHash,
} from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const MINUTE = 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW, env: NO_RATE_LIMITS });
});
afterAll(async () => t?.close());
beforeEach(() => t.clock.set(NOW));

let keys = 500;
const newPlayer = () => signIn(t, testKey(keys++));

const get = (url: string, cookie?: string) =>
  call(t.app, { method: "GET", url, headers: cookie ? { cookie } : {} });

/** A cursor as the server encodes them (base64url JSON), for forging ones it never issued. */
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Follows nextCursor from `url` (which must already carry a query) to the end; returns every page's ids. */
async function allPages(url: string, cookie?: string): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const res = await get(cursor ? `${url}&cursor=${cursor}` : url, cookie);
    const data = dataOf(res);
    pages.push(data.items.map((i: { id: string }) => i.id));
    cursor = data.nextCursor;
    expect(pages.length).toBeLessThan(50); // no endless paging
  } while (cursor);
  return pages;
}

describe("GET /api/user/predictions", () => {
  /** A player with 12 predictions placed one minute apart: won, lost, void, pending and 8 open ones. */
  async function playerWithHistory() {
    const p = await newPlayer();
    const [settled, open] = [`hp-settled-${keys}`, `hp-open-${keys}`];
    await putEvent(t, settled);
    await putEvent(t, open);
    const ids: string[] = []; // in placing order
    const place = async (eventId: string, market: string, outcome: string) => {
      const res = await bet(t, p.cookie, { eventId, market, outcome, stake: 10 });
      ids.push(dataOf(res, 201).prediction.id);
      t.clock.set(new Date(t.clock.now().getTime() + MINUTE));
    };
    await place(settled, "1x2", "home"); // will be won
    await place(settled, "1x2", "away"); // will be lost
    await place(settled, "total", "over"); // will be void: the result names no "total" winner
    const v2 = { eventId: open, market: "1x2", outcome: "home", stakeUsdc: "1", odds: 2.15, chainId: 1 };
    ids.push(dataOf(await betV2(t, p.cookie, { ...v2, txHash: txHash(5000 + keys) }), 201).prediction.id); // pending
    for (let i = 0; i < 8; i++) await place(open, "1x2", i % 2 ? "draw" : "away"); // open
    dataOf(await postResult(t, settled, { status: "finished", winningOutcome: "home" }));
    return { p, ids, newestFirst: [...ids].reverse(), settled, open };
  }

  it("lists the player's predictions newest first, each with its event", async () => {
    const { p, ids, newestFirst, settled, open } = await playerWithHistory();
    const other = await newPlayer();
    dataOf(await bet(t, other.cookie, { eventId: open, market: "1x2", outcome: "home", stake: 5 }), 201);

    const data = dataOf(await get("/api/user/predictions?limit=100", p.cookie));
    expect(data.nextCursor).toBeNull();
    expect(data.items.map((i: { id: string }) => i.id)).toEqual(newestFirst);
    const placedAt = data.items.map((i: { placedAt: string }) => i.placedAt);
    expect([...placedAt].sort().reverse()).toEqual(placedAt);
    expect(data.items.at(-1)).toMatchObject({
      id: ids[0],
      status: "won",
      payout: 21, // 10 × 2.15 = 21.5 → 21
      event: { id: settled, status: "finished", homeTeam: "Arsenal", markets: expect.any(Array) },
    });
    // The default page is 20 items: all 12 here.
    expect(dataOf(await get("/api/user/predictions", p.cookie)).items).toHaveLength(12);
    // The other player sees only their own.
    expect(dataOf(await get("/api/user/predictions", other.cookie)).items).toHaveLength(1);
  });

  it("filters by status", async () => {
    const { p, ids } = await playerWithHistory();
    const byStatus = async (status: string) =>
      dataOf(await get(`/api/user/predictions?status=${status}`, p.cookie)).items.map(
        (i: { id: string }) => i.id,
      );
    expect(await byStatus("won")).toEqual([ids[0]]);
    expect(await byStatus("lost")).toEqual([ids[1]]);
    expect(await byStatus("void")).toEqual([ids[2]]);
    expect(await byStatus("pending")).toEqual([ids[3]]);
    expect(await byStatus("open")).toEqual(ids.slice(4).reverse());
    expect(await byStatus("rejected")).toEqual([]);
  });

  it("pages with limit + cursor over every item exactly once, also under a status filter", async () => {
    const { p, newestFirst, ids } = await playerWithHistory();
    const pages = await allPages("/api/user/predictions?limit=5", p.cookie);
    // 12 items in pages of 5: 5 + 5 + 2.
    expect(pages.map((x) => x.length)).toEqual([5, 5, 2]);
    expect(pages.flat()).toEqual(newestFirst);

    // Exactly a multiple of the limit: 12 = 4 × 3, and the last page says there is no more.
    expect((await allPages("/api/user/predictions?limit=3", p.cookie)).map((x) => x.length)).toEqual([
      3, 3, 3, 3,
    ]);

    const open = await allPages("/api/user/predictions?limit=3&status=open", p.cookie);
    // 8 open items: 3 + 3 + 2.
    expect(open.map((x) => x.length)).toEqual([3, 3, 2]);
    expect(open.flat()).toEqual(ids.slice(4).reverse());
  });

  it("refuses bad cursors, limits and statuses with 400 and needs a session", async () => {
    const p = await newPlayer();
    const url = "/api/user/predictions";
    expectInvalid(await get(`${url}?cursor=not-a-cursor`, p.cookie), "query.cursor");
    expectInvalid(await get(`${url}?cursor=${forge({ i: "abc" })}`, p.cookie), "query.cursor");
    expectInvalid(
      await get(`${url}?cursor=${forge({ k: "2026-11-20T12:00:00.000Z", i: "x" })}`, p.cookie),
      "query.cursor",
    );
    // Ids have at most 18 digits: 2^63 = 9223372036854775808 (beyond every bigint) is no cursor.
    expectInvalid(
      await get(`${url}?cursor=${forge({ i: "9223372036854775808" })}`, p.cookie),
      "query.cursor",
    );
    expectInvalid(await get(`${url}?limit=101`, p.cookie), "query.limit");
    expectInvalid(await get(`${url}?limit=0`, p.cookie), "query.limit");
    expectInvalid(await get(`${url}?limit=abc`, p.cookie), "query.limit");
    expectInvalid(await get(`${url}?status=settled`, p.cookie), "query.status");
    expectInvalid(await get(`${url}?sort=asc`, p.cookie), "query.sort");
    // The largest valid id is a valid cursor: everything is older.
    expect(dataOf(await get(`${url}?cursor=${forge({ i: "999999999999999999" })}`, p.cookie)).items).toEqual(
      [],
    );
    expectError(await get(url), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/available-events", () => {
  const list = (query: string) => get(`/api/available-events?${query}`);
  const ids = async (query: string) => dataOf(await list(query)).items.map((e: { id: string }) => e.id);

  it("lists only scheduled events with a future kickoff, by kickoff then id", async () => {
    const sport = { sport: "curling" };
    await putEvent(t, "ha-3", { ...sport, kickoffAt: "2026-11-22T10:00:00.000Z" });
    await putEvent(t, "ha-2", { ...sport, kickoffAt: "2026-11-21T10:00:00.000Z" });
    await putEvent(t, "ha-1", { ...sport, kickoffAt: "2026-11-21T10:00:00.000Z" }); // same kickoff as ha-2
    await putEvent(t, "ha-past", { ...sport, kickoffAt: "2026-11-20T11:59:59.999Z" }); // 1 ms before now
    await putEvent(t, "ha-now", { ...sport, kickoffAt: NOW.toISOString() }); // kicks off now: closed
    await putEvent(t, "ha-live", { ...sport, status: "live", kickoffAt: "2026-11-23T10:00:00.000Z" });
    await putEvent(t, "ha-done", { ...sport, status: "finished", kickoffAt: "2026-11-23T10:00:00.000Z" });
    await putEvent(t, "ha-off", { ...sport, status: "cancelled", kickoffAt: "2026-11-23T10:00:00.000Z" });

    const data = dataOf(await list("sport=curling"));
    expect(data.items.map((e: { id: string }) => e.id)).toEqual(["ha-1", "ha-2", "ha-3"]);
    expect(data.nextCursor).toBeNull();
    expect(data.items[0]).toEqual({
      id: "ha-1",
      sport: "curling",
      league: "Premier League",
      homeTeam: "Arsenal",
      awayTeam: "Chelsea",
      kickoffAt: "2026-11-21T10:00:00.000Z",
      status: "scheduled",
      warmup: false,
      markets: [
        {
          key: "1x2",
          outcomes: [
            { key: "home", label: "Arsenal", odds: 2.15 },
            { key: "draw", label: "Draw", odds: 3.4 },
            { key: "away", label: "Chelsea", odds: 3.1 },
          ],
        },
        {
          key: "total",
          outcomes: [
            { key: "over", label: "Over 2.5", odds: 1.95 },
            { key: "under", label: "Under 2.5", odds: 1.85 },
          ],
        },
      ],
    });

    // Unfiltered, the closed ones are absent too.
    const everything = (await allPages("/api/available-events?limit=100")).flat();
    expect(everything).toEqual(expect.arrayContaining(["ha-1", "ha-2", "ha-3"]));
    for (const closed of ["ha-past", "ha-now", "ha-live", "ha-done", "ha-off"])
      expect(everything).not.toContain(closed);

    // Once the clock passes a kickoff, that event leaves the list.
    t.clock.set(new Date("2026-11-21T10:00:00.000Z"));
    expect(await ids("sport=curling")).toEqual(["ha-3"]);
  });

  it("filters by sport, league, from (inclusive) and to (exclusive)", async () => {
    const base = { sport: "hurling" };
    await putEvent(t, "hf-a", { ...base, league: "Munster", kickoffAt: "2026-11-21T10:00:00.000Z" });
    await putEvent(t, "hf-b", { ...base, league: "Leinster", kickoffAt: "2026-11-22T10:00:00.000Z" });
    await putEvent(t, "hf-c", { ...base, league: "Munster", kickoffAt: "2026-11-23T10:00:00.000Z" });
    await putEvent(t, "hf-x", { sport: "shinty", league: "Munster", kickoffAt: "2026-11-22T10:00:00.000Z" });

    expect(await ids("sport=hurling")).toEqual(["hf-a", "hf-b", "hf-c"]);
    expect(await ids("sport=hurling&league=Munster")).toEqual(["hf-a", "hf-c"]);
    expect(await ids("league=Munster&limit=100")).toEqual(expect.arrayContaining(["hf-a", "hf-c", "hf-x"]));
    expect(await ids("sport=hurling&from=2026-11-22T10:00:00.000Z")).toEqual(["hf-b", "hf-c"]);
    expect(await ids("sport=hurling&to=2026-11-22T10:00:00.000Z")).toEqual(["hf-a"]);
    expect(await ids("sport=hurling&from=2026-11-22T00:00:00Z&to=2026-11-23T00:00:00Z")).toEqual(["hf-b"]);
    // The same instant written with an offset: 11:00+01:00 = 10:00Z.
    expect(await ids("sport=hurling&from=2026-11-22T11:00:00%2B01:00")).toEqual(["hf-b", "hf-c"]);
    expect(await ids("sport=nothing-here")).toEqual([]);
  });

  it("pages with a stable keyset cursor: events inserted before the cursor never show up, none repeat", async () => {
    const base = { sport: "korfball" };
    for (const [id, day] of [
      ["hk-1", 21],
      ["hk-2", 22],
      ["hk-3", 23],
      ["hk-4", 24],
      ["hk-5", 25],
    ] as const) {
      await putEvent(t, id, { ...base, kickoffAt: `2026-11-${day}T10:00:00.000Z` });
    }
    const first = dataOf(await list("sport=korfball&limit=2"));
    expect(first.items.map((e: { id: string }) => e.id)).toEqual(["hk-1", "hk-2"]);

    // Inserted before the cursor position (kickoffs on the 21st and the 22nd at 09:00) and after it (the 26th),
    // plus one at the cursor's kickoff with an id after hk-2 (it sorts after the cursor, so it belongs to later pages).
    await putEvent(t, "hk-0", { ...base, kickoffAt: "2026-11-21T09:00:00.000Z" });
    await putEvent(t, "hk-1b", { ...base, kickoffAt: "2026-11-22T09:00:00.000Z" });
    await putEvent(t, "hk-6", { ...base, kickoffAt: "2026-11-26T10:00:00.000Z" });
    await putEvent(t, "hk-2b", { ...base, kickoffAt: "2026-11-22T10:00:00.000Z" });

    const rest: string[] = [];
    let cursor: string | null = first.nextCursor;
    while (cursor) {
      const page = dataOf(await list(`sport=korfball&limit=2&cursor=${cursor}`));
      rest.push(...page.items.map((e: { id: string }) => e.id));
      cursor = page.nextCursor;
    }
    expect(rest).toEqual(["hk-2b", "hk-3", "hk-4", "hk-5", "hk-6"]);
    const seen = [...first.items.map((e: { id: string }) => e.id), ...rest];
    expect(new Set(seen).size).toBe(seen.length);

    // From the start, everything in order.
    expect((await allPages("/api/available-events?sport=korfball&limit=3")).flat()).toEqual([
      "hk-0",
      "hk-1",
      "hk-1b",
      "hk-2",
      "hk-2b",
      "hk-3",
      "hk-4",
      "hk-5",
      "hk-6",
    ]);
  });

  it("refuses bad queries with 400 naming the field", async () => {
    expectInvalid(await list("limit=101"), "query.limit");
    expectInvalid(await list("limit=0"), "query.limit");
    expectInvalid(await list("from=yesterday"), "query.from");
    expectInvalid(await list("to=2026-11-20"), "query.to");
    expectInvalid(await list("color=red"), "query.color");
    expectInvalid(await list("cursor=garbage"), "query.cursor");
    expectInvalid(await list(`cursor=${forge({ k: "not a date", i: "hk-1" })}`), "query.cursor");
    expectInvalid(await list(`cursor=${forge({ i: "9" })}`), "query.cursor");
  });

  it("answers 400, never 500, for forged cursors and instants the database cannot hold", async () => {
    // Dates JavaScript accepts but PostgreSQL cannot store, and an id with a NUL character.
    expectInvalid(
      await list(`cursor=${forge({ k: "-271821-04-20T00:00:00.000Z", i: "x" })}`),
      "query.cursor",
    );
    expectInvalid(
      await list(`cursor=${forge({ k: "+275760-09-13T00:00:00.000Z", i: "x" })}`),
      "query.cursor",
    );
    expectInvalid(
      await list(`cursor=${forge({ k: "2026-11-21T10:00:00.000Z", i: "a\u0000b" })}`),
      "query.cursor",
    );
    // A leap second passes the date-time format but is no JavaScript instant.
    expectInvalid(await list("from=2026-12-31T23:59:60Z"), "query.from");
    // Year 0 is a JavaScript instant (1 BC) that PostgreSQL refuses as input.
    expectInvalid(await list("to=0000-01-01T00:00:00Z"), "query.to");
  });
});

describe("GET /api/events/:id and /api/events/:id/odds", () => {
  it("serves one event and its odds; updatedAt moves when the odds are updated", async () => {
    const created = await putEvent(t, "he-1", { warmup: true });
    const event = dataOf(await get("/api/events/he-1"));
    expect(event).toEqual(created);
    expect(event).toMatchObject({ id: "he-1", warmup: true, status: "scheduled" });

    const odds = dataOf(await get("/api/events/he-1/odds"));
    expect(odds).toEqual({ eventId: "he-1", updatedAt: NOW.toISOString(), markets: event.markets });

    const later = new Date(NOW.getTime() + 5 * MINUTE);
    t.clock.set(later);
    await putEvent(t, "he-1", {
      warmup: true,
      markets: [buildMarket("1x2", ["home", "Arsenal", 2.05], ["away", "Chelsea", 3.333])],
    });
    const updated = dataOf(await get("/api/events/he-1/odds"));
    expect(updated).toEqual({
      eventId: "he-1",
      updatedAt: later.toISOString(),
      markets: [
        {
          key: "1x2",
          outcomes: [
            { key: "home", label: "Arsenal", odds: 2.05 },
            { key: "away", label: "Chelsea", odds: 3.333 },
          ],
        },
      ],
    });
    expect(dataOf(await get("/api/events/he-1")).markets).toEqual(updated.markets);

    // A PUT with the same markets (a new league name) leaves updatedAt where the odds last changed (before: moved).
    t.clock.set(new Date(later.getTime() + 5 * MINUTE));
    await putEvent(t, "he-1", {
      warmup: true,
      league: "Premier League, matchday 14",
      markets: [buildMarket("1x2", ["home", "Arsenal", 2.05], ["away", "Chelsea", 3.333])],
    });
    expect(dataOf(await get("/api/events/he-1/odds")).updatedAt).toBe(later.toISOString());
  });

  it("answers 404 in the error envelope for an unknown id and 400 for a malformed one", async () => {
    for (const url of ["/api/events/he-missing", "/api/events/he-missing/odds"]) {
      const res = await get(url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: expect.any(String), status: 404, code: "NOT_FOUND" });
    }
    const tooLong = "x".repeat(65); // ids are 1..64 characters
    for (const id of ["bad%20id", "bad!", tooLong]) {
      expectInvalid(await get(`/api/events/${id}`), "params.id");
      expectInvalid(await get(`/api/events/${id}/odds`), "params.id");
    }
  });
});
