/**
 * The display cache: a store of every user loaded once in the background (table pages in storage order) when a page
 * first misses, pages answered by their own query meanwhile, the users created or changed since held as the change
 * feed reports them, and a profile change never shown from memory again.
 */
import { expect, it } from "vitest";
import { DisplayCache, type DisplaySource } from "./display-cache.js";
import type { DisplayInfo } from "./display-store.js";

const info = (id: string | number): DisplayInfo => ({ displayName: `P${id}`, wallet: null });

/**
 * A table of users 1..n (names `P<id>`) stored 100 to a page in an order unlike their ids (the last ids in the
 * first page, descending), counting the source's queries; `renamed` users answer a new name.
 */
function table(n: number, renamed = new Map<string, string>()) {
  const calls = { of: [] as string[][], inPages: [] as Array<[number, number | null]>, extent: 0 };
  const shown = (id: string): DisplayInfo => ({ displayName: renamed.get(id) ?? `P${id}`, wallet: null });
  const pages = () => Math.ceil(n / 100);
  const source: DisplaySource = {
    of: async (ids) => {
      calls.of.push(ids);
      return new Map(ids.filter((id) => Number(id) <= n).map((id) => [id, shown(id)]));
    },
    inPages: async (from, to) => {
      calls.inPages.push([from, to]);
      const users = [];
      for (let page = from; page < Math.min(to ?? pages(), pages()); page++) {
        const block = pages() - 1 - page;
        for (let id = Math.min(n, (block + 1) * 100); id > block * 100; id--)
          users.push({ id, ...shown(String(id)) });
      }
      return users;
    },
    extent: async () => {
      calls.extent++;
      return { users: n, pages: pages() };
    },
  };
  return {
    source,
    calls,
    grow: (to: number) => {
      n = to;
    },
  };
}

it("answers the first page by its query while every user loads in the background, 1,024 table pages a read; later pages anywhere need no query", async () => {
  const cache = new DisplayCache();
  const t = table(250_000);
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const held: DisplaySource = {
    ...t.source,
    inPages: async (from, to) => {
      await gate;
      return t.source.inPages(from, to);
    },
  };
  // The load is held at its first read: the page is answered anyway, by one query for its users.
  const first = await cache.displayOf(["3", "249999", "102401"], held);
  expect([...first]).toEqual([
    ["3", info(3)],
    ["249999", info(249999)],
    ["102401", info(102401)],
  ]);
  expect(cache.storedUsers).toBe(0);
  release();
  await cache.settled();
  expect(cache.storedUsers).toBe(250_000);
  expect(t.calls).toEqual({
    of: [["3", "249999", "102401"]],
    inPages: [
      [0, 1024],
      [1024, 2048],
      [2048, null],
    ],
    extent: 1,
  });
  await cache.displayOf(["250000", "1", "30000"], held);
  expect(t.calls.of).toHaveLength(1);
  expect(t.calls.inPages).toHaveLength(3);
});

it("a user met twice by the load (its row moved) is shown once; one it missed is loaded by its page", async () => {
  const cache = new DisplayCache();
  const t = table(10);
  const moved: DisplaySource = {
    ...t.source,
    inPages: async () => [
      { id: 5, ...info(5) },
      { id: 6, ...info(6) },
      { id: 5, ...info(5) },
    ],
  };
  await cache.displayOf(["1"], moved);
  await cache.settled();
  const page = await cache.displayOf(["5", "7", "6"], moved);
  expect([...page]).toEqual([
    ["5", info(5)],
    ["7", info(7)],
    ["6", info(6)],
  ]);
  expect(t.calls.of).toEqual([["1"], ["7"]]);
});

it("loads a user created after the store in one query for the page, then holds it", async () => {
  const cache = new DisplayCache();
  const t = table(10);
  await cache.displayOf(["1"], t.source);
  await cache.settled();
  t.grow(12);
  expect([...(await cache.displayOf(["11", "2", "12"], t.source))]).toEqual([
    ["11", info(11)],
    ["2", info(2)],
    ["12", info(12)],
  ]);
  await cache.displayOf(["12", "11"], t.source);
  expect(t.calls.of).toEqual([["1"], ["11", "12"]]);
});

it("shows a changed profile's new name once the feed reports it, and a new player's, without a query", async () => {
  const renamed = new Map<string, string>();
  const cache = new DisplayCache();
  const t = table(10, renamed);
  await cache.displayOf(["4"], t.source);
  await cache.settled();
  renamed.set("4", "Renamed");
  expect((await cache.displayOf(["4"], t.source)).get("4")).toEqual(info(4));
  t.grow(11);
  cache.learn([
    { id: 4, displayName: "Renamed", wallet: null },
    { id: 11, ...info(11) },
  ]);
  expect([...(await cache.displayOf(["4", "5", "11"], t.source))]).toEqual([
    ["4", { displayName: "Renamed", wallet: null }],
    ["5", info(5)],
    ["11", info(11)],
  ]);
  expect(t.calls.of).toEqual([["4"]]);
});

