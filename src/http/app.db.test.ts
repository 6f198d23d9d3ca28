import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, type TestApp, testConfig } from "../../test/app.js";
import { buildApp } from "../app.js";
import { AdjustableClock } from "../clock.js";
import { sql } from "../db/client.js";
import { AppError } from "../errors.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
});
afterAll(async () => t.close());

/** The exact error envelope, nothing more. */
const envelope = (status: number, code: string) => ({
  success: false,
  error: expect.any(String),
  status,
  code,
});

const walletPost = (payload: string, contentType: string | undefined) =>
  call(t.app, {
    method: "POST",
    url: "/api/auth/wallet",
    payload,
    headers: contentType ? { "content-type": contentType } : {},
  });

describe("error envelope", () => {
  it("answers an unknown route with a 404 envelope", async () => {
    const res = await call(t.app, { method: "GET", url: "/api/nope?x=1" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: false,
      error: "Route GET /api/nope not found",
      status: 404,
      code: "NOT_FOUND",
    });
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    const post = await call(t.app, { method: "POST", url: "/nothing/here", payload: {} });
    expect(post.body).toEqual(envelope(404, "NOT_FOUND"));
  });

  it("answers a body over 64 KiB with a 413 envelope", async () => {
    const payload = JSON.stringify({ message: "x".repeat(64 * 1024), signature: "0x" });
    expect(Buffer.byteLength(payload)).toBeGreaterThan(64 * 1024);
    const res = await walletPost(payload, "application/json");
    expect(res.status).toBe(413);
    expect(res.body).toEqual(envelope(413, "PAYLOAD_TOO_LARGE"));
  });

  it("reads a body of exactly 64 KiB (and validates it: 400, not 413)", async () => {
    const skeleton = JSON.stringify({ message: "", signature: "0x" });
    const payload = JSON.stringify({ message: "x".repeat(64 * 1024 - skeleton.length), signature: "0x" });
    expect(Buffer.byteLength(payload)).toBe(64 * 1024);
    const res = await walletPost(payload, "application/json");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(envelope(400, "VALIDATION_FAILED"));
  });

  it.each([['{"message": "abc",'], ["{'message': 'abc'}"], ["not json"], ["{}}"]])(
    "answers the malformed JSON %j with a 400 envelope",
    async (payload) => {
      const res = await walletPost(payload, "application/json");
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(envelope(400, "VALIDATION_FAILED"));
    },
  );

  it("answers an empty JSON body with a 400 envelope", async () => {
    const res = await walletPost("", "application/json");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(envelope(400, "VALIDATION_FAILED"));
  });

  it.each([
    ["application/xml"],
    ["text/plain"],
    ["application/x-www-form-urlencoded"],
    ["multipart/form-data"],
  ])("answers a POST with content-type %s with a 415 envelope", async (contentType) => {
    const res = await walletPost("message=hello&signature=0x", contentType);
    expect(res.status).toBe(415);
    expect(res.body).toEqual(envelope(415, "UNSUPPORTED_MEDIA_TYPE"));
  });

  it("accepts application/json with a charset", async () => {
    const res = await walletPost(
      JSON.stringify({ message: "hello", signature: "0x" }),
      "application/json; charset=utf-8",
    );
    expect(res.status).toBe(400); // reached validation
    expect(res.body.error).toContain("body.signature");
  });
});

describe("health", () => {
  it("answers /healthz and /readyz with 200", async () => {
    const live = await call(t.app, { method: "GET", url: "/healthz" });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ success: true, data: { status: "ok" } });
    const ready = await call(t.app, { method: "GET", url: "/readyz" });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      success: true,
      data: { status: "ready", dependencies: [{ name: "database", status: "ok" }], indexers: [] },
    });
  });

  it("answers /readyz with 503 once the database is closed, while /healthz stays 200", async () => {
    const down = await createTestApp({ now: NOW });
    try {
      expect((await call(down.app, { method: "GET", url: "/readyz" })).status).toBe(200);
      await down.database.close();
      const ready = await call(down.app, { method: "GET", url: "/readyz" });
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        success: false,
        error: "Database not reachable",
        status: 503,
        code: "NOT_READY",
      });
      expect((await call(down.app, { method: "GET", url: "/healthz" })).status).toBe(200);
    } finally {
      await down.app.close(); // the database is already closed
    }
  });
});

