import { randomBytes } from "node:crypto";
import { decodeJwt, SignJWT, UnsecuredJWT } from "jose";
import { privateKeyToAccount } from "viem/accounts";
import { type CreateSiweMessageParameters, createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, createTestApp, type TestApp, testKey } from "../../test/app.js";

// Well-known addresses of the private keys 0x…01, 0x…02 and 0x…03.
const A = privateKeyToAccount(testKey(0));
const B = privateKeyToAccount(testKey(1));
const C = privateKeyToAccount(testKey(2));
const A_ADDRESS = "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf";
const B_ADDRESS = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
const C_ADDRESS = "0x6813Eb9362372EEF6200f3b1dbC3f819671cBA69";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const DAY_MS = 24 * 3600 * 1000;

let t: TestApp;
beforeAll(async () => {
  // Generous sign-in limit: this file signs in far more than 20 times a minute from one IP.
  t = await createTestApp({ now: NOW, env: { RATE_LIMIT_AUTH_PER_MIN: "100000" } });
});
afterAll(async () => t.close());
beforeEach(() => t.clock.set(NOW));

/** The siwe_nonce cookie of the latest nonce asked for: sent along by postWallet, as a browser would. */
let nonceCookie = "";

async function getNonce(app = t.app): Promise<string> {
  const res = await call(app, { method: "GET", url: "/api/auth/nonce" });
  expect(res.status).toBe(200);
  nonceCookie = `siwe_nonce=${res.cookies.find((c) => c.name === "siwe_nonce")!.value}`;
  return res.body.data.nonce as string;
}

/** An EIP-4361 message for account A (by default) as a well-behaved client on localhost:3000 writes it. */
function siwe(nonce: string, over: Partial<CreateSiweMessageParameters> = {}): string {
  return createSiweMessage({
    address: A.address,
    chainId: 1,
    domain: "localhost:3000",
    nonce,
    uri: "http://localhost:3000",
    version: "1",
    issuedAt: t.clock.now(),
    ...over,
  });
}

function postWallet(payload: unknown, headers: Record<string, string> = {}, app = t.app) {
  const cookie = [headers.cookie, nonceCookie].filter(Boolean).join("; ");
  return call(app, {
    method: "POST",
    url: "/api/auth/wallet",
    payload: payload as object,
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });
}

/** Signs in with `account` and returns the response and the session cookie value. */
async function signInAs(account = A, over: Partial<CreateSiweMessageParameters> = {}) {
  const message = siwe(await getNonce(), { address: account.address, ...over });
  const signature = await account.signMessage({ message });
  const res = await postWallet({ message, signature });
  expect(res.status).toBe(200);
  const token = res.cookies.find((c) => c.name === "session")!.value;
  return { res, token };
}

function getSession(token: string) {
  return call(t.app, { method: "GET", url: "/api/auth/session", headers: { cookie: `session=${token}` } });
}

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ success: false, status, code });
  expect(typeof res.body.error).toBe("string");
}

