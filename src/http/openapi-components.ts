/**
 * The last pass over the OpenAPI document (@fastify/swagger's `transformObject`), so generated clients get named
 * types and every response says which headers it carries:
 * - `nameComponents`: every schema with a `title` (TypeBox's `{ title: "Event" }` on an entity) becomes the
 *   component `#/components/schemas/<title>`, and each place it appeared a `$ref` to it. One title, one schema:
 *   two different schemas under the same title throw, so a name can never silently mean two shapes.
 * - `addHeaders`: the headers of the responses, as `#/components/headers/*`: on every response of a rate-limited
 *   route (the `x-rate-limit-class` mark of openapi.ts) the x-ratelimit-* headers, `retry-after` on 429 and 503;
 *   on a cacheable read (`x-cache`) the If-None-Match parameter, and the ETag and Cache-Control of its 200 and
 *   304.
 */
import { isDeepStrictEqual } from "node:util";
import { CACHE_CONTROL, type CacheConfig } from "./caching.js";

type Json = Record<string, unknown>;

/** Keywords whose values are data, not schemas: a `title` inside an example is no component name. */
const DATA_KEYWORDS = new Set(["examples", "example", "default", "enum", "const"]);

/** A schema without its annotations (the same shape may be annotated in one place and not another). */
function shapeOf(schema: Json): Json {
  const { examples: _examples, example: _example, description: _description, ...shape } = schema;
  return shape;
}

/** Replaces every titled schema below `node` by a `$ref` to its component, bottom-up; fills `found`. */
function extract(node: unknown, found: Map<string, Json>): unknown {
  if (Array.isArray(node)) return node.map((n) => extract(n, found));
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = DATA_KEYWORDS.has(key) ? value : extract(value, found);
  }
  const title = out.title;
  if (typeof title !== "string" || !/^[A-Z][A-Za-z0-9]*$/.test(title)) return out;
  const known = found.get(title);
  if (known && !isDeepStrictEqual(shapeOf(known), shapeOf(out))) {
    throw new Error(`OpenAPI: two different schemas are titled ${title}; give one another title`);
  }
  // @fastify/swagger moves a request body's own examples to its media type: keep the ones found elsewhere.
  found.set(title, { ...out, ...known });
  return { $ref: `#/components/schemas/${title}` };
}

/** Named component schemas for every titled schema of the paths (see the top of this file). */
export function nameComponents(doc: Json): void {
  const found = new Map<string, Json>();
  doc.paths = extract(doc.paths, found);
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  for (const title of [...found.keys()].sort()) {
    if (title in schemas) throw new Error(`OpenAPI: the component ${title} exists twice`);
    schemas[title] = found.get(title);
  }
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  doc.components = components;
  restoreBodyExamples(doc.paths, schemas);
}

/**
 * @fastify/swagger moves a request body's `examples` to its media type (`example`), so a component used only as a
 * body would lose them: give them back to the component, where the other entities keep theirs.
 */
function restoreBodyExamples(node: unknown, schemas: Json): void {
  if (node === null || typeof node !== "object") return;
  const o = node as Json;
  const schema = o.schema as { $ref?: unknown } | undefined;
  // One example is moved as `example`, several as `examples: {example1: {value}, …}`.
  const moved =
    o.example !== undefined
      ? [o.example]
      : o.examples && typeof o.examples === "object"
        ? Object.values(o.examples as Record<string, { value?: unknown }>).map((e) => e.value)
        : [];
  if (moved.length > 0 && typeof schema?.$ref === "string") {
    const component = schemas[schema.$ref.replace("#/components/schemas/", "")] as Json | undefined;
    if (component && component.examples === undefined) component.examples = moved;
  }
  for (const child of Object.values(o)) restoreBodyExamples(child, schemas);
}

