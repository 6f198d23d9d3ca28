/**
 * Issue 11, case 6: a request that arrives while the server closes answers 503 SERVICE_UNAVAILABLE in the error
 * envelope (with retry-after), while the request already in flight finishes.
 */
import { connect } from "node:net";
import { afterAll, expect, it } from "vitest";
import { testConfig } from "../../test/app.js";
import { createTestDatabase } from "../../test/db.js";
import { buildApp } from "../app.js";
import { AdjustableClock } from "../clock.js";
import type { Database } from "../db/client.js";

let database: Database;
afterAll(async () => database?.close());

it("answers a request sent on a busy connection at shutdown with a 503 envelope", async () => {
  database = await createTestDatabase();
  const app = await buildApp({ config: testConfig(), database, clock: new AdjustableClock() });
  let release!: () => void;
  let entered!: () => void;
  const inFlight = new Promise<void>((r) => {
    entered = r;
  });
  app.get("/test/slow", async () => {
    entered();
    await new Promise<void>((r) => {
      release = r;
    });
    return { success: true, data: {} };
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as { port: number }).port;

  const socket = connect(port, "127.0.0.1");
  let raw = "";
  socket.on("data", (chunk) => {
    raw += chunk.toString();
  });
  const ended = new Promise<void>((r) => socket.on("close", () => r()));
  socket.write("GET /test/slow HTTP/1.1\r\nHost: t\r\n\r\n");
  await inFlight;
  const closed = app.close();
  await new Promise((r) => setTimeout(r, 50));
  // Sent on the busy keep-alive connection after shutdown began: the server still reads it.
  socket.write("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n");
  await new Promise((r) => setTimeout(r, 50));
  release();
  await closed;
  await ended;

  const responses = raw.split(/(?=HTTP\/1\.1 )/);
  expect(responses).toHaveLength(2);
  expect(responses[0]).toMatch(/^HTTP\/1\.1 200 /);
  expect(responses[1]).toMatch(/^HTTP\/1\.1 503 /);
  expect(responses[1]).toMatch(/\r\nretry-after: 1\r\n/i);
  const body = JSON.parse(responses[1]!.split("\r\n\r\n")[1]!);
  expect(body).toEqual({
    success: false,
    error: "The server is shutting down; retry shortly",
    status: 503,
    code: "SERVICE_UNAVAILABLE",
  });
});

it("closes a keep-alive connection once its in-flight request is answered, not at its keep-alive timeout", async () => {
  const app = await buildApp({ config: testConfig(), database, clock: new AdjustableClock() });
  let release!: () => void;
  let entered!: () => void;
  const inFlight = new Promise<void>((r) => {
    entered = r;
  });
  app.get("/test/slow", async () => {
    entered();
    await new Promise<void>((r) => {
      release = r;
    });
    return { success: true, data: {} };
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as { port: number }).port;
  const socket = connect(port, "127.0.0.1");
  let raw = "";
  socket.on("data", (chunk) => {
    raw += chunk.toString();
  });
  const ended = new Promise<number>((r) => socket.on("close", () => r(performance.now())));
  socket.write("GET /test/slow HTTP/1.1\r\nHost: t\r\nConnection: keep-alive\r\n\r\n");
  await inFlight;
  const closed = app.close();
  await new Promise((r) => setTimeout(r, 50));
  const answeredAt = performance.now();
  release();
  await closed;
  // Fastify's keep-alive timeout is 72 s: before, the connection (and so close()) waited that long.
  expect((await ended) - answeredAt).toBeLessThan(1000);
  expect(raw).toMatch(/^HTTP\/1\.1 200 /);
});
