import { Ajv } from "ajv";
import Fastify from "fastify";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { Nullable, StringEnum, UsdcString } from "./schema-types.js";

const ajv = new Ajv({ strict: false });

describe("Nullable", () => {
  it("adds null to a plain type's list (and to its enum), keeping its constraints and description", () => {
    expect(Nullable(Type.String({ description: "a wallet" }))).toEqual({
      type: ["string", "null"],
      description: "a wallet",
    });
    expect(Nullable(UsdcString())).toMatchObject({ type: ["string", "null"], pattern: "^\\d+\\.\\d{6}$" });
    expect(Nullable(StringEnum(["qualification", "champions"]))).toEqual({
      type: ["string", "null"],
      enum: ["qualification", "champions", null],
    });
    expect(Nullable(Type.Integer({ minimum: 1 }))).toEqual({ type: ["integer", "null"], minimum: 1 });
  });

  it("keeps the anyOf for a union, a $ref and a titled schema (a named component that must stay non-null)", () => {
    const titled = Type.Object({ week: Type.Integer() }, { title: "PrizeClaim" });
    expect(Nullable(titled)).toMatchObject({ anyOf: [titled, { type: "null" }] });
    const union = Type.Union([Type.String(), Type.Integer()]);
    expect(Nullable(union)).toMatchObject({ anyOf: [union, { type: "null" }] });
    expect(Nullable(Type.Ref("Other"))).toMatchObject({ anyOf: [{ $ref: "Other" }, { type: "null" }] });
  });

  it("accepts exactly what T | null accepts", () => {
    const usdc = ajv.compile(Nullable(UsdcString()));
    expect([usdc(null), usdc("1.500000"), usdc("1.5"), usdc(1.5), usdc(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    const via = ajv.compile(Nullable(StringEnum(["qualification", "champions"])));
    expect([via(null), via("champions"), via("other"), via("")]).toEqual([true, true, false, false]);
    const rank = ajv.compile(Nullable(Type.Integer({ minimum: 1 })));
    expect([rank(null), rank(1), rank(0), rank(1.5), rank("1")]).toEqual([true, true, false, false, false]);
    const item = ajv.compile(
      Nullable(Type.Object({ week: Type.Integer() }, { additionalProperties: false })),
    );
    expect([item(null), item({ week: 3 }), item({ week: "3" }), item({}), item([])]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it("is written by a route's response serializer as JSON.stringify writes it", async () => {
    const Row = Type.Object({
      wallet: Nullable(Type.String()),
      prizeUsdc: Nullable(UsdcString()),
      via: Nullable(StringEnum(["qualification", "champions"])),
      rank: Nullable(Type.Integer()),
      claim: Nullable(Type.Object({ week: Type.Integer() })),
    });
    const rows = [
      { wallet: "0xAbC", prizeUsdc: "12.500000", via: "champions", rank: 3, claim: { week: 2 } },
      { wallet: null, prizeUsdc: null, via: null, rank: null, claim: null },
    ];
    const app = Fastify();
    app.get("/rows", { schema: { response: { 200: Type.Array(Row) } } }, async () => rows);
    const res = await app.inject("/rows");
    await app.close();
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify(rows));
  });
});