const RATE_LIMIT_HEADERS = {
  RateLimitLimit: {
    name: "x-ratelimit-limit",
    description:
      "Requests allowed per minute in this route's rate-limit class (`x-rate-limit-class` of the operation: read " +
      "per IP, write per signed-in player or per IP, auth and finalize per IP). Absent on requests bearing the " +
      "admin token, which are not limited.",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitRemaining: {
    name: "x-ratelimit-remaining",
    description: "Requests left in the current one-minute window",
    schema: { type: "integer", minimum: 0 },
  },
  RateLimitReset: {
    name: "x-ratelimit-reset",
    description: "Seconds until the current window ends and the count starts again",
    schema: { type: "integer", minimum: 0 },
  },
} as const;

const HEADERS = {
  ...RATE_LIMIT_HEADERS,
  RetryAfter: {
    name: "retry-after",
    description: "Seconds to wait before retrying (a 429 until the window ends; a 503 a few seconds)",
    schema: { type: "integer", minimum: 0 },
  },
  ETag: {
    name: "etag",
    description:
      "A strong validator of the body: send it back in If-None-Match, and while the answer is unchanged the " +
      'reply is an empty 304. A brotli or gzip body\'s tag names its coding (`"<hash>-br"`); either form revalidates.',
    schema: { type: "string", pattern: '^"[A-Za-z0-9_-]+"$' },
  },
  CacheControlRevalidate: {
    name: "cache-control",
    description:
      "`public, no-cache`: a browser or a shared cache may keep the answer, and revalidates it (If-None-Match) " +
      "before each use",
    schema: { type: "string", enum: [CACHE_CONTROL.revalidate] },
  },
  CacheControlFinal: {
    name: "cache-control",
    description:
      "`public, max-age=31536000, immutable` once the week asked for is finalized (its answer never changes " +
      "again); `public, no-cache` (revalidate before each use) while it is live",
    schema: { type: "string", enum: [CACHE_CONTROL.immutable, CACHE_CONTROL.revalidate] },
  },
} as const;

type HeaderName = keyof typeof HEADERS;
const ref = (name: HeaderName) => ({ $ref: `#/components/headers/${name}` });

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** The rate-limit, retry, ETag and Cache-Control headers of every response (see the top of this file). */
export function addHeaders(doc: Json): void {
  const used = new Set<HeaderName>();
  let ifNoneMatch = false;
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const cache = op["x-cache"] as CacheConfig | undefined;
      delete op["x-cache"];
      const limited = typeof op["x-rate-limit-class"] === "string";
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const names: HeaderName[] = [];
        if (limited) names.push("RateLimitLimit", "RateLimitRemaining", "RateLimitReset");
        if (status === "429" || status === "503") names.push("RetryAfter");
        if (cache && (status === "200" || status === "304")) {
          names.push("ETag", cache === "revalidate" ? "CacheControlRevalidate" : "CacheControlFinal");
        }
        // No body, said as an empty content map: openapi-typescript 6 types a missing one `content: never`, which
        // type helpers that pick a response's JSON (web/src/api.ts's) read as "any JSON".
        if (status === "304") response.content = {};
        if (names.length === 0) continue;
        const headers = (response.headers ?? {}) as Json;
        for (const name of names) {
          headers[HEADERS[name].name] = ref(name);
          used.add(name);
        }
        response.headers = headers;
      }
      if (cache) {
        op.parameters = [
          ...((op.parameters as unknown[]) ?? []),
          { $ref: "#/components/parameters/IfNoneMatch" },
        ];
        ifNoneMatch = true;
      }
    }
  }
  const components = (doc.components ?? {}) as Json;
  components.headers = Object.fromEntries(
    [...used].sort().map((name) => {
      const { description, schema } = HEADERS[name];
      return [name, { description, schema }];
    }),
  );
  if (ifNoneMatch) {
    components.parameters = {
      IfNoneMatch: {
        name: "if-none-match",
        in: "header",
        required: false,
        description:
          "The ETag(s) of the answer the client holds: when one still matches, the reply is an empty 304 " +
          "Not Modified",
        schema: { type: "string" },
      },
    };
  }
  doc.components = components;
}