it("learns at most the entries' bound: beyond, it starts over, and a user left out is queried by his page", async () => {
  const cache = new DisplayCache();
  const t = table(10);
  await cache.displayOf(["1"], t.source);
  await cache.settled();
  const n = 100_001;
  t.grow(10 + n);
  cache.learn(Array.from({ length: n }, (_, i) => ({ id: 11 + i, ...info(11 + i) })));
  expect([...(await cache.displayOf(["11", "100011", "5"], t.source))]).toEqual([
    ["11", info(11)],
    ["100011", info(100011)],
    ["5", info(5)],
  ]);
  expect(t.calls.of).toEqual([["1"], ["11"]]);
});

it("a profile changed while the store loads is read again, though its page was read before the change", async () => {
  // The store's page holding user 3 is read with the old name; the change commits and the feed reports it before
  // the load ends. Without marking it after the load, the old name would be shown until a restart.
  const renamed = new Map<string, string>();
  const cache = new DisplayCache();
  const t = table(5, renamed);
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const inPages = t.source.inPages;
  const slow: DisplaySource = {
    ...t.source,
    inPages: async (from, to) => {
      const users = await inPages(from, to);
      await gate;
      return users;
    },
  };
  await cache.displayOf(["1"], slow);
  renamed.set("3", "Renamed");
  cache.learn([{ id: 3, displayName: "Renamed", wallet: null }]);
  release();
  await cache.settled();
  expect((await cache.displayOf(["3"], t.source)).get("3")).toEqual({ displayName: "Renamed", wallet: null });
});

it("answers every user of a page when another request replaces or clears entries while its load runs", async () => {
  // Replays a 500 of the 1,000,000-player bench: a page's held entries were cleared (the cache full) by another
  // request during this page's load, and the page's answer lacked them.
  const cache = new DisplayCache(0);
  const t = table(10);
  await cache.displayOf(["1"], t.source);
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const page = cache.displayOf(["1", "2"], {
    ...t.source,
    of: async (ids) => {
      await gate;
      return t.source.of(ids);
    },
  });
  cache.learn([{ id: 1, displayName: "Renamed", wallet: null }]);
  release();
  expect([...(await page)]).toEqual([
    ["1", info(1)],
    ["2", info(2)],
  ]);
});

it("keeps no store for a table above its bound: each page queries its missing users", async () => {
  const cache = new DisplayCache(100);
  const t = table(101);
  await cache.displayOf(["1", "2"], t.source);
  await cache.displayOf(["2", "3"], t.source);
  expect(t.calls).toEqual({ of: [["1", "2"], ["3"]], inPages: [], extent: 1 });
});

it("a failed load leaves the pages to their queries, and is not tried again at once", async () => {
  const cache = new DisplayCache();
  const t = table(10);
  const failing: DisplaySource = {
    ...t.source,
    inPages: async () => {
      throw new Error("statement timeout");
    },
  };
  expect((await cache.displayOf(["1"], failing)).get("1")).toEqual(info(1));
  await cache.settled();
  expect((await cache.displayOf(["2"], failing)).get("2")).toEqual(info(2));
  await cache.settled();
  expect(t.calls).toEqual({ of: [["1"], ["2"]], inPages: [], extent: 1 });
});

it("a page's query that read a profile before its change keeps no old copy once the feed reported the change", async () => {
  // The page's query of user 12 (created after the store) reads the old name; the rename commits and the feed
  // reports it before that answer lands. The answer may serve its own page, but must not be kept for later ones.
  const renamed = new Map<string, string>();
  const cache = new DisplayCache();
  const t = table(10, renamed);
  await cache.displayOf(["1"], t.source);
  await cache.settled();
  t.grow(12);
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const page = cache.displayOf(["12"], {
    ...t.source,
    of: async (ids) => {
      const found = await t.source.of(ids);
      await gate;
      return found;
    },
  });
  renamed.set("12", "Renamed");
  cache.learn([{ id: 12, displayName: "Renamed", wallet: null }]);
  release();
  expect((await page).get("12")).toEqual(info(12));
  expect((await cache.displayOf(["12"], t.source)).get("12")).toEqual({
    displayName: "Renamed",
    wallet: null,
  });
});
