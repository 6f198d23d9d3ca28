/**
 * Third-party identity login over HTTP (SPEC §6 Users and sign-in, §9 POST /api/auth/oidc): ID tokens from a
 * local identity provider (an RS256 key served as a JWKS on a loopback port) are verified for issuer, audience,
 * expiry and signature; identities map to one user each, link to a signed-in wallet account, and log out.
 *
 * One database for the whole file, served by `t` (identity login configured) and `plain` (not configured).
 * Tokens are issued relative to the app's clock, pinned at Fri 2026-11-20 12:00 UTC.
 */
import { createHash } from "node:crypto";
import { generateKeyPair, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, createTestApp, signIn, type TestApp, testKey } from "../../test/app.js";
import { NO_RATE_LIMITS } from "../../test/competition-api.js";
import { buildBetBody } from "../../test/factories.js";
import { freePort } from "../../test/free-port.js";
import { OIDC_AUDIENCE, OIDC_ISSUER, startTestIssuer, type TestIssuer } from "../../test/oidc-issuer.js";
import { bet, dataOf, expectError, putEvent } from "../../test/player-api.js";

const NOW = new Date("2026-11-20T12:00:00.000Z"); // Fri, week 2
const NOW_S = Math.floor(NOW.getTime() / 1000);

let issuer: TestIssuer;
let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  issuer = await startTestIssuer({ now: () => t.clock.now() });
  t = await createTestApp({ now: NOW, env: { ...NO_RATE_LIMITS, ...issuer.env } });
  plain = await createTestApp({ now: NOW, database: t.database, env: NO_RATE_LIMITS });
  await putEvent(t, "oidc-ev");
});
afterAll(async () => {
  await plain?.close();
  await t?.close();
  await issuer?.close();
});
beforeEach(() => t.clock.set(NOW));

const postOidc = (idToken: string, cookie?: string, app = t) =>
  call(app.app, {
    method: "POST",
    url: "/api/auth/oidc",
    payload: { idToken },
    headers: cookie ? { cookie } : {},
  });

/** Signs in with an ID token that must be accepted; returns the user and the session cookie header. */
async function signInOidc(idToken: string, cookie?: string) {
  const res = await postOidc(idToken, cookie);
  const data = dataOf(res);
  const session = res.cookies.find((c) => c.name === "session")!;
  return { user: data.user, cookie: `session=${session.value}`, res };
}

const session = (cookie: string) =>
  call(t.app, { method: "GET", url: "/api/auth/session", headers: { cookie } });

