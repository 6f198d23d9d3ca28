import { describe, expect, it } from "vitest";
import { SESSION_TTL_SECONDS, signSessionToken, verifySessionToken } from "./session-token.js";

const key = new TextEncoder().encode("session-token-test-secret-0123456789abcdef");
const other = new TextEncoder().encode("another-secret-0123456789abcdef0123456789");
const SIGNED = new Date("2026-11-20T12:00:00.000Z"); // Fri

describe("verifySessionToken (remembers verified tokens)", () => {
  it("answers the same before and after a token is remembered, expiry included", async () => {
    const { token, claims } = await signSessionToken(key, "42", SIGNED);
    const expMs = SIGNED.getTime() + SESSION_TTL_SECONDS * 1000;
    expect(claims.expiresAt.getTime()).toBe(expMs);
    // Expired at exp itself (jose: exp ≤ now in whole seconds), valid 1 ms before it.
    const fresh = await signSessionToken(key, "43", SIGNED);
    expect(await verifySessionToken(key, fresh.token, new Date(expMs))).toBeNull(); // not remembered yet
    expect(await verifySessionToken(key, token, new Date(expMs - 1))).toEqual(claims); // remembers it
    expect(await verifySessionToken(key, token, new Date(expMs - 1))).toEqual(claims); // from memory
    expect(await verifySessionToken(key, token, new Date(expMs))).toBeNull();
    expect(await verifySessionToken(key, token, new Date(expMs + 999))).toBeNull();
    expect(await verifySessionToken(key, token, SIGNED)).toEqual(claims);
  });

  it("does not accept a remembered token under another secret, nor a tampered one", async () => {
    const { token } = await signSessionToken(key, "7", SIGNED);
    expect(await verifySessionToken(key, token, SIGNED)).not.toBeNull();
    expect(await verifySessionToken(other, token, SIGNED)).toBeNull();
    const tampered = `${token.slice(0, -2)}${token.endsWith("A") ? "B" : "A"}A`;
    expect(await verifySessionToken(key, tampered, SIGNED)).toBeNull();
    expect(await verifySessionToken(key, tampered, SIGNED)).toBeNull();
  });
});