describe("wallet sign-in", () => {
  it("sets the session cookie and opens a session for the checksummed wallet", async () => {
    const { res, token } = await signInAs(A);
    const user = res.body.data.user;
    expect(user).toEqual({
      id: expect.stringMatching(/^\d+$/),
      displayName: "0x7E5F…5Bdf",
      wallet: A_ADDRESS,
    });

    const cookie = res.cookies.find((c) => c.name === "session")!;
    expect(cookie).toMatchObject({ path: "/", httpOnly: true, sameSite: "Lax", maxAge: 7 * 24 * 3600 });
    expect(cookie.secure).toBeUndefined(); // Secure only in production
    const raw = String(res.headers["set-cookie"]);
    expect(raw).toMatch(/^session=[^;]+;/);
    expect(raw).toContain("Max-Age=604800");
    expect(raw).toContain("Path=/");
    expect(raw).toContain("HttpOnly");
    expect(raw).toContain("SameSite=Lax");

    const session = await getSession(token);
    expect(session.status).toBe(200);
    expect(session.body).toEqual({ success: true, data: { user } });
  });

  it("gives the same user to the same wallet, also when the message writes it in lower case", async () => {
    const first = (await signInAs(B)).res.body.data.user;
    const second = (await signInAs(B)).res.body.data.user;
    expect(second.id).toBe(first.id);

    const lower = await signInAs(B, { address: B.address.toLowerCase() as `0x${string}` });
    const user = lower.res.body.data.user;
    expect(user).toEqual({ id: first.id, displayName: "0x2B5A…D6cF", wallet: B_ADDRESS });
    expect((await getSession(lower.token)).body.data.user.wallet).toBe(B_ADDRESS);
  });

  it("gives different wallets different users", async () => {
    const a = (await signInAs(A)).res.body.data.user;
    const c = (await signInAs(C)).res.body.data.user;
    expect(c.wallet).toBe(C_ADDRESS);
    expect(c.id).not.toBe(a.id);
  });

  it("accepts every chain id of SIWE_CHAIN_IDS (default 1,8453)", async () => {
    const res = (await signInAs(A, { chainId: 8453 })).res;
    expect(res.body.data.user.wallet).toBe(A_ADDRESS);
  });

  it("uses a nonce once: the replayed message and signature get 401", async () => {
    const message = siwe(await getNonce());
    const signature = await A.signMessage({ message });
    expect((await postWallet({ message, signature })).status).toBe(200);
    const replay = await postWallet({ message, signature });
    expectError(replay, 401, "UNAUTHENTICATED");
    expect(replay.cookies).toEqual([]);
  });

  it("issues unpredictable nonces: 128 random bits in hex, none derived from the one before", async () => {
    // viem's generateSiweNonce, used before, gave each nonce as the previous one shifted by one character.
    const nonces: string[] = [];
    for (let i = 0; i < 40; i++) nonces.push(await getNonce());
    for (const n of nonces) expect(n).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(nonces).size).toBe(nonces.length);
    for (let i = 1; i < nonces.length; i++) {
      const [prev, next] = [nonces[i - 1]!, nonces[i]!];
      // Sharing a 12-character run by chance: about 40 · 21 · 21 / 16^12 ≈ 1e-10.
      expect(next.includes(prev.slice(1, 13)) || prev.includes(next.slice(1, 13)), `${prev} → ${next}`).toBe(
        false,
      );
    }
  });

  it("binds a nonce to the client that asked: without its siwe_nonce cookie it is refused, and not burnt", async () => {
    const nonce = await getNonce();
    const binding = nonceCookie;
    const cookie = (await call(t.app, { method: "GET", url: "/api/auth/nonce" })).cookies.find(
      (c) => c.name === "siwe_nonce",
    )!;
    expect(cookie).toMatchObject({ path: "/api", httpOnly: true, sameSite: "Strict", maxAge: 600 });

    // Another player who learned the nonce signs in with it, with no cookie, or with their own nonce's cookie.
    const stolen = siwe(nonce, { address: B.address });
    const stolenSig = await B.signMessage({ message: stolen });
    for (const other of ["", `siwe_nonce=${cookie.value}`]) {
      const res = await call(t.app, {
        method: "POST",
        url: "/api/auth/wallet",
        payload: { message: stolen, signature: stolenSig },
        headers: other ? { cookie: other } : {},
      });
      expectError(res, 401, "UNAUTHENTICATED");
      expect(res.body.error).toBe(
        "Sign-in refused: nonce not issued to this client (the siwe_nonce cookie of GET /api/auth/nonce)",
      );
    }
    // The client that asked still signs in with it; its nonce cookie is cleared.
    const message = siwe(nonce);
    nonceCookie = binding;
    const res = await postWallet({ message, signature: await A.signMessage({ message }) });
    expect(res.status).toBe(200);
    expect(res.cookies.find((c) => c.name === "siwe_nonce")).toMatchObject({ value: "", path: "/api" });
  });

  it("issues a different nonce each time", async () => {
    const [n1, n2] = [await getNonce(), await getNonce()];
    expect(n1).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(n2).not.toBe(n1);
  });

  it("refuses a nonce the server never issued", async () => {
    const message = siwe("abcdefgh12345678");
    expectError(
      await postWallet({ message, signature: await A.signMessage({ message }) }),
      401,
      "UNAUTHENTICATED",
    );
  });

  it("refuses a nonce older than 10 minutes", async () => {
    const nonce = await getNonce(); // issued at 12:00:00, valid until 12:10:00
    t.clock.set(new Date(NOW.getTime() + 11 * 60 * 1000)); // 12:11:00
    const message = siwe(nonce);
    expectError(
      await postWallet({ message, signature: await A.signMessage({ message }) }),
      401,
      "UNAUTHENTICATED",
    );
  });

  it("accepts a nonce just before its 10 minutes are up", async () => {
    const nonce = await getNonce();
    t.clock.set(new Date(NOW.getTime() + 10 * 60 * 1000 - 1000)); // 12:09:59
    const message = siwe(nonce);
    expect((await postWallet({ message, signature: await A.signMessage({ message }) })).status).toBe(200);
  });

  it.each<[string, (nonce: string) => string]>([
    ["another domain", (n) => siwe(n, { domain: "evil.example", uri: "https://evil.example" })],
    ["another port of the domain", (n) => siwe(n, { domain: "localhost:3001" })],
    ["a chain id not in SIWE_CHAIN_IDS", (n) => siwe(n, { chainId: 5 })],
    ["an expirationTime in the past", (n) => siwe(n, { expirationTime: new Date(NOW.getTime() - 1000) })],
    ["a notBefore in the future", (n) => siwe(n, { notBefore: new Date(NOW.getTime() + 60_000) })],
  ])("refuses a message with %s (401) and leaves its nonce unused", async (_, build) => {
    const nonce = await getNonce();
    const message = build(nonce);
    const res = await postWallet({ message, signature: await A.signMessage({ message }) });
    expectError(res, 401, "UNAUTHENTICATED");
    expect(res.cookies).toEqual([]);
    // The refused attempt did not burn the nonce: a correct message with it still signs in.
    const good = siwe(nonce);
    expect(
      (await postWallet({ message: good, signature: await A.signMessage({ message: good }) })).status,
    ).toBe(200);
  });

  it("accepts a message whose expirationTime is still ahead and whose notBefore has passed", async () => {
    const res = await signInAs(A, {
      expirationTime: new Date(NOW.getTime() + 60_000),
      notBefore: new Date(NOW.getTime() - 60_000),
    });
    expect(res.res.body.data.user.wallet).toBe(A_ADDRESS);
  });

  it("refuses a signature made by another key (401)", async () => {
    const message = siwe(await getNonce()); // claims to be A
    expectError(
      await postWallet({ message, signature: await B.signMessage({ message }) }),
      401,
      "UNAUTHENTICATED",
    );
  });

  it("refuses a well-formed but meaningless signature (401)", async () => {
    const message = siwe(await getNonce());
    expectError(await postWallet({ message, signature: `0x${"11".repeat(65)}` }), 401, "UNAUTHENTICATED");
  });

  it.each([["0x1234"], ["not-a-signature"], [`0x${"zz".repeat(65)}`], [`0x${"11".repeat(66)}`], [""]])(
    "refuses the malformed signature %j (400 naming body.signature)",
    async (signature) => {
      const res = await postWallet({ message: siwe(await getNonce()), signature });
      expectError(res, 400, "VALIDATION_FAILED");
      expect(res.body.error).toContain("body.signature");
    },
  );

  it.each([
    ["plain text", "hello world"],
    ["a SIWE message without its nonce", "localhost:3000 wants you to sign in with your Ethereum account:\n"],
  ])("refuses %s as the message (400)", async (_, message) => {
    const res = await postWallet({ message, signature: await A.signMessage({ message }) });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.error).toContain("body.message");
  });

  it("refuses unknown fields in the body (400)", async () => {
    const message = siwe(await getNonce());
    const res = await postWallet({ message, signature: await A.signMessage({ message }), admin: true });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.details).toEqual([{ field: "body.admin", message: expect.any(String) }]);
  });

  it("refuses a body without a signature (400)", async () => {
    const res = await postWallet({ message: siwe(await getNonce()) });
    expectError(res, 400, "VALIDATION_FAILED");
    expect(res.body.error).toContain("body.signature");
  });
});

