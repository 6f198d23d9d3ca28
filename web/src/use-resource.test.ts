import { afterEach, describe, expect, it } from "vitest";
import { fetchesSettled, queryClient } from "./use-resource";

/** A load the test answers when it wants. */
function held() {
  let answer!: () => void;
  const promise = new Promise<string>((resolve) => {
    answer = () => resolve("answered");
  });
  return { load: () => promise, answer };
}

/** Whether `p` has resolved after the pending callbacks ran. */
async function resolved(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise((r) => setTimeout(r, 10));
  return done;
}

afterEach(() => queryClient.clear());

describe("fetchesSettled (what sign-out waits for)", () => {
  it("waits for the player's reads on their way, not for other reads", async () => {
    const me = held();
    const ladder = held();
    void queryClient.fetchQuery({ queryKey: ["player", 5, "me", 1], queryFn: me.load });
    void queryClient.fetchQuery({ queryKey: ["ladder", 1], queryFn: ladder.load });
    const settled = fetchesSettled(["player"], 5000);
    expect(await resolved(settled)).toBe(false);
    me.answer();
    expect(await resolved(settled)).toBe(true);
    ladder.answer();
  });

  it("resolves at once when nothing of the player's is on its way", async () => {
    expect(await resolved(fetchesSettled(["player"], 5000))).toBe(true);
  });

  it("gives up waiting after its bound", async () => {
    const me = held();
    void queryClient.fetchQuery({ queryKey: ["player", 5, "me", 1], queryFn: me.load });
    const settled = fetchesSettled(["player"], 50);
    expect(await resolved(settled)).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(await resolved(settled)).toBe(true);
    me.answer();
  });
});
