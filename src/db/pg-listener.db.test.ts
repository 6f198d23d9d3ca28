/**
 * The LISTEN connection after it died without a word (a NAT or firewall that forgot it: no RST, no FIN). Before the
 * heartbeat it delivered nothing and reported nothing, for ever: every later notification was lost (the live
 * stream fell back to its poll).
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createScratchPostgres, testEngine } from "../../test/db.js";
import { sleep } from "../../test/drills/server-process.js";
import { proxyTo } from "../../test/tcp-proxy.js";
import { listenPostgres } from "./pg-listener.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

/** Resolves true once `cond` holds (checked every 50 ms), false after `ms`. */
async function eventually(cond: () => boolean, ms: number): Promise<boolean> {
  for (const until = performance.now() + ms; performance.now() < until; await sleep(50))
    if (cond()) return true;
  return cond();
}

describe.skipIf(testEngine !== "postgres")("the PostgreSQL listener", () => {
  it("reopens a connection that stopped answering and hears the notifications sent after", async () => {
    const scratch = await createScratchPostgres();
    cleanups.push(scratch.drop);
    const { proxy, url } = await proxyTo(scratch.url, 5432);
    cleanups.push(() => proxy.close());
    const notifier = new pg.Client({ connectionString: scratch.url });
    await notifier.connect();
    cleanups.push(() => notifier.end());
    const notify = () => notifier.query("select pg_notify('listener_test', 'x')");

    let heard = 0;
    const listener = listenPostgres(url, "listener_test", () => heard++, {
      heartbeatMs: 200,
      queryTimeoutMs: 1000,
      connectTimeoutMs: 1000,
    });
    cleanups.push(() => listener.close());
    // Called once when the LISTEN is in place, then once per notification.
    expect(await eventually(() => heard === 1, 3000)).toBe(true);
    await notify();
    expect(await eventually(() => heard === 2, 2000)).toBe(true);

    proxy.dropSilently();
    await notify();
    await sleep(300);
    expect(heard).toBe(2);
    // Heartbeat unanswered (200 + 1,000 ms), reconnection after 1 s: called again once listening.
    expect(await eventually(() => heard === 3, 6000)).toBe(true);
    await notify();
    expect(await eventually(() => heard === 4, 2000)).toBe(true);

    // Closing does not wait on the dead connection's goodbye: it was already replaced; the new one ends at once.
    const started = performance.now();
    await listener.close();
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
