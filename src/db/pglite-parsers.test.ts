import type { ParserOptions, QueryOptions } from "@electric-sql/pglite";
import { NoopLogger } from "drizzle-orm";
import { PglitePreparedQuery } from "drizzle-orm/pglite";
import { describe, expect, it } from "vitest";
import { OWN_PARSERS, ownParsersDropped } from "./pglite-parsers.js";

/** The options drizzle-orm/pglite passes with a query that maps rows (`queryConfig`) and with a raw one. */
function drizzleOptions(): QueryOptions[] {
  const prepared = new PglitePreparedQuery(
    {} as never,
    "select 1",
    [],
    new NoopLogger(),
    undefined as never,
    undefined,
    undefined,
    undefined,
    undefined,
    false,
  ) as unknown as { queryConfig: QueryOptions; rawQueryConfig: QueryOptions };
  return [prepared.queryConfig, prepared.rawQueryConfig];
}

const TIMESTAMPTZ = 1184;
const TIMESTAMP_ARRAY = 1115;

describe("ownParsersDropped", () => {
  it("drops the parsers drizzle-orm/pglite sends with every query, keeping the row mode", () => {
    const clientParsers: ParserOptions = { ...OWN_PARSERS };
    const [mapped, raw] = drizzleOptions();
    expect(Object.keys(mapped!.parsers!).sort()).toEqual(Object.keys(OWN_PARSERS).sort());
    expect(ownParsersDropped(clientParsers, mapped)).toEqual({ rowMode: "array" });
    expect(ownParsersDropped(clientParsers, raw)).toEqual({ rowMode: "object" });
  });

  it("keeps options without parsers as they are", () => {
    const options: QueryOptions = { rowMode: "array" };
    expect(ownParsersDropped({ ...OWN_PARSERS }, options)).toBe(options);
    expect(ownParsersDropped({ ...OWN_PARSERS }, undefined)).toBeUndefined();
  });

  it("keeps a parser that changes the text (a real parse is asked for)", () => {
    const options: QueryOptions = { parsers: { [TIMESTAMPTZ]: (text: string) => new Date(text) } };
    expect(ownParsersDropped({ ...OWN_PARSERS }, options)).toBe(options);
  });

  it("keeps a parser for a type the client does not keep as text", () => {
    const options: QueryOptions = { parsers: { 20: (text: string) => text } };
    expect(ownParsersDropped({ ...OWN_PARSERS }, options)).toBe(options);
  });

  it("keeps the option once the client's own parser for a type was replaced (PGlite reloading its array types)", () => {
    const [mapped] = drizzleOptions();
    const reloaded: ParserOptions = { ...OWN_PARSERS, [TIMESTAMP_ARRAY]: (text: string) => text.split(",") };
    expect(ownParsersDropped(reloaded, mapped)).toBe(mapped);
  });
});
