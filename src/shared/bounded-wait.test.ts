import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { within, withTimeout } from "./bounded-wait.js";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const never = new Promise<number>(() => {});

describe("within", () => {
  it("gives the value when it comes first, and leaves no timer", async () => {
    expect(await within(Promise.resolve(7), 1000)).toBe(7);
    expect(vi.getTimerCount()).toBe(0);
  });
  it("gives null once the bound passes, and leaves no timer", async () => {
    const waited = within(never, 1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waited).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
  it("passes the wait's own failure on, and leaves no timer", async () => {
    await expect(within(Promise.reject(new Error("refused")), 1000)).rejects.toThrow("refused");
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("withTimeout", () => {
  it("gives the value when it comes first, and leaves no timer", async () => {
    expect(await withTimeout(Promise.resolve("ok"), 1000, "slow")).toBe("ok");
    expect(vi.getTimerCount()).toBe(0);
  });
  it("rejects with the given message once the bound passes", async () => {
    const waited = withTimeout(never, 3000, "balanceOf timed out");
    const failed = expect(waited).rejects.toThrow("balanceOf timed out");
    await vi.advanceTimersByTimeAsync(3000);
    await failed;
    expect(vi.getTimerCount()).toBe(0);
  });
  it("passes the wait's own failure on, and leaves no timer", async () => {
    await expect(withTimeout(Promise.reject(new Error("node down")), 1000)).rejects.toThrow("node down");
    expect(vi.getTimerCount()).toBe(0);
  });
});
