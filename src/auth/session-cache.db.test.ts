/**
 * The session cache behind `/api/competition/me` (resolveSessionUserId): a session it remembers is refused as
 * soon as it is revoked — through this instance, through another instance on the same database, or straight in
 * the database — and once it expires; live sessions cannot be deleted behind the feed's back.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { expectError } from "../../test/player-api.js";
import { SESSION_TTL_SECONDS } from "./session-token.js";

let a: TestApp;
/** A second instance (its own app, session cache and rank cache) on the same database. */
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({ database: a.database, now: a.clock.now() });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const me = (t: TestApp, cookie: string) =>
  call(t.app, { method: "GET", url: "/api/competition/me", headers: { cookie } });

const logout = (t: TestApp, cookie: string) =>
  call(t.app, { method: "POST", url: "/api/auth/logout", headers: { cookie } });

describe("cached sessions on /api/competition/me", () => {
  it("refuses a session logged out on the same instance", async () => {
    const { cookie } = await signIn(a, testKey(1));
    expect((await me(a, cookie)).status).toBe(200);
    expect((await me(a, cookie)).status).toBe(200); // served from the cache now
    expect((await logout(a, cookie)).status).toBe(200);
    const res = await me(a, cookie);
    expectError(res, 401, "UNAUTHENTICATED");
  });

  it("refuses, on instance B, a session B had cached once instance A logged it out", async () => {
    const { cookie } = await signIn(a, testKey(2));
    expect((await me(b, cookie)).status).toBe(200);
    expect((await me(b, cookie)).status).toBe(200);
    expect((await logout(a, cookie)).status).toBe(200);
    expect((await me(b, cookie)).status).toBe(401);
    expect((await me(a, cookie)).status).toBe(401);
  });

  it("refuses a cached session revoked straight in the database", async () => {
    const { cookie } = await signIn(a, testKey(3));
    const other = await signIn(a, testKey(4));
    expect((await me(a, cookie)).status).toBe(200);
    expect((await me(a, other.cookie)).status).toBe(200);
    const jti = JSON.parse(Buffer.from(cookie.split(".")[1]!, "base64url").toString()).jti as string;
    await a.database.db.execute(sql`update sessions set revoked_at = now() where id = ${jti}`);
    expect((await me(a, cookie)).status).toBe(401);
    expect((await me(b, cookie)).status).toBe(401);
    // Only that session: another user's cached session stays good.
    expect((await me(a, other.cookie)).status).toBe(200);
  });

  it("refuses a cached session once it has expired (the stored expiry, at the clock's now)", async () => {
    const { cookie } = await signIn(a, testKey(5));
    expect((await me(a, cookie)).status).toBe(200);
    const start = a.clock.now();
    try {
      a.clock.set(new Date(start.getTime() + SESSION_TTL_SECONDS * 1000 - 1000));
      expect((await me(a, cookie)).status).toBe(200);
      a.clock.set(new Date(start.getTime() + SESSION_TTL_SECONDS * 1000 + 1000));
      expect((await me(a, cookie)).status).toBe(401);
    } finally {
      a.clock.set(start);
    }
  });

  it("refuses to delete an unexpired session, revoked or not (the feed could not see it go)", async () => {
    const { cookie } = await signIn(a, testKey(6));
    const jti = JSON.parse(Buffer.from(cookie.split(".")[1]!, "base64url").toString()).jti as string;
    // The stored expiry is the test clock's instant (fixed, 2026-11-20) plus the session's lifetime, and the guard
    // compares it with the database's own now(): put it a day past that, whatever day the suite runs on (it had
    // expired in the database's time from 2026-11-27 12:00 UTC, and the delete went through).
    await a.database.db.execute(
      sql`update sessions set expires_at = now() + interval '1 day' where id = ${jti}`,
    );
    const remove = () => a.database.db.execute(sql`delete from sessions where id = ${jti}`);
    await expect(remove()).rejects.toThrow();
    expect((await me(a, cookie)).status).toBe(200);
    expect((await logout(a, cookie)).status).toBe(200);
    await expect(remove()).rejects.toThrow();
    expect((await me(a, cookie)).status).toBe(401);
    // Once expired (in the database's time) it may go.
    await a.database.db.execute(
      sql`update sessions set expires_at = now() - interval '1 second' where id = ${jti}`,
    );
    await remove();
    expect((await me(a, cookie)).status).toBe(401);
  });
});
