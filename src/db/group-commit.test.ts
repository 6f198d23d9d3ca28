/**
 * When a group commit starts its next group: at the next turn of the event loop after a quiet spell, COMMIT_DELAY_MS
 * later while items arrive densely (the last group started less than DENSE_MS ago), so that the items of that wait
 * share the transaction; and without waiting for NO_WAIT_MS after USELESS_WAITS waits in a row that gathered no
 * other item. Timers and the clock are vitest's fake ones; the database is a stand-in that records each
 * transaction's items.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { Db, Tx } from "./client.js";
import { COMMIT_DELAY_MS, DENSE_MS, GroupCommit, NO_WAIT_MS, USELESS_WAITS } from "./group-commit.js";

let groups: string[][];
let group: GroupCommit<string, string>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "setImmediate", "performance"] });
  groups = [];
  const db = { transaction: async (fn: (tx: Tx) => Promise<unknown>) => fn({} as Tx) } as unknown as Db;
  group = new GroupCommit(
    db,
    async (_tx, items) => {
      groups.push(items);
      return items.map((i) => `ok:${i}`);
    },
    { maxItems: 100, maxInFlight: 1 },
  );
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs the immediates and promise jobs queued now, without moving the clock. */
const nextTurn = () => vi.advanceTimersByTimeAsync(0);

it("after a quiet spell, starts at the next turn with the items submitted in the same turn", async () => {
  const answers = Promise.all([group.submit("a"), group.submit("b")]);
  await nextTurn();
  expect(groups).toEqual([["a", "b"]]);
  expect(await answers).toEqual(["ok:a", "ok:b"]);
});

it("while several writers send densely, the next group waits COMMIT_DELAY_MS and takes the items of that wait", async () => {
  await Promise.all([group.submit("a1"), group.submit("a2"), nextTurn()]); // two writers: one group of two
  await vi.advanceTimersByTimeAsync(DENSE_MS - COMMIT_DELAY_MS - 1); // still within DENSE_MS of that group
  const answers = [group.submit("b")];
  await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS - 1);
  expect(groups).toEqual([["a1", "a2"]]); // b waits
  answers.push(group.submit("c"));
  await vi.advanceTimersByTimeAsync(1);
  expect(groups).toEqual([
    ["a1", "a2"],
    ["b", "c"],
  ]);
  expect(await Promise.all(answers)).toEqual(["ok:b", "ok:c"]);
});

it("one writer sending one item at a time waits USELESS_WAITS times, then not for NO_WAIT_MS", async () => {
  /** Submits `item` 1 ms after the last answer; resolves to whether it started at once (not after a wait). */
  const send = async (item: string) => {
    await vi.advanceTimersByTimeAsync(1);
    const answer = group.submit(item);
    await nextTurn();
    const atOnce = groups.at(-1)?.[0] === item;
    if (!atOnce) await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS);
    expect(await answer).toBe(`ok:${item}`);
    return atOnce;
  };
  expect(await send("a")).toBe(true); // after a quiet spell
  for (let i = 0; i < USELESS_WAITS; i++) expect(await send(`w${i}`)).toBe(false); // dense: waits, alone
  const lastGroup = performance.now(); // the last waited group started now
  let n = 0;
  while (performance.now() + 1 < lastGroup + NO_WAIT_MS) expect(await send(`c${n++}`)).toBe(true);
  expect(n).toBeGreaterThan(30);
  expect(await send("d")).toBe(false); // the wait is tried again
  expect(groups.every((g) => g.length === 1)).toBe(true);
});

it("an item DENSE_MS or more after the last group's start starts at once", async () => {
  await Promise.all([group.submit("a1"), group.submit("a2"), nextTurn()]);
  await vi.advanceTimersByTimeAsync(DENSE_MS);
  const b = group.submit("b");
  await nextTurn();
  expect(groups).toEqual([["a1", "a2"], ["b"]]);
  expect(await b).toBe("ok:b");
});
