import { brotliDecompressSync, gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerCaching, tagEncodedBodies } from "./caching.js";
import { registerCompression } from "./compression.js";
import { encodedAs, sendShared } from "./shared-representation.js";

/** An app with the real caching and compression hooks and one route answering a shared value. */
async function appSharing(value: { rows: number[] }, built: { count: number }) {
  const app = Fastify();
  registerCaching(app);
  await registerCompression(app);
  tagEncodedBodies(app);
  const schema = {
    response: {
      200: {
        type: "object",
        properties: { rows: { type: "array", items: { type: "integer" } } },
      },
    },
  };
  app.get("/api/shared", { schema, config: { cache: "revalidate" } }, async (_request, reply) =>
    sendShared(reply, value, () => {
      built.count++;
      // The serializer writes only what the schema names.
      return { ...value, secret: "not in the schema" };
    }),
  );
  return app;
}

describe("a shared representation", () => {
  it("is serialized once for every request answering the same value, and sent as the serializer wrote it", async () => {
    const value = { rows: Array.from({ length: 400 }, (_, i) => i * 7) };
    const built = { count: 0 };
    const app = await appSharing(value, built);
    try {
      const expected = JSON.stringify({ rows: value.rows });
      const first = await app.inject({ method: "GET", url: "/api/shared" });
      const second = await app.inject({ method: "GET", url: "/api/shared" });
      expect(built.count).toBe(1);
      expect(first.body).toBe(expected);
      expect(second.body).toBe(expected);
      expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(first.headers["content-length"]).toBe(String(Buffer.byteLength(expected)));
      expect(first.headers.etag).toMatch(/^"[\w-]{32}"$/);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(first.headers["cache-control"]).toBe("public, no-cache");
    } finally {
      await app.close();
    }
  });

  it("is compressed in the coding the client prefers, with its tag, Vary and a 304 for the tag held", async () => {
    const value = { rows: Array.from({ length: 400 }, (_, i) => i) };
    const app = await appSharing(value, { count: 0 });
    try {
      const plain = await app.inject({ method: "GET", url: "/api/shared" });
      const etag = String(plain.headers.etag);
      const br = await app.inject({
        method: "GET",
        url: "/api/shared",
        headers: { "accept-encoding": "gzip, deflate, br" },
      });
      expect(br.headers["content-encoding"]).toBe("br");
      expect(br.headers.vary).toBe("accept-encoding");
      expect(br.headers.etag).toBe(`${etag.slice(0, -1)}-br"`);
      expect(br.headers["content-length"]).toBe(String(br.rawPayload.length));
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

      // `*` and x-gzip read as gzip, as @fastify/compress reads them; gzip preferred by its q-value.
      for (const accept of ["x-gzip", "gzip;q=1, br;q=0.5"]) {
        const gzip = await app.inject({
          method: "GET",
          url: "/api/shared",
          headers: { "accept-encoding": accept },
        });
        expect(gzip.headers["content-encoding"]).toBe("gzip");
        expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
        expect(gzip.headers.etag).toBe(`${etag.slice(0, -1)}-gzip"`);
      }
      const refused = await app.inject({
        method: "GET",
        url: "/api/shared",
        headers: { "accept-encoding": "br", "x-no-compression": "1" },
      });
      expect(refused.headers["content-encoding"]).toBeUndefined();
      expect(refused.body).toBe(plain.body);

      const held = await app.inject({
        method: "GET",
        url: "/api/shared",
        headers: { "accept-encoding": "br", "if-none-match": String(br.headers.etag) },
      });
      expect(held.statusCode).toBe(304);
      expect(held.rawPayload.length).toBe(0);
      expect(held.headers["content-encoding"]).toBeUndefined();
      expect(held.headers.etag).toBe(br.headers.etag);
    } finally {
      await app.close();
    }
  });

  it("encodes each coding once", () => {
    let encoded = 0;
    const encode = (json: Buffer) => {
      encoded++;
      return Buffer.concat([json, json]);
    };
    const representation = { json: Buffer.from("[1]"), hash: "h", encoded: {} };
    expect(encodedAs(representation, "br", encode).toString()).toBe("[1][1]");
    expect(encodedAs(representation, "br", encode).toString()).toBe("[1][1]");
    expect(encoded).toBe(1);
  });
});
