/**
 * Test-only: checks every response an app sends against its own OpenAPI document (/docs/json), errors included,
 * so the document cannot drift from the code. A documented route must declare the status it answers, and a JSON
 * body must match that status's schema, in a media type it declares; an unknown route must answer the
 * ErrorEnvelope with 404. Routes the document hides (the web app, the docs UI) are not checked. Mismatches are collected: `takeViolations`
 * hands them to the test (test/app.ts fails `call` and `close` on them).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsPlugin from "ajv-formats";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type OpenApiResponse = { content?: Record<string, unknown> };
type OpenApiDocument = {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse | undefined> }>>;
};

const violationsOf = new WeakMap<FastifyInstance, string[]>();

/** Responses of `app` that broke its document since the last call; clears them. */
export function takeViolations(app: FastifyInstance): string[] {
  const found = violationsOf.get(app) ?? [];
  violationsOf.set(app, []);
  return found;
}

/**
 * The validators of a document, shared by the apps of this test worker that publish the same document (most do:
 * it changes only with the routes a configuration turns on): compiling its schemas again for every app cost the
 * suite ≈ 4 s of CPU. A few documents are kept, the oldest dropped first.
 */
const validatorsByDocument = new Map<string, (pointer: string) => Validate>();

function validatorsOf(doc: OpenApiDocument): (pointer: string) => Validate {
  const key = JSON.stringify(doc);
  const found = validatorsByDocument.get(key);
  if (found) return found;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  (addFormatsPlugin as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc as object, "openapi.json");
  const compiled = new Map<string, Validate>();
  const validator = (pointer: string) => {
    let v = compiled.get(pointer);
    if (!v) {
      v = ajv.compile({ $ref: `openapi.json#${pointer}` }) as Validate;
      compiled.set(pointer, v);
    }
    return v;
  };
  if (validatorsByDocument.size >= 4) validatorsByDocument.delete(validatorsByDocument.keys().next().value!);
  validatorsByDocument.set(key, validator);
  return validator;
}

/** Installs the check on `app` (before `ready()`); the document is read on the first response. */
export function checkResponsesAgainstDocument(app: FastifyInstance): void {
  violationsOf.set(app, []);
  let contract: { doc: OpenApiDocument; validator: (pointer: string) => Validate } | null = null;
  const load = () => {
    const doc = app.swagger() as unknown as OpenApiDocument;
    return { doc, validator: validatorsOf(doc) };
  };

  app.addHook("onSend", async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.method === "HEAD") return payload;
    contract ??= load();
    const problem = check(contract, request, reply, payload);
    if (problem)
      violationsOf.get(app)?.push(`${request.method} ${request.url} → ${reply.statusCode}: ${problem}`);
    return payload;
  });
}

const pointerSegment = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

function check(
  contract: { doc: OpenApiDocument; validator: (pointer: string) => Validate },
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string | null {
  const status = String(reply.statusCode);
  const template = request.routeOptions.url;
  const type = String(reply.getHeader("content-type") ?? "");
  const mediaType = type.split(";")[0]!.trim();
  let pointer: string;
  if (template === undefined || request.is404) {
    if (status !== "404") return "an unknown route must answer 404";
    if (mediaType !== "application/json") return `content-type ${type}, the 404 envelope is JSON`;
    pointer = "/components/schemas/ErrorEnvelope";
  } else {
    const path = template.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const method = request.method.toLowerCase();
    const operation = contract.doc.paths[path]?.[method];
    if (!operation) return null; // a route the document hides
    const response = operation.responses[status];
    if (!response) return "the document does not declare this status";
    if (status === "204" || status === "304") return null;
    const declared = Object.keys(response.content ?? {});
    if (!declared.includes(mediaType)) {
      return `content-type ${type}, the document declares ${declared.join(", ") || "no body"}`;
    }
    // A text answer (the Prometheus metrics) is declared as a string: nothing more to check.
    if (mediaType !== "application/json") return null;
    pointer = `/paths/${pointerSegment(path)}/${method}/responses/${status}/content/application~1json/schema`;
  }
  let body: unknown;
  try {
    body = JSON.parse(String(payload));
  } catch {
    return "the body is not JSON";
  }
  const validate = contract.validator(pointer);
  return validate(body) ? null : `the body breaks the declared schema: ${JSON.stringify(validate.errors)}`;
}
