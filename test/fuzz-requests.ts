/**
 * Request generator of the schema fuzz (src/http/fuzz.db.test.ts in process, `npm run drill` against real
 * servers): for each operation of the OpenAPI document, path parameters, query and body built from its own
 * schemas, mixed with hostile values (NUL bytes, lone UTF-16 surrogates, huge numbers, long strings, instants out
 * of range, wrong types), with every kind of auth.
 */
import fc from "fast-check";

export type Schema = {
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
export interface Operation {
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

export const asText = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses with URIError) is written as the three
 * bytes of its WTF-8 form, e.g. %ED%A0%BD: what a hostile client can put on the wire.
 */
export function encodePart(s: string): string {
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

/**
 * The operations of an OpenAPI document (/docs/json), but /docs itself and the endless ones: an operation that
 * answers `text/event-stream` (GET /api/stream) never ends its answer, so a fuzz request could wait on it for ever;
 * its inputs (a malformed or stale Last-Event-ID, the client limit) are tested in src/stream/stream.db.test.ts.
 */
export function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const endless = (op: any) =>
    Object.values(op.responses ?? {}).some((r: any) => r?.content?.["text/event-stream"] !== undefined);
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => !endless(op))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.["application/json"]?.schema ?? null,
      })),
  );
}

export function requestOf(op: Operation) {
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

/** The URL (path and query) of a generated request. */
export function urlOf(
  op: Operation,
  r: { path: Record<string, unknown>; query: Record<string, unknown> },
): string {
  const url = op.path.replace(/\{(\w+)\}/g, (_, name) => encodePart(asText(r.path[name] ?? "x")));
  const query = Object.entries(r.query)
    .map(([k, v]) => `${encodePart(k)}=${encodePart(asText(v))}`)
    .join("&");
  return query ? `${url}?${query}` : url;
}
