/**
 * The test-only response check (response-contract.ts) on a small app with the real envelope and OpenAPI
 * plugins: it passes responses the document declares, and reports an undeclared status, a body that breaks its
 * schema and an unknown route's answer that is not the 404 envelope.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/errors.js";
import { ok, okSchema, registerEnvelope } from "../src/http/envelope.js";
import { registerOpenApi } from "../src/http/openapi.js";
import { StringEnum } from "../src/shared/schema-types.js";
import { checkResponsesAgainstDocument, takeViolations } from "./response-contract.js";

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  registerEnvelope(app);
  await registerOpenApi(app);
  const summary = "a test route";
  const response = { 200: okSchema(Type.Object({ color: StringEnum(["red", "blue"]) })) };
  const config = { auth: "public" as const, errors: ["CONFLICT" as const] };
  app.get("/api/t/ok", { schema: { summary, tags: ["ops"], response }, config }, async () =>
    ok({ color: "red" }),
  );
  app.get("/api/t/conflict", { schema: { summary, tags: ["ops"], response }, config }, async () => {
    throw new AppError("CONFLICT", "declared");
  });
  app.get("/api/t/not-found", { schema: { summary, tags: ["ops"], response }, config }, async () => {
    throw new AppError("NOT_FOUND", "not declared");
  });
  // The serializer does not check enums: a wrong value goes out, and only the check sees it.
  app.get("/api/t/green", { schema: { summary, tags: ["ops"], response }, config }, async () =>
    ok({ color: "green" }),
  );
  app.get("/api/t/hidden", { schema: { hide: true } }, async (_request, reply) =>
    reply.code(418).send("tea"),
  );
  checkResponsesAgainstDocument(app);
  await app.ready();
});
afterAll(async () => app.close());

const statusOf = async (url: string) => (await app.inject({ method: "GET", url })).statusCode;

describe("checkResponsesAgainstDocument", () => {
  it("passes declared statuses with matching bodies, unknown routes' 404 envelope and hidden routes", async () => {
    expect(await statusOf("/api/t/ok")).toBe(200);
    expect(await statusOf("/api/t/conflict")).toBe(409);
    expect(await statusOf("/api/t/missing")).toBe(404);
    expect(await statusOf("/api/t/hidden")).toBe(418);
    expect(takeViolations(app)).toEqual([]);
  });

  it("reports a status the document does not declare", async () => {
    expect(await statusOf("/api/t/not-found")).toBe(404);
    expect(takeViolations(app)).toEqual([
      "GET /api/t/not-found → 404: the document does not declare this status",
    ]);
  });

  it("reports a body that breaks the declared schema", async () => {
    expect(await statusOf("/api/t/green")).toBe(200);
    const [violation, ...rest] = takeViolations(app);
    expect(rest).toEqual([]);
    expect(violation).toMatch(
      /^GET \/api\/t\/green → 200: the body breaks the declared schema: .*"\/data\/color"/,
    );
  });
});
