/** The display cache loads a page's missing users with the neighbours it is given, and asks for those only on a miss. */
import { expect, it } from "vitest";
import { DisplayCache, type DisplayInfo } from "./display-cache.js";

const info = (id: string): DisplayInfo => ({ displayName: `P${id}`, wallet: null });

it("loads the missing users with the neighbours not held yet, in one load, when most are missing", async () => {
  const cache = new DisplayCache();
  const loads: string[][] = [];
  const load = async (ids: string[]) => {
    loads.push(ids);
    return new Map(ids.map((id) => [id, info(id)]));
  };
  let asked = 0;
  const neighbours = async () => {
    asked++;
    return ["1", "2", "3", "4", "5"];
  };
  await cache.displayOf(["2"], load);
  const page = await cache.displayOf(["3", "6", "2"], load, neighbours);
  expect(loads).toEqual([["2"], ["3", "6", "1", "4", "5"]]);
  expect([...page]).toEqual([
    ["3", info("3")],
    ["6", info("6")],
    ["2", info("2")],
  ]);
  // A hit asks for nothing; one user missing of three is loaded alone.
  await cache.displayOf(["5", "1"], load, neighbours);
  await cache.displayOf(["7", "1", "2"], load, neighbours);
  expect(loads).toEqual([["2"], ["3", "6", "1", "4", "5"], ["7"]]);
  expect(asked).toBe(1);
});

it("answers every user of a page when another request forgets or clears entries while its load runs", async () => {
  // Replays a 500 of the 1,000,000-player bench: a page's held entries were cleared (the cache full) by another
  // request during this page's load, and the page's answer lacked them.
  const cache = new DisplayCache();
  await cache.displayOf(["1"], async (ids) => new Map(ids.map((id) => [id, info(id)])));
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const page = cache.displayOf(["1", "2"], async (ids) => {
    await gate;
    return new Map(ids.map((id) => [id, info(id)]));
  });
  cache.forget(["1"]);
  release();
  expect([...(await page)]).toEqual([
    ["1", info("1")],
    ["2", info("2")],
  ]);
});