describe("metrics", () => {
  it("counts requests by route template and status", async () => {
    expect((await call(t.app, { method: "GET", url: "/api/competition/leaderboard?week=0" })).status).toBe(
      200,
    );
    expect((await call(t.app, { method: "GET", url: "/api/competition/leaderboard?week=-1" })).status).toBe(
      400,
    );
    const put = await call(t.app, {
      method: "PUT",
      url: "/api/admin/events/metrics-ev-123",
      headers: ADMIN,
      payload: { nonsense: true },
    });
    expect(put.status).toBe(400);
    expect((await call(t.app, { method: "GET", url: "/api/no-such-route-4711" })).status).toBe(404);

    const res = await call(t.app, { method: "GET", url: "/metrics" });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    const text = res.body as string;
    expect(text).toContain("# TYPE http_requests_total counter");
    expect(text).toMatch(
      /^http_requests_total\{method="GET",route="\/api\/competition\/leaderboard",status="200"\} 1$/m,
    );
    expect(text).toMatch(
      /^http_requests_total\{method="GET",route="\/api\/competition\/leaderboard",status="400"\} 1$/m,
    );
    expect(text).toMatch(
      /^http_requests_total\{method="PUT",route="\/api\/admin\/events\/:id",status="400"\} 1$/m,
    );
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="GET",route="\/api\/competition\/leaderboard",status="200"\} 1$/m,
    );
    // Raw URLs never become labels.
    expect(text).not.toContain("metrics-ev-123");
    expect(text).not.toContain("no-such-route-4711");
    expect(text).not.toContain("week=0");
    expect(text).toContain("process_cpu_user_seconds_total");
  });
});

describe("OpenAPI", () => {
  it("serves an OpenAPI 3 document listing the competition routes", async () => {
    const res = await call(t.app, { method: "GET", url: "/docs/json" });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/competition/leaderboard",
        "/api/competition/finalize",
        "/api/competition/meta",
        "/api/auth/wallet",
        "/api/admin/events/{id}",
      ]),
    );
    expect(doc.paths["/api/competition/leaderboard"].get).toBeDefined();
    expect(doc.paths["/api/competition/finalize"].post).toBeDefined();
    // The probes and the metrics are documented too (issue 25); the web app and the docs UI are not.
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/metrics", "/healthz", "/readyz"]));
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/docs") || p === "/*")).toEqual([]);
  });

  it("serves the UI at /docs", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs" });
    expect([200, 302]).toContain(res.statusCode);
  });
});

describe("unexpected errors", () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // The real app on the shared database, plus routes that fail in unplanned ways, added before ready.
    app = await buildApp({ config: testConfig(), database: t.database, clock: new AdjustableClock(NOW) });
    app.get("/boom", async () => {
      throw new Error("connection to 10.0.0.7 failed: password authentication failed for user admin");
    });
    app.get("/boom-sql", async () => {
      await t.database.db.execute(sql`select secret_column from no_such_table where id = 1`);
      return { ok: true };
    });
    app.get("/boom-sync", () => {
      throw new TypeError("Cannot read properties of undefined (reading 'wallet')");
    });
    app.get("/boom-string", async () => {
      throw "a thrown string";
    });
    app.get("/app-error", async () => {
      throw new AppError("CONFLICT", "Something is in the way");
    });
    await app.ready();
  });
  afterAll(async () => app.close());

  it.each([["/boom"], ["/boom-sql"], ["/boom-sync"], ["/boom-string"]])(
    "answers %s with a bare 500 INTERNAL envelope that leaks nothing",
    async (url) => {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        success: false,
        error: "Internal server error",
        status: 500,
        code: "INTERNAL",
      });
      for (const leak of [
        "no_such_table",
        "secret_column",
        "select",
        "password",
        "10.0.0.7",
        "at ",
        ".ts:",
        "stack",
      ]) {
        expect(res.body).not.toContain(leak);
      }
    },
  );

  it("maps an AppError to its status and code", async () => {
    const res = await app.inject({ method: "GET", url: "/app-error" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      error: "Something is in the way",
      status: 409,
      code: "CONFLICT",
    });
  });
});
