/**
 * Property-based fuzz over every route of the OpenAPI document (/docs/json): requests whose path parameters, query
 * and body are built from each operation's own schemas, mixed with hostile values (NUL bytes, huge numbers, long
 * strings, instants out of range, wrong types). Property: never a 5xx, and every 4xx is the error envelope with
 * its status. Each response is also checked against the document (test/app.ts `call`). Fixed seed, bounded runs.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMIN, call, createTestApp, FINALIZE, signIn, type TestApp, testKey } from "../../test/app.js";
import { putEvent } from "../../test/player-api.js";

type Schema = {
  type?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  maxItems?: number;
};
interface Operation {
  method: string;
  path: string;
  params: Array<{ in: string; name: string; required?: boolean; schema: Schema }>;
  body: Schema | null;
}

const HOSTILE: unknown[] = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udc00y",
  "x".repeat(5000),
  "",
  " ",
  "9223372036854.775808",
  "99999999999999999999999999",
  "-1",
  "1e309",
  "NaN",
  "9999-12-31T23:59:59-14:00",
  "0001-01-01T00:00:00+14:00",
  "2026-02-31T00:00:00Z",
  "%ZZ",
  "../../etc/passwd",
  "<script>",
  "0x",
  -1,
  0,
  2 ** 63,
  1e308,
  -1e308,
  1.5,
  true,
  null,
  [],
  {},
  { __proto__: { polluted: 1 } },
];

const hostile = fc.constantFrom(...HOSTILE);

/** Values the schema admits (mostly), built from its own keywords. */
function shaped(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((a) => shaped(a, depth)));
  switch (s.type) {
    case "integer":
      return fc.integer({ min: s.minimum ?? -(2 ** 31), max: s.maximum ?? 2 ** 31 });
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(s.items ? value(s.items, depth + 1) : hostile, {
        maxLength: Math.min(s.maxItems ?? 3, 3),
      });
    case "object": {
      const props = Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [k, value(v, depth + 1)]),
      );
      return fc.record(props, { requiredKeys: s.required ?? [] });
    }
    default: {
      if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length <= 200);
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 20, 40) });
    }
  }
}

/**
 * A shaped value with one hostile twist: a NUL or a lone UTF-16 surrogate inside a string, a number pushed past
 * its bounds.
 */
function twisted(s: Schema, depth: number): fc.Arbitrary<unknown> {
  return fc.tuple(shaped(s, depth), fc.nat()).map(([v, n]) => {
    const bad = n % 3 === 0 ? "\ud83d" : "\u0000";
    if (typeof v === "string") return `${v.slice(0, n % (v.length + 1))}${bad}${v.slice(n % (v.length + 1))}`;
    if (typeof v === "number") return n % 2 === 0 ? v * 1e12 : -v - 1;
    return v;
  });
}

/** Mostly schema-shaped, often hostile. */
function value(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return hostile;
  return fc.oneof(
    { arbitrary: shaped(s, depth), weight: 3 },
    { arbitrary: twisted(s, depth), weight: 1 },
    { arbitrary: hostile, weight: 1 },
  );
}

const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses with URIError) is written as the three
 * bytes of its WTF-8 form, e.g. %ED%A0%BD: what a hostile client can put on the wire.
 */
function encodePart(s: string): string {
  return s
    .split(/([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part);
      const cu = part.charCodeAt(0);
      return [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    })
    .join("");
}

let t: TestApp;
let cookie: string;
let operations: Operation[];
beforeAll(async () => {
  t = await createTestApp({ env: { CHAIN_VERIFIER: "trust" } });
  cookie = (await signIn(t, testKey(1))).cookie;
  await putEvent(t, "ev-1");
  const doc = (await call(t.app, { method: "GET", url: "/docs/json" })).body;
  operations = Object.entries<Record<string, { parameters?: Operation["params"]; requestBody?: any }>>(
    doc.paths,
  ).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      params: op.parameters ?? [],
      body: op.requestBody?.content?.["application/json"]?.schema ?? null,
    })),
  );
});
afterAll(async () => t.close());

function requestOf(op: Operation) {
  const byIn = (where: string) => op.params.filter((p) => p.in === where);
  const record = (ps: Operation["params"]) =>
    fc.record(Object.fromEntries(ps.map((p) => [p.name, value(p.schema)])), {
      requiredKeys: ps.filter((p) => p.required).map((p) => p.name),
    });
  return fc.record({
    path: record(byIn("path")),
    query: record(byIn("query")),
    body: op.body
      ? fc.oneof({ arbitrary: value(op.body), weight: 5 }, { arbitrary: hostile, weight: 1 })
      : fc.constant(undefined),
    auth: fc.constantFrom("none", "cookie", "admin", "finalize"),
  });
}

it("no route answers a 5xx, and every 4xx is the error envelope", async () => {
  expect(operations.length).toBeGreaterThan(30);
  const seen = new Map<string, number>();
  for (const [i, op] of operations.entries()) {
    if (op.path.startsWith("/docs")) continue;
    await fc.assert(
      fc.asyncProperty(requestOf(op), async (r) => {
        const url = op.path.replace(/\{(\w+)\}/g, (_, name) => encodePart(asText(r.path[name] ?? "x")));
        const query = Object.entries(r.query)
          .map(([k, v]) => `${encodePart(k)}=${encodePart(asText(v))}`)
          .join("&");
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
          url: query ? `${url}?${query}` : url,
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
          `${op.method} ${url}?${query} ${JSON.stringify(r.body)?.slice(0, 300)} → ${JSON.stringify(res.body)}`,
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
