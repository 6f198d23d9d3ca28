/**
 * Every call of the web app's API client is bounded: a server that stops answering (before its headers, or in the
 * middle of its body) ends the call with a TIMEOUT error after REQUEST_TIMEOUT_MS instead of leaving the page
 * waiting forever. On the code before, fetch was given no signal, so such a call never settled.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, api, REQUEST_TIMEOUT_MS } from "./api.js";

/** The bound each call asked for, and a way to make it fire now (as 20 s of silence would). */
function controllableTimeout() {
  const asked: number[] = [];
  let controller = new AbortController();
  vi.spyOn(AbortSignal, "timeout").mockImplementation((ms: number) => {
    asked.push(ms);
    controller = new AbortController();
    return controller.signal;
  });
  return { asked, fire: () => controller.abort(new DOMException("signal timed out", "TimeoutError")) };
}

/** Rejects with the signal's reason once it aborts; a call without a signal can never end, so it fails at once. */
function untilAborted(signal: AbortSignal | null | undefined): Promise<never> {
  if (!signal) return Promise.reject(new TypeError("fetch called without a signal: it could wait forever"));
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
}

async function failure(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("the API client's bound on a call", () => {
  it("a server that never answers: TIMEOUT after REQUEST_TIMEOUT_MS", async () => {
    const timeout = controllableTimeout();
    vi.stubGlobal("fetch", (_url: string, init: RequestInit) => untilAborted(init.signal));
    const call = failure(api.meta());
    await vi.waitFor(() => expect(timeout.asked).toEqual([20_000]));
    timeout.fire();
    const err = await call;
    expect({ status: err.status, code: err.code, message: err.message }).toEqual({
      status: 0,
      code: "TIMEOUT",
      message: "The server did not answer within 20 s. Check your connection and try again.",
    });
    expect(REQUEST_TIMEOUT_MS).toBe(20_000);
  });

  it("a body that stops halfway: TIMEOUT too, the same bound covering the body", async () => {
    const timeout = controllableTimeout();
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      const signal = init.signal;
      if (!signal) throw new TypeError("fetch called without a signal");
      // Headers arrive with part of the body; the rest never comes, and the stream fails when the signal aborts.
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"success":true,"data":{"now":'));
          signal.addEventListener("abort", () => c.error(signal.reason));
        },
      });
      return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
    });
    const call = failure(api.meta());
    await vi.waitFor(() => expect(timeout.asked).toHaveLength(1));
    timeout.fire();
    expect((await call).code).toBe("TIMEOUT");
  });

  it("a connection refused is still NETWORK, and a whole answer comes through as before", async () => {
    controllableTimeout();
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("fetch failed");
    });
    expect((await failure(api.meta())).code).toBe("NETWORK");
    vi.stubGlobal(
      "fetch",
      async () => new Response('{"success":true,"data":{"user":null}}', { status: 200 }),
    );
    expect(await api.session()).toEqual({ user: null });
  });
});
