import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
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

  it("keeps the sessions signed before tokens moved from jose to fast-jwt, and signs what jose reads", async () => {
    // A cookie issued by the earlier jose signer (same claims, same header) stays valid after a deploy.
    const iat = Math.floor(SIGNED.getTime() / 1000);
    const legacy = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject("9")
      .setJti("5b0c2a8e-0f4e-4c55-9d1e-3d0b1f2a4c6e")
      .setIssuedAt(iat)
      .setExpirationTime(iat + SESSION_TTL_SECONDS)
      .sign(key);
    expect(await verifySessionToken(key, legacy, SIGNED)).toEqual({
      userId: "9",
      sessionId: "5b0c2a8e-0f4e-4c55-9d1e-3d0b1f2a4c6e",
      expiresAt: new Date((iat + SESSION_TTL_SECONDS) * 1000),
    });
    const { token, claims } = await signSessionToken(key, "9", SIGNED);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    const { payload } = await jwtVerify(token, key, { currentDate: SIGNED, algorithms: ["HS256"] });
    expect(payload).toEqual({ sub: "9", jti: claims.sessionId, iat, exp: iat + SESSION_TTL_SECONDS });
  });

  it("judges expiry by the app's clock, not the machine's", async () => {
    // Signed and checked in 2020 by the app's clock: long expired by the machine's, valid by the app's.
    const past = new Date("2020-03-02T10:00:00.000Z");
    const { token, claims } = await signSessionToken(key, "11", past);
    expect(await verifySessionToken(key, token, new Date(past.getTime() + 86_400_000))).toEqual(claims);
    // A token signed in the app's far future: valid then, and expired 7 days after.
    const future = new Date("2031-06-01T00:00:00.000Z");
    const late = await signSessionToken(key, "12", future);
    expect(await verifySessionToken(key, late.token, future)).toEqual(late.claims);
    const afterTtl = new Date(future.getTime() + SESSION_TTL_SECONDS * 1000);
    expect(await verifySessionToken(other, late.token, future)).toBeNull();
    expect(await verifySessionToken(key, late.token, afterTtl)).toBeNull();
  });
});
