/**
 * The PostgreSQL leader lock on a connection that died without a word (a NAT or firewall that forgot it: no RST,
 * no FIN). Before its statements had a timeout, the next `acquire` waited for ever, and so did the job run that
 * called it: the job (auto-finalize, an indexer) never ran again on that instance.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createScratchPostgres, testEngine } from "../../test/db.js";
import { sleep } from "../../test/drills/server-process.js";
import { proxyTo } from "../../test/tcp-proxy.js";
import { postgresLeaderLock } from "./leader-lock.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** How a promise settled within `ms`: "true"/"false", "failed: <message>", or that it was still waiting. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([
    p.then(String, (err: Error) => `failed: ${err.message}`),
    sleep(ms).then(() => `still waiting after ${ms} ms`),
  ]);

describe.skipIf(testEngine !== "postgres")("the PostgreSQL leader lock", () => {
  it("gives a silently dead connection up within its query timeout, and takes the lock again once it is free", async () => {
    const scratch = await createScratchPostgres();
    cleanups.push(scratch.drop);
    const { proxy, url } = await proxyTo(scratch.url, 5432);
    cleanups.push(() => proxy.close());
    const lock = postgresLeaderLock(url, 727_999, { queryTimeoutMs: 1000 });
    cleanups.push(() => lock.release());

    expect(await lock.acquire()).toBe(true);
    proxy.dropSilently();
    const started = performance.now();
    expect(await within(lock.acquire(), 4000)).toBe("failed: Query read timeout");
    expect(performance.now() - started).toBeLessThan(3000);

    // The server still holds the lock for the dead session (it has not noticed either): not taken twice.
    expect(await within(lock.acquire(), 3000)).toBe("false");
    // Once that session is gone (here its socket reset), the lock is taken again on a new connection.
    // The reset also cuts the lock's current connection: an acquire may fail once on it, then connects again.
    proxy.reset();
    let taken = "";
    const until = performance.now() + 5000;
    while (taken !== "true" && performance.now() < until) {
      taken = await within(lock.acquire(), 3000);
      if (taken !== "true") await sleep(100);
    }
    expect(taken).toBe("true");
  });
});
