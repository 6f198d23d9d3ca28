/**
 * The display cache: a store of every user loaded once (in keyset pages) when a page first misses, the users
 * created or changed since loaded one query per page, and a profile change never shown from memory again.
 */
import { expect, it } from "vitest";
import { DisplayCache, type DisplayInfo, type DisplaySource } from "./display-cache.js";

const info = (id: string | number): DisplayInfo => ({ displayName: `P${id}`, wallet: null });

/** A table of users 1..n (names `P<id>`), counting the source's queries; `renamed` users answer a new name. */
function table(n: number, renamed = new Map<string, string>()) {
  const calls = { of: [] as string[][], after: [] as number[], extent: 0 };
  const shown = (id: string): DisplayInfo => ({ displayName: renamed.get(id) ?? `P${id}`, wallet: null });
  const source: DisplaySource = {
    of: async (ids) => {
      calls.of.push(ids);
      return new Map(ids.filter((id) => Number(id) <= n).map((id) => [id, shown(id)]));
    },
    after: async (afterId, limit) => {
      calls.after.push(afterId);
      const page = [];
      for (let id = afterId + 1; id <= Math.min(n, afterId + limit); id++)
        page.push({ id, ...shown(String(id)) });
      return page;
    },
    extent: async () => {
      calls.extent++;
      return { users: n, nameBytes: 8 * n };
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

it("loads every user once in pages of 20,000 on the first miss; later pages anywhere need no query", async () => {
  const cache = new DisplayCache();
  const t = table(45_000);
  const first = await cache.displayOf(["3", "44999", "2"], t.source);
  expect([...first]).toEqual([
    ["3", info(3)],
    ["44999", info(44999)],
    ["2", info(2)],
  ]);
  expect(t.calls).toEqual({ of: [], after: [0, 20_000, 40_000], extent: 1 });
  await cache.displayOf(["45000", "1", "30000"], t.source);
  expect(t.calls).toEqual({ of: [], after: [0, 20_000, 40_000], extent: 1 });
});

it("loads a user created after the store in one query for the page, then holds it", async () => {
  const cache = new DisplayCache();
  const t = table(10);
  await cache.displayOf(["1"], t.source);
  t.grow(12);
  expect([...(await cache.displayOf(["11", "2", "12"], t.source))]).toEqual([
    ["11", info(11)],
    ["2", info(2)],
    ["12", info(12)],
  ]);
  await cache.displayOf(["12", "11"], t.source);
  expect(t.calls.of).toEqual([["11", "12"]]);
});

it("shows a changed profile's new name once the feed reports it", async () => {
  const renamed = new Map<string, string>();
  const cache = new DisplayCache();
  const t = table(10, renamed);
  await cache.displayOf(["4"], t.source);
  renamed.set("4", "Renamed");
  expect((await cache.displayOf(["4"], t.source)).get("4")).toEqual(info(4));
  cache.forget(["4"]);
  expect((await cache.displayOf(["4", "5"], t.source)).get("4")).toEqual({
    displayName: "Renamed",
    wallet: null,
  });
  expect(t.calls.of).toEqual([["4"]]);
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
  const after = t.source.after;
  const slow: DisplaySource = {
    ...t.source,
    after: async (afterId, limit) => {
      const page = await after(afterId, limit);
      await gate;
      return page;
    },
  };
  const first = cache.displayOf(["1"], slow);
  await new Promise((r) => setImmediate(r));
  renamed.set("3", "Renamed");
  cache.forget(["3"]);
  release();
  await first;
  expect((await cache.displayOf(["3"], t.source)).get("3")).toEqual({ displayName: "Renamed", wallet: null });
});

it("answers every user of a page when another request forgets or clears entries while its load runs", async () => {
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
  cache.forget(["1"]);
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
  expect(t.calls).toEqual({ of: [["1", "2"], ["3"]], after: [], extent: 1 });
});

it("a failed load leaves the pages to their queries, and is not tried again at once", async () => {
  const cache = new DisplayCache();
  const t = table(10);
  const failing: DisplaySource = {
    ...t.source,
    after: async () => {
      throw new Error("statement timeout");
    },
  };
  expect((await cache.displayOf(["1"], failing)).get("1")).toEqual(info(1));
  expect((await cache.displayOf(["2"], failing)).get("2")).toEqual(info(2));
  expect(t.calls).toEqual({ of: [["1"], ["2"]], after: [], extent: 1 });
});
