/**
 * Issue 11, case 7: a SIWE message for another origin, or issued in the future, is refused; a cookie write with no
 * Origin but `Sec-Fetch-Site: cross-site` is refused 403.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, createTestApp, signedSiwe, signIn, type TestApp, testKey } from "../../test/app.js";
import { expectError } from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
});
afterAll(async () => t.close());

async function walletSignIn(over: { uri?: string; issuedAt?: Date }) {
  const { body, cookie } = await signedSiwe(t, testKey(7), {
    uri: "http://localhost:3000",
    issuedAt: NOW,
    ...over,
  });
  return call(t.app, { method: "POST", url: "/api/auth/wallet", payload: body, headers: { cookie } });
}

it("refuses a message whose uri is another origin", async () => {
  const res = await walletSignIn({ uri: "https://evil.example/login" });
  expectError(res, 401, "UNAUTHENTICATED");
  expect(res.body.error).toBe(
    "Sign-in refused: uri https://evil.example/login is not an origin of this service",
  );
});

it("refuses an issuedAt beyond 60 s in the future, and accepts one within", async () => {
  const res = await walletSignIn({ issuedAt: new Date("2099-01-01T00:00:00.000Z") });
  expectError(res, 401, "UNAUTHENTICATED");
  expect(res.body.error).toBe("Sign-in refused: message issued in the future");
  expect((await walletSignIn({ issuedAt: new Date(NOW.getTime() + 30_000) })).status).toBe(200);
});

it("refuses a cookie write marked Sec-Fetch-Site: cross-site with no Origin", async () => {
  const { cookie } = await signIn(t, testKey(8));
  const cross = await call(t.app, {
    method: "POST",
    url: "/api/reclaim",
    headers: { cookie, "sec-fetch-site": "cross-site" },
  });
  expectError(cross, 403, "FORBIDDEN");
  const same = await call(t.app, {
    method: "POST",
    url: "/api/reclaim",
    headers: { cookie, "sec-fetch-site": "same-origin" },
  });
  expect(same.status).not.toBe(403);
});