describe("the identity provider's key set out of reach", () => {
  it("answers 503 SERVICE_UNAVAILABLE with retry-after, not 401, for a token it cannot check", async () => {
    // Before: every failure of the key set's fetch was "ID token invalid" (401), for a valid token.
    const unreachable = await createTestApp({
      now: NOW,
      database: t.database,
      env: { ...NO_RATE_LIMITS, ...issuer.env, OIDC_JWKS_URL: `http://127.0.0.1:${await freePort()}/jwks` },
    });
    try {
      const res = await postOidc(await issuer.token("oidc-unreachable", NOW), undefined, unreachable);
      expectError(res, 503, "SERVICE_UNAVAILABLE");
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.cookies.find((c) => c.name === "session")).toBeUndefined();
    } finally {
      await unreachable.close();
    }
  });
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Asserts a refused sign-in: 401 envelope and no session cookie. */
function expectRefused(res: Awaited<ReturnType<typeof postOidc>>) {
  expectError(res, 401, "UNAUTHENTICATED");
  expect(res.cookies.filter((c) => c.name === "session")).toEqual([]);
}

describe("POST /api/auth/oidc with a valid ID token", () => {
  it("signs the identity in: user, session cookie, and the session works", async () => {
    const { user, cookie, res } = await signInOidc(
      await issuer.token("alice", NOW, { name: "Alice Example" }),
    );
    expect(user).toEqual({ id: expect.stringMatching(/^\d+$/), displayName: "Alice Example", wallet: null });
    const raw = res.cookies.find((c) => c.name === "session")!;
    expect(raw).toMatchObject({ path: "/", httpOnly: true, sameSite: "Lax", maxAge: 7 * 24 * 3600 });
    expect(dataOf(await session(cookie))).toEqual({ user });
  });

  it("gives the same (issuer, subject) the same user, another subject another user", async () => {
    const first = await signInOidc(await issuer.token("bob", NOW));
    t.clock.set(new Date(NOW.getTime() + 3600_000)); // an hour later, with a fresh token
    const again = await signInOidc(await issuer.token("bob", t.clock.now()));
    expect(again.user).toEqual(first.user);
    // Without a name claim: "Player " + the first 6 hex digits of sha256(sub).
    const hash = createHash("sha256").update("bob").digest("hex").slice(0, 6);
    expect(first.user.displayName).toBe(`Player ${hash}`);
    const other = await signInOidc(await issuer.token("bobby", t.clock.now()));
    expect(other.user.id).not.toBe(first.user.id);
  });

  it("starts a new user with WELCOME_CREDITS (1000), granted once", async () => {
    const first = await signInOidc(await issuer.token("carol", NOW));
    await signInOidc(await issuer.token("carol", NOW)); // a second sign-in grants nothing
    const stake = (stake: number) => bet(t, first.cookie, buildBetBody("oidc-ev", { stake }));
    expectError(await stake(1001), 409, "INSUFFICIENT_CREDITS");
    expect(dataOf(await stake(1000), 201).balance).toBe(0); // 1000 − 1000
  });
});

describe("POST /api/auth/oidc refuses invalid tokens with 401", () => {
  it("refuses an expired token, and one not yet valid", async () => {
    expectRefused(await postOidc(await issuer.token("dave", NOW, { iat: NOW_S - 7200, exp: NOW_S - 1 })));
    expectRefused(await postOidc(await issuer.token("dave", NOW, { nbf: NOW_S + 600 })));
    // The same token is fine while it lasts: exp one second after now.
    dataOf(await postOidc(await issuer.token("dave", NOW, { iat: NOW_S - 7200, exp: NOW_S + 1 })));
    t.clock.set(new Date((NOW_S + 1) * 1000)); // exp itself is already too late
    expectRefused(await postOidc(await issuer.token("dave", NOW, { iat: NOW_S - 7200, exp: NOW_S + 1 })));
  });

  it("refuses a token issued more than a minute in the future, and takes one within", async () => {
    // Before: accepted (jose checks iat only with a maximum token age).
    expectRefused(await postOidc(await issuer.token("grace", NOW, { iat: NOW_S + 3600, exp: NOW_S + 7200 })));
    dataOf(await postOidc(await issuer.token("grace", NOW, { iat: NOW_S + 30, exp: NOW_S + 3600 })));
  });

  it("refuses a token for another audience or from another issuer", async () => {
    expectRefused(await postOidc(await issuer.token("erin", NOW, { aud: "someone-else" })));
    expectRefused(await postOidc(await issuer.token("erin", NOW, { aud: [`${OIDC_AUDIENCE}-x`] })));
    expectRefused(await postOidc(await issuer.token("erin", NOW, { iss: "https://evil.example" })));
    expectRefused(await postOidc(await issuer.token("erin", NOW, { iss: `${OIDC_ISSUER}/` })));
    // One audience among several is fine.
    dataOf(await postOidc(await issuer.token("erin", NOW, { aud: ["other", OIDC_AUDIENCE] })));
  });

  it("refuses a token without sub, exp or iat", async () => {
    expectRefused(await postOidc(await issuer.token("", NOW)));
    expectRefused(await postOidc(await issuer.token("frank", NOW, { exp: undefined })));
    expectRefused(await postOidc(await issuer.token("frank", NOW, { iat: undefined })));
  });

  it("refuses a key id the issuer does not publish and a signature by another key", async () => {
    expectRefused(await postOidc(await issuer.token("gina", NOW, {}, { kid: "unknown-kid" })));
    const { privateKey: stranger } = await generateKeyPair("RS256");
    expectRefused(await postOidc(await issuer.token("gina", NOW, {}, { key: stranger })));
    // A valid token with its signature swapped for another token's.
    const good = await issuer.token("gina", NOW);
    const other = await issuer.token("gina-2", NOW);
    expectRefused(await postOidc(`${good.split(".").slice(0, 2).join(".")}.${other.split(".")[2]}`));
  });

  it('refuses unsigned tokens (alg "none"), crafted by hand and by jose', async () => {
    const claims = { iss: OIDC_ISSUER, aud: OIDC_AUDIENCE, sub: "mallory", iat: NOW_S, exp: NOW_S + 3600 };
    expectRefused(await postOidc(`${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`));
    expectRefused(await postOidc(`${b64({ alg: "none", kid: issuer.kid })}.${b64(claims)}.`));
    expectRefused(await postOidc(`${b64({ alg: "None" })}.${b64(claims)}.`));
    expectRefused(await postOidc(new UnsecuredJWT(claims).encode()));
  });

  it("refuses HS256 tokens, whatever secret was guessed", async () => {
    const claims = { iss: OIDC_ISSUER, aud: OIDC_AUDIENCE, sub: "mallory", iat: NOW_S, exp: NOW_S + 3600 };
    const jwks = (await (await fetch(issuer.env.OIDC_JWKS_URL)).json()) as { keys: unknown[] };
    const guesses = [
      new TextEncoder().encode("secret"),
      new TextEncoder().encode(OIDC_AUDIENCE),
      new TextEncoder().encode(JSON.stringify(jwks.keys[0])), // the public key as the HMAC secret
    ];
    for (const secret of guesses) {
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", kid: issuer.kid })
        .sign(secret);
      expectRefused(await postOidc(token));
    }
  });

  it("refuses garbage and validates the body", async () => {
    expectRefused(await postOidc("not-a-jwt"));
    expectRefused(await postOidc("a.b.c"));
    const empty = await call(t.app, { method: "POST", url: "/api/auth/oidc", payload: {} });
    expectError(empty, 400, "VALIDATION_FAILED");
    expect(empty.body.error).toContain("body.idToken");
  });
});

describe("GET /api/auth/providers", () => {
  it("tells a sign-in page the wallet chains and how to start the identity provider's sign-in", async () => {
    expect(dataOf(await call(t.app, { method: "GET", url: "/api/auth/providers" }))).toEqual({
      wallet: { chainIds: [1, 8453] },
      oidc: {
        issuer: OIDC_ISSUER,
        clientId: OIDC_AUDIENCE,
        authorizationUrl: issuer.env.OIDC_AUTHORIZATION_URL,
        scope: "openid profile",
      },
    });
  });

  it("answers oidc: null when identity login is off", async () => {
    expect(dataOf(await call(plain.app, { method: "GET", url: "/api/auth/providers" }))).toEqual({
      wallet: { chainIds: [1, 8453] },
      oidc: null,
    });
  });
});

describe("the test issuer's authorization endpoint (what the web page's identity button uses)", () => {
  it("redirects back with an ID token carrying the nonce, which signs the player in", async () => {
    issuer.signInAs = { sub: "browser-sub-1", name: "Browser Player" };
    const url = new URL(issuer.env.OIDC_AUTHORIZATION_URL);
    url.search = new URLSearchParams({
      response_type: "id_token",
      client_id: OIDC_AUDIENCE,
      scope: "openid profile",
      redirect_uri: "http://127.0.0.1:3000/",
      state: "s-1",
      nonce: "n-1",
    }).toString();
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get("location")!);
    expect(`${back.origin}${back.pathname}`).toBe("http://127.0.0.1:3000/");
    const fragment = new URLSearchParams(back.hash.slice(1));
    expect(fragment.get("state")).toBe("s-1");
    const idToken = fragment.get("id_token")!;
    const claims = JSON.parse(Buffer.from(idToken.split(".")[1]!, "base64url").toString());
    expect(claims).toMatchObject({ sub: "browser-sub-1", name: "Browser Player", nonce: "n-1" });
    const { user } = await signInOidc(idToken);
    expect(user.displayName).toBe("Browser Player");

    url.searchParams.set("client_id", "someone-else");
    expect((await fetch(url, { redirect: "manual" })).status).toBe(400);
  });
});

