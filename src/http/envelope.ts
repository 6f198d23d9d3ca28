/**
 * The success and error envelopes. Every error, including 404s for unknown routes, validation failures, 429s and
 * unexpected 500s, answers `{success: false, error, status, code}`; a 500 never leaks a stack trace or SQL.
 */
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type TSchema, Type } from "typebox";
import { isDependencyUnavailable } from "../db/unavailable.js";
import { AppError, ERROR_STATUS, type ErrorCode } from "../errors.js";

/** Seconds a client should wait before retrying after a 503 SERVICE_UNAVAILABLE. */
export const RETRY_AFTER_SECONDS = 5;

/** Response schema of a success envelope around `data`. */
export function okSchema<T extends TSchema>(data: T, options: { description?: string } = {}) {
  return Type.Object({ success: Type.Literal(true), data }, options);
}

const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The one error envelope: `code` is a code of the error table (errors.ts), `status` its HTTP status. */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: "A human-readable message" }),
    status: Type.Unsafe<number>({ type: "integer", enum: [...new Set(Object.values(ERROR_STATUS))] }),
    code: Type.Unsafe<ErrorCode>({ type: "string", enum: ERROR_CODES }),
    details: Type.Optional(
      Type.Union(
        [
          Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
            description: "VALIDATION_FAILED: each failure names its field, e.g. `query.week`",
          }),
          Type.Object(
            {
              currentOdds: Type.Optional(Type.Number({ description: "ODDS_CHANGED: the odds now" })),
              nextClaimAt: Type.Optional(
                Type.String({
                  format: "date-time",
                  description: "ALREADY_CLAIMED (daily credits): the next claim",
                }),
              ),
            },
            { additionalProperties: false },
          ),
        ],
        { description: "Facts about the error, by code" },
      ),
    ),
  },
  { $id: "ErrorEnvelope", additionalProperties: false },
);

/** Wraps a payload in the success envelope. */
export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return {
    success: false as const,
    error: message,
    status: ERROR_STATUS[code],
    code,
    ...(details === undefined ? {} : { details }),
  };
}

interface ValidationIssue {
  instancePath?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** Turns Ajv issues into `[{field, message}]` naming the offending field (e.g. `query.week`). */
function validationDetails(context: string | undefined, issues: ValidationIssue[]) {
  const where = context === "querystring" ? "query" : (context ?? "body");
  return issues.map((i) => {
    const path = (i.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".");
    const extra =
      (i.params?.additionalProperty as string | undefined) ??
      (i.params?.missingProperty as string | undefined);
    const field = [where, path, extra].filter(Boolean).join(".");
    return { field, message: i.message ?? "is invalid" };
  });
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "VALIDATION_FAILED",
  FST_ERR_CTP_EMPTY_JSON_BODY: "VALIDATION_FAILED",
  FST_ERR_CTP_INVALID_JSON_BODY: "VALIDATION_FAILED",
};

/**
 * Fastify's `frameworkErrors` option: errors the router raises before any route or hook runs (a malformed
 * percent-encoding, FST_ERR_BAD_URL; a path parameter over `maxParamLength`) answer a 400 envelope.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const message =
    err.code === "FST_ERR_BAD_URL"
      ? "The URL is not validly percent-encoded"
      : err.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? "A path parameter is too long"
        : "Invalid request";
  void reply.code(400).send(errorBody("VALIDATION_FAILED", message));
}

/**
 * Fastify's `clientErrorHandler` option: requests Node's HTTP parser refuses before Fastify sees them — headers
 * over Node's 16 KiB (431), a request that took longer than the server's request timeout (408), a malformed
 * request line or header (400) — answer the error envelope too, then the connection is closed. A connection
 * reset by the client needs no answer.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? ["HEADERS_TOO_LARGE", "The request headers are too large"]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? ["REQUEST_TIMEOUT", "The request took too long to arrive"]
        : ["VALIDATION_FAILED", "Malformed HTTP request"];
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(errorBody(code, message));
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Installs the error and not-found handlers that give every failure the error envelope, and refuses non-JSON
 * request bodies (415).
 */
export function registerEnvelope(app: FastifyInstance): void {
  app.addSchema(ErrorEnvelope);
  // The API speaks JSON only: without Fastify's default text/plain parser, a text body gets the 415 envelope
  // (FST_ERR_CTP_INVALID_MEDIA_TYPE) instead of reaching the routes as a string.
  app.removeContentTypeParser("text/plain");

  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .send(errorBody("NOT_FOUND", `Route ${request.method} ${request.url.split("?")[0]} not found`));
  });

  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (err.code === "SERVICE_UNAVAILABLE") reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      return reply.code(err.status).send(errorBody(err.code, err.message, err.details));
    }
    if (isDependencyUnavailable(err)) {
      // A database down, stalled past its timeouts, or out of connections: say so, and when to retry.
      request.log.warn({ err }, "dependency unavailable");
      return reply
        .code(503)
        .header("retry-after", String(RETRY_AFTER_SECONDS))
        .send(errorBody("SERVICE_UNAVAILABLE", "A dependency is unavailable; retry shortly"));
    }
    if (err.validation) {
      const details = validationDetails(err.validationContext, err.validation as ValidationIssue[]);
      const first = details[0];
      const message = first ? `${first.field} ${first.message}` : "Invalid request";
      return reply.code(400).send(errorBody("VALIDATION_FAILED", message, details));
    }
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped) {
      return reply.code(ERROR_STATUS[mapped]).send(errorBody(mapped, err.message));
    }
    if (err.statusCode === 429) {
      return reply.code(429).send(errorBody("RATE_LIMITED", "Too many requests, slow down"));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Any other client error Fastify raises (malformed JSON, bad headers): a 400 envelope, never a 500.
      return reply.code(400).send(errorBody("VALIDATION_FAILED", err.message));
    }
    request.log.error({ err }, "unhandled error");
    return reply.code(500).send(errorBody("INTERNAL", "Internal server error"));
  });
}
