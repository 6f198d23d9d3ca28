/**
 * When a group commit starts its next group: at the next turn of the event loop after a quiet spell, COMMIT_DELAY_MS
 * later while items arrive densely (a group started less than DENSE_MS ago), so that the items of that wait share
 * the transaction. Timers and the clock are vitest's fake ones; the database is a stand-in that records each
 * transaction's items.
 */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { Db, Tx } from "./client.js";
import { COMMIT_DELAY_MS, DENSE_MS, GroupCommit } from "./group-commit.js";

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

it("while items arrive densely, the next group waits COMMIT_DELAY_MS and takes the items of that wait", async () => {
  const first = group.submit("a");
  await nextTurn();
  expect(await first).toBe("ok:a");
  await vi.advanceTimersByTimeAsync(DENSE_MS - COMMIT_DELAY_MS - 1); // still within DENSE_MS of a's group
  const answers = [group.submit("b")];
  await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS - 1);
  expect(groups).toEqual([["a"]]); // b waits
  answers.push(group.submit("c"));
  await vi.advanceTimersByTimeAsync(1);
  expect(groups).toEqual([["a"], ["b", "c"]]);
  expect(await Promise.all(answers)).toEqual(["ok:b", "ok:c"]);
});

it("an item DENSE_MS or more after the last group's start starts at once", async () => {
  await Promise.all([group.submit("a"), nextTurn()]);
  await vi.advanceTimersByTimeAsync(DENSE_MS);
  const b = group.submit("b");
  await nextTurn();
  expect(groups).toEqual([["a"], ["b"]]);
  expect(await b).toBe("ok:b");
});
