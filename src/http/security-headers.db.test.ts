/** Issue 11, case 7: security headers on the page and the API; HSTS in production only. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp, testConfig } from "../../test/app.js";
import { createTestDatabase, releaseTestDatabase } from "../../test/db.js";
import { buildApp } from "../app.js";
import { AdjustableClock } from "../clock.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

it("sends CSP, frame-ancestors 'none', Referrer-Policy and nosniff on the API and the page, no HSTS in development", async () => {
  for (const url of ["/api/competition/meta", "/", "/api/nope"]) {
    const res = await t.app.inject({ method: "GET", url });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  }
});

it("sends HSTS in production", async () => {
  const database = await createTestDatabase();
  const config = {
    ...testConfig(),
    env: "production" as const,
  };
  const app = await buildApp({ config, database, clock: new AdjustableClock() });
  const res = await app.inject({ method: "GET", url: "/healthz" });
  expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  await app.close();
  await releaseTestDatabase(database);
});
