/**
 * Property-based fuzz over every route of the OpenAPI document (/docs/json): requests whose path parameters, query
 * and body are built from each operation's own schemas, mixed with hostile values (test/fuzz-requests.ts).
 * Property: never a 5xx, and every 4xx is the error envelope with its status. Each response is also checked
 * against the document (test/app.ts `call`). Fixed seed, bounded runs. `npm run drill` sends the same requests
 * to real server processes.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, signIn, type TestApp, testKey } from "../../test/app.js";
import { type Operation, operationsOf, requestOf, urlOf } from "../../test/fuzz-requests.js";
import { putEvent } from "../../test/player-api.js";

let t: TestApp;
let cookie: string;
let operations: Operation[];
beforeAll(async () => {
  t = await createTestApp({ env: { CHAIN_VERIFIER: "trust" } });
  cookie = (await signIn(t, testKey(1))).cookie;
  await putEvent(t, "ev-1");
  const doc = (await call(t.app, { method: "GET", url: "/docs/json" })).body;
  operations = operationsOf(doc);
});
afterAll(async () => t.close());

it("no route answers a 5xx, and every 4xx is the error envelope", async () => {
  expect(operations.length).toBeGreaterThan(30);
  const seen = new Map<string, number>();
  for (const [i, op] of operations.entries()) {
    if (op.path.startsWith("/docs")) continue;
    await fc.assert(
      fc.asyncProperty(requestOf(op), async (r) => {
        const url = urlOf(op, r);
        const headers: Record<string, string> =
          r.auth === "cookie"
            ? { cookie }
            : r.auth === "admin"
              ? ADMIN
              : r.auth === "finalize"
                ? FINALIZE
                : {};
        const res = await call(t.app, {
          method: op.method as "GET",
          url,
          headers,
          ...(r.body === undefined
            ? {}
            : {
                payload: JSON.stringify(r.body),
                headers: { ...headers, "content-type": "application/json" },
              }),
        });
        seen.set(`${op.method} ${op.path} ${res.status}`, 1);
        expect(
          res.status,
          `${op.method} ${url} ${JSON.stringify(r.body)?.slice(0, 300)} → ${JSON.stringify(res.body)}`,
        ).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.body).toMatchObject({ success: false, status: res.status, code: expect.any(String) });
          expect(typeof res.body.error).toBe("string");
        }
      }),
      { seed: 1100 + i, numRuns: 80, endOnFailure: true },
    );
  }
  expect(seen.size).toBeGreaterThan(operations.length);
});
