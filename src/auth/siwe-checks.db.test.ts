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

async function walletSignIn(over: { uri?: string; issuedAt?: Date; edit?: (message: string) => string }) {
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

it("refuses a uri that is not http(s) with 401, not a 500", async () => {
  // Before: `new URL("foo://bar").origin` is the string "null", and `new URL("null")` threw: a 500 for anyone
  // holding a fresh nonce, before the signature was checked.
  for (const uri of ["foo://bar", "urn:x:y", "javascript:alert(1)", "ws://localhost:3000"]) {
    const res = await walletSignIn({ uri });
    expectError(res, 401, "UNAUTHENTICATED");
    expect(res.body.error).toBe(`Sign-in refused: uri ${uri} is not an origin of this service`);
  }
});

it("refuses an Issued At that is not a time (400), which skipped the check of a time in the future", async () => {
  // Before: accepted, 200 (viem parses it to an invalid Date, and NaN is never later than now).
  const res = await walletSignIn({
    edit: (m) => m.replace(/^Issued At: .*$/m, "Issued At: 9999-99-99 whenever"),
  });
  expectError(res, 400, "VALIDATION_FAILED");
  expect(res.body.details).toEqual([
    { field: "body.message", message: "must be a Sign-In with Ethereum message" },
  ]);
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
