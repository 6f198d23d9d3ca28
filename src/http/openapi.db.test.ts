/**
 * The OpenAPI document at /docs/json: valid OpenAPI 3.1 by two independent validators and by `redocly lint` (no
 * error, no warning, with the project's redocly.yaml), every operation complete (operationId, summary, tags,
 * security, described responses, its error responses on the named ErrorEnvelope, described parameters, the
 * headers it sends), named component schemas for the entities, examples that hold, and a client generated from
 * it (openapi-typescript 6, as the web app and the SDK do) that types every error code. Built from the test app's
 * routes; the document does not depend on the engine, so this runs on PGlite only.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import openapiTS from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.js";
import { testEngine } from "../../test/db.js";
import { ERROR_STATUS } from "../errors.js";

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Array<Record<string, any>>;
  responses: Record<
    string,
    {
      description: string;
      content?: Record<string, { schema: Record<string, unknown> }>;
      headers?: Record<string, { $ref: string }>;
    }
  >;
};

let t: TestApp;
let doc: {
  openapi: string;
  servers: Array<{ url: string }>;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, any>; parameters: Record<string, any>; headers: Record<string, any> };
};
const METHODS = new Set(["get", "put", "post", "delete", "patch"]);
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, path, method, op })),
  );

describe.skipIf(testEngine !== "pglite")("the OpenAPI document", () => {
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => t?.close());

  it("is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("is valid by @apidevtools/swagger-parser", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  const redocly = async (document: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    try {
      const file = join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(document));
      const cli = join(process.cwd(), "node_modules/@redocly/cli/bin/cli.js");
      const config = join(process.cwd(), "redocly.yaml");
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [cli, "lint", file, "--config", config, "--format=json"],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
          timeout: 60_000,
        },
      ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
      return JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{
          severity: string;
          ruleId: string;
          message: string;
          location: Array<{ pointer: string }>;
        }>;
      };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it("passes `redocly lint` (recommended rules, redocly.yaml) with no error and no warning", async () => {
    const report = await redocly(doc);
    expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("still warns about an operation without a 4xx response, the probes excepted (redocly.yaml's rule)", async () => {
    const broken = structuredClone(doc);
    const responses = broken.paths["/api/events/{id}"]!.get!.responses;
    for (const status of Object.keys(responses)) if (status.startsWith("4")) delete responses[status];
    const report = await redocly(broken);
    expect(report.problems.map((p) => [p.ruleId, p.location[0]?.pointer])).toEqual([
      ["rule/operation-4xx-response", "#/paths/~1api~1events~1{id}/get/responses"],
    ]);
    // The probes have no 4xx, by design, and pass; /metrics only the 401 of METRICS_TOKEN.
    for (const [path, fourxx] of [
      ["/healthz", []],
      ["/readyz", []],
      ["/metrics", ["401"]],
    ] as const) {
      expect(
        Object.keys(doc.paths[path]!.get!.responses).filter((st) => st.startsWith("4")),
        path,
      ).toEqual(fourxx);
    }
  });

  it("names the server relatively, so /docs calls the server it is served from", () => {
    expect(doc.servers).toEqual([{ url: "/", description: "The server serving this document" }]);
  });

  it("gives every operation an operationId, a summary, declared tags, its security and its error responses", () => {
    const tagNames = new Set(doc.tags.map((tag) => tag.name));
    const ids = new Set<string>();
    expect(operations().length).toBeGreaterThan(30);
    for (const { name, path, op } of operations()) {
      expect(op.operationId, name).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(ids.has(op.operationId!), `${name}: operationId repeated`).toBe(false);
      ids.add(op.operationId!);
      expect(op.summary?.length, `${name}: summary`).toBeGreaterThan(0);
      expect(op.tags?.length, `${name}: tags`).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(tagNames.has(tag), `${name}: tag ${tag} declared`).toBe(true);
      expect(Array.isArray(op.security), `${name}: security`).toBe(true);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${name} ${status}`).not.toBe("Default Response");
        expect(response.description.length, `${name} ${status}`).toBeGreaterThan(2);
      }
      for (const parameter of op.parameters ?? []) {
        const p = parameter.$ref ? doc.components.parameters[parameter.$ref.split("/").pop()] : parameter;
        expect(p.description?.length, `${name}: parameter ${p.name} has a description`).toBeGreaterThan(10);
      }
      const errors = Object.keys(op.responses).filter((status) => Number(status) >= 400);
      expect(errors, `${name}: error responses`).toContain("500");
      if (path.startsWith("/api/")) expect(errors, `${name}: rate limited`).toContain("429");
      const requirements = (op.security ?? []) as Array<Record<string, unknown>>;
      if (requirements.length > 0 && requirements.every((r) => Object.keys(r).length > 0)) {
        expect(errors, `${name}: 401 without credentials`).toContain("401");
      }
      for (const status of errors) {
        const schema = op.responses[status]!.content!["application/json"]!.schema;
        expect(schema.allOf, `${name} ${status}`).toContainEqual({
          $ref: "#/components/schemas/ErrorEnvelope",
        });
        const narrowed = (schema.allOf as Array<{ properties?: any }>)[1]!.properties;
        expect(narrowed.status.enum, `${name} ${status}`).toEqual([Number(status)]);
        for (const code of narrowed.code.enum) {
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `${name} ${code}`).toBe(Number(status));
        }
      }
    }
  });

  it("declares the session cookie, the admin bearer and the finalize header, and uses them", () => {
    const schemes = (doc.components as any).securitySchemes;
    expect(schemes).toMatchObject({
      session: { type: "apiKey", in: "cookie", name: "session" },
      admin: { type: "http", scheme: "bearer" },
      finalizeSecret: { type: "apiKey", in: "header", name: "x-competition-finalize-secret" },
    });
    const securityOf = (path: string, method: string) => doc.paths[path]![method]!.security;
    expect(securityOf("/api/competition/me", "get")).toEqual([{ session: [] }]);
    expect(securityOf("/api/admin/events/{id}", "put")).toEqual([{ admin: [] }]);
    expect(securityOf("/api/competition/finalize", "post")).toEqual([{ finalizeSecret: [] }]);
    expect(securityOf("/api/competition/leaderboard", "get")).toEqual([]);
    expect(securityOf("/api/competition/weeks/{week}/prize-tree", "get")).toEqual([]);
  });

  it("has one named ErrorEnvelope whose code is an enum of the error table", () => {
    const envelope = doc.components.schemas.ErrorEnvelope;
    expect(envelope.properties.code.enum).toEqual(Object.keys(ERROR_STATUS));
    expect(new Set(envelope.properties.status.enum)).toEqual(new Set(Object.values(ERROR_STATUS)));
    expect(envelope.required).toEqual(["success", "error", "status", "code"]);
    const finalize409 = doc.paths["/api/competition/finalize"]!.post!.responses["409"]!;
    expect((finalize409.content!["application/json"]!.schema.allOf as any)[1].properties.code.enum).toEqual([
      "WEEK_NOT_ENDED",
      "PREVIOUS_WEEK_NOT_FINALIZED",
      "FEES_NOT_INDEXED",
      "BETS_NOT_INDEXED",
    ]);
    const tree409 = doc.paths["/api/competition/weeks/{week}/prize-tree"]!.get!.responses["409"]!;
    expect((tree409.content!["application/json"]!.schema.allOf as any)[1].properties.code.enum).toEqual([
      "WEEK_NOT_FINALIZED",
    ]);
  });

  it("gives statuses, types and versions as enums", () => {
    const schemas = doc.components.schemas;
    expect(schemas.LadderPage.properties.type.enum).toEqual(["qualification", "champions"]);
    expect(schemas.RailWeek.properties.status.enum).toEqual(["upcoming", "live", "ended", "finalized"]);
    expect(schemas.Event.properties.status.enum).toEqual(["scheduled", "live", "finished", "cancelled"]);
    expect(schemas.Prediction.properties.version.enum).toEqual([1, 2]);
    expect(schemas.Prediction.properties.status.enum).toEqual([
      "pending",
      "open",
      "won",
      "lost",
      "void",
      "rejected",
    ]);
  });

  it("has examples that hold: each one matches its own schema, and USDC amounts show one", () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    (addFormatsPlugin as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema(structuredClone(doc) as object, "openapi.json");
    // Each example with the pointer of the schema it illustrates (a schema's `examples`, a media type's `example`).
    const examples: Array<{ pointer: string; value: unknown }> = [];
    const segment = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");
    const walk = (node: unknown, pointer: string) => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${pointer}/${i}`);
        return;
      }
      if (node === null || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      if (typeof o.pattern === "string" && (o.pattern as string).includes("\\.\\d{6}")) {
        expect(o.examples ?? o.example, `${pointer}: a USDC amount without an example`).toBeDefined();
      }
      const isSchema = typeof o.type === "string" || Array.isArray(o.anyOf) || Array.isArray(o.allOf);
      if (isSchema && Array.isArray(o.examples)) {
        for (const value of o.examples) examples.push({ pointer, value });
      }
      if (o.schema && o.example !== undefined)
        examples.push({ pointer: `${pointer}/schema`, value: o.example });
      for (const [key, child] of Object.entries(o)) {
        if (key !== "examples" && key !== "example") walk(child, `${pointer}/${segment(key)}`);
      }
    };
    walk(doc.paths, "/paths");
    walk(doc.components.schemas, "/components/schemas");
    const components = examples.filter((e) => e.pointer.startsWith("/components/schemas/"));
    const named = new Set(components.map((e) => e.pointer.split("/")[3]));
    for (const entity of [
      "Event",
      "Prediction",
      "User",
      "LadderRow",
      "BetRequest",
      "WalletSignIn",
      "EventResult",
    ])
      expect(named.has(entity), `${entity} has an example`).toBe(true);
    for (const e of examples) {
      const validate = ajv.getSchema(`openapi.json#${e.pointer}`);
      expect(validate, e.pointer).toBeDefined();
      expect(
        validate!(e.value),
        `${e.pointer}: ${JSON.stringify(e.value)} ${JSON.stringify(validate!.errors)}`,
      ).toBe(true);
    }
    expect(examples.map((e) => e.value)).not.toContainEqual(expect.stringMatching(/^-/));
  });

  it("names every entity as a component schema, used by reference", () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const data = (path: string, method: string, status = "200") =>
      (doc.paths[path]![method]!.responses[status]!.content!["application/json"]!.schema as any).properties
        .data;
    expect(data("/api/events/{id}", "get")).toEqual(ref("Event"));
    expect(data("/api/available-events", "get")).toEqual(ref("EventPage"));
    expect(doc.components.schemas.EventPage.properties.items.items).toEqual(ref("Event"));
    expect(doc.components.schemas.Event.properties.markets.items).toEqual(ref("Market"));
    expect(data("/api/user/predictions", "get")).toEqual(ref("PredictionPage"));
    expect(doc.components.schemas.PredictionWithEvent.allOf[0]).toEqual(ref("Prediction"));
    expect(data("/api/pred2earn/bet-placed", "post", "201")).toEqual(ref("BetPlaced"));
    expect(data("/api/competition/leaderboard", "get")).toEqual(ref("LadderPage"));
    expect(doc.components.schemas.LadderPage.properties.rows.items).toEqual(ref("LadderRow"));
    expect(data("/api/leaderboard", "get")).toEqual(ref("AllTimePage"));
    expect(data("/api/auth/session", "get")).toEqual(ref("SignedInUser"));
    expect(doc.components.schemas.SignedInUser.properties.user).toEqual(ref("User"));
    expect(data("/api/competition/me", "get")).toEqual(ref("MyStanding"));
    expect(data("/api/competition/prize-pool-estimate", "get")).toEqual(ref("PrizePoolEstimate"));
    const body = (path: string, method: string) =>
      (doc.paths[path]![method] as any).requestBody.content["application/json"].schema;
    expect(body("/api/pred2earn/bet-placed", "post")).toEqual(ref("BetRequest"));
    expect(body("/api/auth/wallet", "post")).toEqual(ref("WalletSignIn"));
    expect(body("/api/admin/events/{id}", "put")).toEqual(ref("EventUpsert"));
    // No entity left inline: no `title` outside the components.
    expect(JSON.stringify(doc.paths)).not.toMatch(/"title":/);
  });

  it("documents the headers: rate limits on every /api answer, retry-after, ETag and Cache-Control of cacheable reads", () => {
    const headerRefs = (op: Operation, status: string) =>
      Object.fromEntries(
        Object.entries(op.responses[status]?.headers ?? {}).map(([name, h]) => [
          name,
          h.$ref.split("/").pop(),
        ]),
      );
    for (const { name, path, op } of operations()) {
      if (!path.startsWith("/api/")) continue;
      for (const status of Object.keys(op.responses)) {
        expect(headerRefs(op, status), `${name} ${status}`).toMatchObject({
          "x-ratelimit-limit": "RateLimitLimit",
          "x-ratelimit-remaining": "RateLimitRemaining",
          "x-ratelimit-reset": "RateLimitReset",
        });
      }
      expect(headerRefs(op, "429"), name).toMatchObject({ "retry-after": "RetryAfter" });
      expect(headerRefs(op, "503"), name).toMatchObject({ "retry-after": "RetryAfter" });
    }
    const cacheable = operations().filter(({ op }) => "304" in op.responses);
    expect(cacheable.map((c) => c.name).sort()).toEqual([
      "GET /api/available-events",
      "GET /api/competition/leaderboard",
      "GET /api/competition/prize-pool-estimate",
      "GET /api/competition/weeks/{week}/prize-tree",
      "GET /api/events/{id}",
      "GET /api/events/{id}/odds",
      "GET /api/leaderboard",
      "GET /api/leaderboard/top-points",
    ]);
    for (const { name, op } of cacheable) {
      for (const status of ["200", "304"])
        expect(headerRefs(op, status).etag, `${name} ${status}`).toBe("ETag");
      expect(op.parameters, name).toContainEqual({ $ref: "#/components/parameters/IfNoneMatch" });
    }
    const cacheControl = (path: string) => headerRefs(doc.paths[path]!.get!, "200")["cache-control"];
    expect(cacheControl("/api/competition/leaderboard")).toBe("CacheControlFinal");
    expect(cacheControl("/api/events/{id}")).toBe("CacheControlRevalidate");
    expect(doc.components.headers.CacheControlFinal.schema.enum).toEqual([
      "public, max-age=31536000, immutable",
      "public, no-cache",
    ]);
    expect(doc.components.headers.RetryAfter.schema).toEqual({ type: "integer", minimum: 0 });
  });

  it("documents the probes, the metrics and the test clock", () => {
    expect(doc.paths["/healthz"]!.get!.summary).toBeDefined();
    expect(Object.keys(doc.paths["/readyz"]!.get!.responses)).toEqual(["200", "500", "503"]);
    expect(Object.keys(doc.paths["/metrics"]!.get!.responses["200"]!.content!)).toEqual(["text/plain"]);
    const clock = doc.paths["/api/admin/clock"]!.put!;
    expect(clock.security).toEqual([{ admin: [] }]);
    expect(Object.keys(clock.responses)).toContain("404");
  });

  it("generates a client (openapi-typescript 6) that types every error code, per status", async () => {
    const types = await openapiTS(structuredClone(doc) as never);
    const codes = Object.keys(ERROR_STATUS).map((code) => `"${code}"`);
    expect(types).toContain(`code: ${codes.join(" | ")};`);
    expect(types).toContain(
      'code: "WEEK_NOT_ENDED" | "PREVIOUS_WEEK_NOT_FINALIZED" | "FEES_NOT_INDEXED" | "BETS_NOT_INDEXED";',
    );
    expect(types).toContain('components["schemas"]["ErrorEnvelope"] & {');
    expect(types).toContain("postCompetitionFinalize: {");
    // Named entities are named types.
    expect(types).toMatch(/\bEvent: \{/);
    expect(types).toContain('data: components["schemas"]["Event"];');
  });
});