describe("identity login not configured", () => {
  it("answers 404 even for a token that would be valid", async () => {
    const res = await postOidc(await issuer.token("henry", NOW), undefined, plain);
    expectError(res, 404, "NOT_FOUND");
    expect(res.cookies).toEqual([]);
  });
});

describe("linking an identity to a wallet account", () => {
  it("links a new identity to the signed-in wallet user; later the identity alone signs that user in", async () => {
    const wallet = await signIn(t, testKey(700));
    const linked = await signInOidc(await issuer.token("ivy", NOW, { name: "Ivy" }), wallet.cookie);
    expect(linked.user).toEqual({
      id: wallet.userId,
      displayName: expect.any(String),
      wallet: wallet.wallet,
    });

    const alone = await signInOidc(await issuer.token("ivy", NOW));
    expect(alone.user).toEqual(linked.user);
    expect(dataOf(await session(alone.cookie)).user.id).toBe(wallet.userId);
    // One user, one welcome grant: 1000 credits, not 2000.
    const stake = (stake: number) => bet(t, alone.cookie, buildBetBody("oidc-ev", { stake }));
    expectError(await stake(1001), 409, "INSUFFICIENT_CREDITS");
    expect(dataOf(await stake(1000), 201).balance).toBe(0);
  });

  it("does not move an identity that already belongs to another user", async () => {
    const owner = await signInOidc(await issuer.token("jack", NOW));
    const wallet = await signIn(t, testKey(701));
    // Signing in with jack's identity while signed in as the wallet user gives jack's account, unchanged.
    const res = await signInOidc(await issuer.token("jack", NOW), wallet.cookie);
    expect(res.user).toEqual(owner.user);
    expect(res.user.wallet).toBeNull();
    expect(dataOf(await session(wallet.cookie)).user).toMatchObject({
      id: wallet.userId,
      wallet: wallet.wallet,
    });
  });
});

describe("logout", () => {
  it("revokes the session: the old cookie gets 401, other sessions live on", async () => {
    const a = await signInOidc(await issuer.token("kate", NOW));
    const b = await signInOidc(await issuer.token("kate", NOW));
    expect(dataOf(await session(a.cookie)).user.id).toBe(a.user.id);

    const out = await call(t.app, { method: "POST", url: "/api/auth/logout", headers: { cookie: a.cookie } });
    expect(dataOf(out)).toEqual({});
    const cleared = out.cookies.find((c) => c.name === "session")!;
    expect(cleared.value).toBe("");

    expectError(await session(a.cookie), 401, "UNAUTHENTICATED");
    expectError(await bet(t, a.cookie, buildBetBody("oidc-ev", { stake: 1 })), 401, "UNAUTHENTICATED");
    expect(dataOf(await session(b.cookie)).user.id).toBe(a.user.id);
    // Logging out without a session is harmless.
    expect(dataOf(await call(t.app, { method: "POST", url: "/api/auth/logout" }))).toEqual({});
  });
});
