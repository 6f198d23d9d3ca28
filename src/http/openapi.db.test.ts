/**
 * The OpenAPI document at /docs/json: valid OpenAPI 3.1 by two independent validators and by `redocly lint` (zero
 * errors), every operation complete (operationId, summary, tags, security, its error responses on the named
 * ErrorEnvelope), examples that hold, and a client generated from it (openapi-typescript 6, as the web app does)
 * that types every error code. Built from the test app's routes; the document does not depend on the engine, so
 * this runs on PGlite only.
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
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};

let t: TestApp;
let doc: {
  openapi: string;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, any> };
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

  it("passes `redocly lint` (recommended rules) with zero errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-"));
    try {
      const file = join(dir, "openapi.json");
      writeFileSync(file, JSON.stringify(doc));
      const cli = join(process.cwd(), "node_modules/@redocly/cli/bin/cli.js");
      const { stdout } = await promisify(execFile)(process.execPath, [cli, "lint", file, "--format=json"], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        timeout: 60_000,
      });
      const report = JSON.parse(stdout) as {
        totals: { errors: number };
        problems: Array<{ severity: string; ruleId: string; message: string }>;
      };
      expect(report.problems.filter((p) => p.severity === "error")).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    const data = (path: string) =>
      (doc.paths[path]!.get ?? doc.paths[path]!.post)!.responses["200"]!.content!["application/json"]!.schema
        .properties as any;
    const ladder = data("/api/competition/leaderboard").data.properties;
    expect(ladder.type.enum).toEqual(["qualification", "champions"]);
    expect(data("/api/competition/meta").data.properties.weeks.items.properties.status.enum).toEqual([
      "upcoming",
      "live",
      "ended",
      "finalized",
    ]);
    expect(data("/api/events/{id}").data.properties.status.enum).toEqual([
      "scheduled",
      "live",
      "finished",
      "cancelled",
    ]);
    const prediction = data("/api/user/predictions").data.properties.items.items;
    const fields = (prediction.allOf ?? [prediction]).find((s: any) => s.properties?.version).properties;
    expect(fields.version.enum).toEqual([1, 2]);
    expect(fields.status.enum).toEqual(["pending", "open", "won", "lost", "void", "rejected"]);
  });

  it("has examples that hold: each one matches its own schema, and USDC amounts show one", () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    (addFormatsPlugin as unknown as (a: Ajv2020) => void)(ajv);
    const examples: Array<{ where: string; schema: object; value: unknown }> = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${where}/${i}`);
      }
      if (node === null || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      if (typeof o.pattern === "string" && (o.pattern as string).includes("\\.\\d{6}")) {
        expect(o.examples ?? o.example, `${where}: a USDC amount without an example`).toBeDefined();
      }
      const { examples: list, example, ...schema } = o;
      for (const value of [
        ...(Array.isArray(list) ? list : []),
        ...(example === undefined ? [] : [example]),
      ]) {
        if (typeof o.type === "string") examples.push({ where, schema, value });
      }
      for (const [key, child] of Object.entries(o)) walk(child, `${where}/${key}`);
    };
    walk(doc.paths, "#/paths");
    expect(examples.length).toBeGreaterThan(0);
    for (const e of examples)
      expect(ajv.validate(e.schema, e.value), `${e.where}: ${JSON.stringify(e.value)}`).toBe(true);
    expect(examples.map((e) => e.value)).not.toContainEqual(expect.stringMatching(/^-/));
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
  });
});