describe("session cookie", () => {
  it("answers 401 when signed out", async () => {
    expectError(await call(t.app, { method: "GET", url: "/api/auth/session" }), 401, "UNAUTHENTICATED");
    expectError(await getSession("not-a-jwt"), 401, "UNAUTHENTICATED");
  });

  it("refuses a token with one character flipped", async () => {
    const { token } = await signInAs(A);
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    expectError(await getSession(`${header}.${payload}.${flip(signature, 0)}`), 401, "UNAUTHENTICATED");
    expectError(await getSession(`${header}.${flip(payload, 10)}.${signature}`), 401, "UNAUTHENTICATED");
    expect((await getSession(token)).status).toBe(200);
  });

  it("expires after 7 days", async () => {
    const { token } = await signInAs(A); // issued Fri 2026-11-20 12:00:00
    t.clock.set(new Date(NOW.getTime() + 7 * DAY_MS - 1000)); // Fri 2026-11-27 11:59:59
    expect((await getSession(token)).status).toBe(200);
    t.clock.set(new Date(NOW.getTime() + 8 * DAY_MS)); // Sat 2026-11-28 12:00
    expectError(await getSession(token), 401, "UNAUTHENTICATED");
  });

  it("refuses the same claims signed with a different secret, another HMAC or no algorithm", async () => {
    const { token } = await signInAs(A);
    const claims = decodeJwt(token);
    const build = (jwt: SignJWT | UnsecuredJWT) =>
      jwt.setSubject(claims.sub!).setJti(claims.jti!).setIssuedAt(claims.iat!).setExpirationTime(claims.exp!);

    const otherKey = new TextEncoder().encode("another-secret-0123456789abcdef0123456789");
    const foreign = await (build(new SignJWT({})) as SignJWT)
      .setProtectedHeader({ alg: "HS256" })
      .sign(otherKey);
    expectError(await getSession(foreign), 401, "UNAUTHENTICATED");

    const ourKey = new TextEncoder().encode(t.config.jwtSecret);
    const hs512 = await (build(new SignJWT({})) as SignJWT).setProtectedHeader({ alg: "HS512" }).sign(ourKey);
    expectError(await getSession(hs512), 401, "UNAUTHENTICATED");

    const none = (build(new UnsecuredJWT({})) as UnsecuredJWT).encode();
    expect(none.split(".")[2]).toBe("");
    expectError(await getSession(none), 401, "UNAUTHENTICATED");

    // alg none with a signature segment copied from the real token
    const noneHeader = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
    const [, payload, signature] = token.split(".");
    expectError(await getSession(`${noneHeader}.${payload}.${signature}`), 401, "UNAUTHENTICATED");

    // the genuine token still works
    expect((await getSession(token)).status).toBe(200);
  });

  it("refuses a correctly signed token for a session the server never opened", async () => {
    const { token } = await signInAs(A);
    const claims = decodeJwt(token);
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.sub!)
      .setJti("00000000-0000-4000-8000-000000000000")
      .setIssuedAt(claims.iat!)
      .setExpirationTime(claims.exp!)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expectError(await getSession(forged), 401, "UNAUTHENTICATED");
  });

  it("logout revokes the session server-side and clears the cookie", async () => {
    const { token } = await signInAs(A);
    const other = (await signInAs(A)).token; // a second session of the same user
    const res = await call(t.app, {
      method: "POST",
      url: "/api/auth/logout",
      headers: { cookie: `session=${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: {} });
    const cleared = res.cookies.find((c) => c.name === "session")!;
    expect(cleared.value).toBe("");
    expect(cleared.path).toBe("/");

    // The old cookie value, replayed, is refused: the revocation is on the server, not just in the browser.
    expectError(await getSession(token), 401, "UNAUTHENTICATED");
    // Logging out one session leaves the user's other sessions alone.
    expect((await getSession(other)).status).toBe(200);
  });

  it("logout while signed out is a no-op 200", async () => {
    const res = await call(t.app, { method: "POST", url: "/api/auth/logout" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: {} });
  });
});

describe("cookie-authenticated writes and Origin", () => {
  it("refuses a write from a foreign origin with 403 FORBIDDEN and changes nothing", async () => {
    const { token } = await signInAs(A);
    for (const origin of ["https://evil.example", "null", "http://localhost:3000.evil.example"]) {
      const res = await call(t.app, {
        method: "POST",
        url: "/api/auth/logout",
        headers: { cookie: `session=${token}`, origin },
      });
      expectError(res, 403, "FORBIDDEN");
    }
    expect((await getSession(token)).status).toBe(200); // the logout did not happen
  });

  it("lets a write from an allowed origin (APP_ORIGINS, default the service's own) through", async () => {
    for (const origin of ["http://localhost:3000", "http://127.0.0.1:3000"]) {
      const { token } = await signInAs(A);
      const res = await call(t.app, {
        method: "POST",
        url: "/api/auth/logout",
        headers: { cookie: `session=${token}`, origin },
      });
      expect(res.status).toBe(200);
      expectError(await getSession(token), 401, "UNAUTHENTICATED");
    }
  });

  it("does not apply to requests without a session cookie", async () => {
    const message = siwe(await getNonce());
    const res = await postWallet(
      { message, signature: await A.signMessage({ message }) },
      { origin: "https://evil.example" },
    );
    expect(res.status).toBe(200);
  });

  it("leaves reads from a foreign origin alone", async () => {
    const { token } = await signInAs(A);
    const res = await call(t.app, {
      method: "GET",
      url: "/api/auth/session",
      headers: { cookie: `session=${token}`, origin: "https://evil.example" },
    });
    expect(res.status).toBe(200);
  });
});

describe("in production", () => {
  it("marks the session cookie Secure", async () => {
    // A second app on the same database, configured as production.
    const prod = await createTestApp({
      now: NOW,
      database: t.database,
      env: {
        NODE_ENV: "production",
        TEST_CLOCK: "",
        LOG_LEVEL: "silent",
        // Production refuses secrets written in the repository (the test app's are): fresh ones.
        FINALIZE_SECRET: randomBytes(16).toString("hex"),
        ADMIN_TOKEN: randomBytes(16).toString("hex"),
        JWT_SECRET: randomBytes(32).toString("hex"),
      },
    });
    try {
      const message = siwe(await getNonce(prod.app));
      const res = await postWallet({ message, signature: await A.signMessage({ message }) }, {}, prod.app);
      expect(res.status).toBe(200);
      const cookie = res.cookies.find((c) => c.name === "session")!;
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/" });
    } finally {
      await prod.close();
    }
  });
});
