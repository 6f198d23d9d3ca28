import { QueryClient, QueryObserver } from "@tanstack/query-core";
import { afterEach, describe, expect, it } from "vitest";
import { refetchAfterChange, writeChange } from "./cache-writes";

/**
 * A server whose answers the test releases one by one: each request is answered with the state the server held
 * when the request was READ (as a real server reads before a later write commits), when the test says so.
 */
function slowServer<T>(initial: T) {
  let state = initial;
  const pending: Array<{ body: T; release: () => void }> = [];
  return {
    set: (next: T) => {
      state = next;
    },
    requests: () => pending.length,
    load: () =>
      new Promise<T>((resolve) => {
        const body = state;
        pending.push({ body, release: () => resolve(body) });
      }),
    /** Answers request `i` (0-based, in the order they were made). */
    answer: async (i: number) => {
      pending[i]!.release();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe("a change the stream reports, written into the data cache", () => {
  let client: QueryClient;
  /** What the stream does with an `odds` message for event e1: the new price written into `["event", "e1"]`. */
  const streamOdds = (odds: number) =>
    writeChange<{ odds: number }>(client, { queryKey: ["event", "e1"], exact: true }, (ev) =>
      ev ? { ...ev, odds } : ev,
    );
  const unsubscribe: Array<() => void> = [];
  const newClient = () =>
    new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5_000 } } });
  /** A component showing `key` (an active query), loading it from `load`. */
  const show = <T>(key: unknown[], load: () => Promise<T>) => {
    const observer = new QueryObserver<T>(client, { queryKey: key, queryFn: load });
    unsubscribe.push(observer.subscribe(() => {}));
    return observer;
  };
  afterEach(() => {
    for (const stop of unsubscribe.splice(0)) stop();
    client.clear();
  });

  it("stays when the first load, requested before the change, answers after it (the open slip's lost price)", async () => {
    client = newClient();
    const server = slowServer({ odds: 3.1 });
    show(["event", "e1"], server.load); // the slip line's event, loading
    expect(server.requests()).toBe(1);

    server.set({ odds: 3.3 }); // the admin's PUT commits; the stream then says 3.30
    streamOdds(3.3);
    await server.answer(0); // the load read before the PUT answers 3.10

    // The change is written onto that answer, and the page asks again: that answer holds the change.
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.3 });
    expect(server.requests()).toBe(2);
    await server.answer(1);
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.3 });
  });

  it("stays when a refetch in flight answers after it, and shows at once", async () => {
    client = newClient();
    const server = slowServer({ odds: 3.1 });
    const observer = show(["event", "e1"], server.load);
    await server.answer(0);
    void observer.refetch(); // the window came back into view
    expect(server.requests()).toBe(2);

    server.set({ odds: 3.3 });
    streamOdds(3.3);
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.3 });
    await server.answer(1); // read before the change: 3.10
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.3 });
    expect(server.requests()).toBe(3);
    await server.answer(2);
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.3 });
  });

  it("shows every answer under changes faster than the answers, and asks again once per answer", async () => {
    client = newClient();
    const server = slowServer({ odds: 3.1 });
    show(["event", "e1"], server.load); // a first load, slower than the changes
    for (const odds of [3.2, 3.3, 3.4]) {
      server.set({ odds });
      streamOdds(odds);
      await settled();
    }
    expect(server.requests()).toBe(1); // the load in flight was not cancelled
    await server.answer(0);
    // Shown at once, with the last change written onto it; one new request for the three changes.
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.4 });
    expect(server.requests()).toBe(2);
    server.set({ odds: 3.5 });
    streamOdds(3.5);
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.5 });
    await server.answer(1); // read at 3.40, before the last change
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.5 });
    expect(server.requests()).toBe(3);
    await server.answer(2);
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.5 });
  });

  it("is written in place without a request when nothing is in flight, in every list page holding it", async () => {
    client = newClient();
    const server = slowServer({ odds: 3.1 });
    show(["event", "e1"], server.load);
    await server.answer(0);
    client.setQueryData(["events", "page", 0], { items: [{ id: "e1", odds: 3.1 }] });
    client.setQueryData(["events", "page", 1], { items: [{ id: "e2", odds: 2.0 }] });

    streamOdds(3.3);
    type Page = { items: { id: string; odds: number }[] };
    writeChange<Page>(client, { queryKey: ["events"] }, (page) =>
      page ? { items: page.items.map((e) => (e.id === "e1" ? { ...e, odds: 3.3 } : e)) } : page,
    );
    await settled();
    expect(server.requests()).toBe(1);
    expect(client.getQueryData(["event", "e1"])).toEqual({ odds: 3.3 });
    expect(client.getQueryData(["events", "page", 0])).toEqual({ items: [{ id: "e1", odds: 3.3 }] });
    expect(client.getQueryData(["events", "page", 1])).toEqual({ items: [{ id: "e2", odds: 2.0 }] });
  });

  it("refetches a player's data whose first load was in flight when the change came (a balance)", async () => {
    client = newClient();
    const server = slowServer({ credits: 1000 });
    show(["player", "7", "balance"], server.load);
    server.set({ credits: 900 }); // a bet placed in another tab
    const done = refetchAfterChange(client, ["player", "7"]);
    await server.answer(0); // read before the bet: 1,000
    expect(server.requests()).toBe(2);
    await server.answer(1);
    await done;
    expect(client.getQueryData(["player", "7", "balance"])).toEqual({ credits: 900 });
  });

  it("lets a fetch no component shows finish for its caller, then marks it stale for the next viewer", async () => {
    client = newClient();
    const server = slowServer({ items: ["a"] });
    const fetched = client.fetchQuery({ queryKey: ["player", "7", "latest"], queryFn: server.load });
    server.set({ items: ["a", "b"] });
    void refetchAfterChange(client, ["player", "7"]);
    await server.answer(0);
    // The caller (e.g. a toast naming the bet) gets the answer it asked for, not a cancellation.
    await expect(fetched).resolves.toEqual({ items: ["a"] });
    await settled();
    expect(client.getQueryState(["player", "7", "latest"])?.isInvalidated).toBe(true);
    expect(server.requests()).toBe(1);
  });
});
