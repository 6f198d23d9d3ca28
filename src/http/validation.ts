/**
 * Request validation: JSON bodies are checked as sent (no type coercion: `"10"` is not a number, `true` is not
 * 1), while query strings, params and headers, which are text on the wire, are coerced to their schema types.
 * Unknown properties are errors, never silently dropped.
 */
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifyInstance } from "fastify";

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    removeAdditional: false,
    coerceTypes,
    allErrors: false,
    useDefaults: true,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? strict : coercing).compile(schema),
  );
}
