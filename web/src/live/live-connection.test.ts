import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, type LiveState, openLiveConnection } from "./live-connection";

/** A stand-in for the browser's EventSource: the test opens, fails and feeds it. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static all: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  constructor(readonly url: string) {
    super();
    FakeEventSource.all.push(this);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event("open"));
  }
  /** A failure: the browser retries by itself (CONNECTING) unless `fatal` (an answer that is not a stream). */
  fail(fatal = false) {
    this.readyState = fatal ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.dispatchEvent(new Event("error"));
  }
  send(name: string, data: string, id: string) {
    this.dispatchEvent(new MessageEvent(name, { data, lastEventId: id }));
  }
}

describe("the live stream's connection", () => {
  let states: LiveState[];
  let opens: { first: boolean; resumed: boolean }[];
  let messages: string[];
  let close: () => void;
  const latest = () => FakeEventSource.all.at(-1)!;
  const start = (lastEvent?: { id: string | null }) =>
    openLiveConnection({
      url: "/api/stream",
      events: ["odds", "balance"],
      onMessage: (name, data) => messages.push(`${name} ${data}`),
      onState: (s) => states.push(s),
      onOpen: (info) => opens.push(info),
      EventSourceImpl: FakeEventSource as unknown as typeof EventSource,
      random: () => 1,
      lastEvent,
    });

  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.all = [];
    states = [];
    opens = [];
    messages = [];
  });
  afterEach(() => {
    close?.();
    vi.useRealTimers();
  });

  it("backs off 1 s, 2 s, 4 s … at most 30 s, randomised down to half", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffDelay(n, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(backoffDelay(2, () => 0)).toBe(2000);
  });

  it("opens one stream, passes its messages on, and says offline only after 1.5 s down", () => {
    close = start();
    expect(FakeEventSource.all.map((e) => e.url)).toEqual(["/api/stream"]);
    latest().open();
    latest().send("odds", '{"eventId":"e1"}', "41");
    expect(messages).toEqual(['odds {"eventId":"e1"}']);
    expect(opens).toEqual([{ first: true, resumed: false }]);

    // Dropped; the browser's own retry succeeds within a second: no banner.
    latest().fail();
    vi.advanceTimersByTime(1000);
    latest().open();
    expect(states).toEqual(["connecting", "open"]);
    expect(opens.at(-1)).toEqual({ first: false, resumed: true });

    // Dropped for longer: offline after 1.5 s, open again when it recovers.
    latest().fail();
    vi.advanceTimersByTime(1499);
    expect(states.at(-1)).toBe("open");
    vi.advanceTimersByTime(1);
    expect(states.at(-1)).toBe("offline");
    latest().open();
    expect(states).toEqual(["connecting", "open", "offline", "open"]);
    expect(FakeEventSource.all).toHaveLength(1);
  });

  it("takes over with a new EventSource after a backoff when the browser's retry fails, resuming from the last id", () => {
    close = start();
    latest().open();
    latest().send("balance", '{"credits":5}', "41");
    latest().fail(); // the browser retries once by itself…
    latest().fail(); // …and fails: closed, a new one after 1 s
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
    vi.advanceTimersByTime(999);
    expect(FakeEventSource.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.all).toHaveLength(2);
    expect(latest().url).toBe("/api/stream?lastEventId=41");
    latest().fail(); // refused again: 2 s
    vi.advanceTimersByTime(1999);
    expect(FakeEventSource.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.all).toHaveLength(3);
    latest().open();
    expect(opens.at(-1)).toEqual({ first: false, resumed: true });
    expect(states).toEqual(["connecting", "open", "offline", "open"]);
    // Back to the shortest wait after a success.
    latest().fail(true);
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.all).toHaveLength(4);
  });

  it("refetches (resumed: false) when a new connection has no event to resume from", () => {
    close = start();
    latest().open();
    latest().fail(true); // 503: closed for good by the browser
    vi.advanceTimersByTime(1000);
    expect(latest().url).toBe("/api/stream");
    latest().open();
    expect(opens).toEqual([
      { first: true, resumed: false },
      { first: false, resumed: false },
    ]);
  });

  it("refetches (resumed: false) when the browser's own retry has no event id to send", () => {
    // Before: any reopening of the same EventSource counted as resumed, although with no event received it sends
    // no Last-Event-ID and the server starts it afresh: what changed during the outage never reached the page.
    close = start();
    latest().open();
    latest().fail(); // the browser retries by itself
    latest().open();
    expect(FakeEventSource.all).toHaveLength(1);
    expect(opens).toEqual([
      { first: true, resumed: false },
      { first: false, resumed: false },
    ]);
    // With an event received, its id goes along with the browser's next retry: resumed.
    latest().send("odds", '{"eventId":"e1"}', "7");
    latest().fail();
    latest().open();
    expect(opens.at(-1)).toEqual({ first: false, resumed: true });
  });

  it("resumes from the id kept by the previous connection (a sign-in), and stops everything when closed", () => {
    const last = { id: null as string | null };
    const closeFirst = start(last);
    latest().open();
    latest().send("odds", "{}", "97");
    closeFirst();
    expect(latest().readyState).toBe(FakeEventSource.CLOSED);
    close = start(last);
    expect(latest().url).toBe("/api/stream?lastEventId=97");
    close();
    latest().fail(true);
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.all).toHaveLength(2);
  });
});
