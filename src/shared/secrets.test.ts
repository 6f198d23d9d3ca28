import { describe, expect, it } from "vitest";
import { bearerMatches, secretMatches } from "./secrets.js";

describe("secret comparison", () => {
  it("matches the expected secret only, whatever the lengths", () => {
    expect(secretMatches("s3cret-token", "s3cret-token")).toBe(true);
    expect(secretMatches("s3cret-token", "s3cret-token")).toBe(true); // the expected digest, remembered
    expect(secretMatches("s3cret-tokeN", "s3cret-token")).toBe(false);
    expect(secretMatches("s3cret", "s3cret-token")).toBe(false);
    expect(secretMatches("", "s3cret-token")).toBe(false);
    expect(secretMatches(undefined, "s3cret-token")).toBe(false);
    expect(secretMatches("other", "other")).toBe(true);
  });

  it("reads a bearer token with the scheme in any case", () => {
    expect(bearerMatches("Bearer abc", "abc")).toBe(true);
    expect(bearerMatches("bearer abc", "abc")).toBe(true);
    expect(bearerMatches("Bearer abcd", "abc")).toBe(false);
    expect(bearerMatches("Basic abc", "abc")).toBe(false);
    expect(bearerMatches("abc", "abc")).toBe(false);
    expect(bearerMatches(undefined, "abc")).toBe(false);
  });
});
