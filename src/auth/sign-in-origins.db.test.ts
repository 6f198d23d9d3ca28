/**
 * Sign-in on any local address (SPEC §12, issue 24): with SIWE_DOMAINS / APP_ORIGINS unset, the accepted domains
 * and origins are localhost and 127.0.0.1 of the port the server actually listens on (PORT=0 picks it at listen
 * time), plus PUBLIC_URL's host; `GET /api/auth/nonce` names the domain to sign for, the request's Host when it is
 * accepted. Before this change the defaults were `localhost:3000` only: opened at 127.0.0.1, or on any other port,
 * the page's sign-in was refused.
 */
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterEach, describe, expect, it } from "vitest";
import { call, createTestApp, type TestApp, testKey } from "../../test/app.js";
import { expectError } from "../../test/player-api.js";
import { defaultDomains, defaultOrigins, domainToSign } from "./origins.js";

const NOW = new Date("2026-11-20T12:00:00.000Z");
const account = privateKeyToAccount(testKey(40));

let t: TestApp | null = null;
afterEach(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
  t = null;
});

const message = (nonce: string, domain: string, uri = `http://${domain}`) =>
  createSiweMessage({
    address: account.address,
    chainId: 1,
    domain,
    nonce,
    uri,
    version: "1",
    issuedAt: NOW,
  });

/** Real HTTP to a listening app: the Host header is the address the client used. */
async function http(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]!);
  return {
    status: res.status,
    body: (await res.json()) as any,
    setCookie: cookies.find((c) => c.startsWith("session=")) ?? null,
    /** The siwe_nonce cookie a nonce answer sets, to send back with the sign-in. */
    nonceCookie: cookies.find((c) => c.startsWith("siwe_nonce=")) ?? "",
  };
}

/** The nonce and its siwe_nonce cookie header of an injected GET /api/auth/nonce. */
async function injectedNonce(app: TestApp["app"], host: string) {
  const res = await call(app, { method: "GET", url: "/api/auth/nonce", headers: { host } });
  const binding = res.cookies.find((c) => c.name === "siwe_nonce")!;
  return { ...(res.body.data as { nonce: string; domain: string }), cookie: `siwe_nonce=${binding.value}` };
}

describe("the default domains and origins (pure)", () => {
  it("are localhost and 127.0.0.1 of the port, plus PUBLIC_URL's host or origin", () => {
    expect(defaultDomains(41234, null)).toEqual(["localhost:41234", "127.0.0.1:41234"]);
    expect(defaultDomains(8080, "https://Play.Example.com/path")).toEqual([
      "localhost:8080",
      "127.0.0.1:8080",
      "play.example.com",
    ]);
    expect(defaultDomains(8080, "http://localhost:8080")).toEqual(["localhost:8080", "127.0.0.1:8080"]);
    expect(defaultOrigins(8080, "https://play.example.com:8443/")).toEqual([
      "http://localhost:8080",
      "http://127.0.0.1:8080",
      "https://play.example.com:8443",
    ]);
  });

  it("sign for the request's host when accepted, otherwise for the first accepted domain", () => {
    const accepted = ["localhost:3000", "127.0.0.1:3000"];
    expect(domainToSign(accepted, "127.0.0.1:3000")).toBe("127.0.0.1:3000");
    expect(domainToSign(accepted, "LOCALHOST:3000")).toBe("localhost:3000");
    expect(domainToSign(accepted, "evil.example")).toBe("localhost:3000");
    expect(domainToSign(accepted, "127.0.0.1:3001")).toBe("localhost:3000");
    expect(domainToSign(accepted, undefined)).toBe("localhost:3000");
  });
});

describe("sign-in on a random port (PORT=0), over HTTP", () => {
  it("names 127.0.0.1:<port> to sign for, signs in with it, and accepts cookie writes from that origin", async () => {
    t = await createTestApp({ now: NOW, env: { PORT: "0" } });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}`;
    const own = `127.0.0.1:${port}`;

    const nonce = await http(base, "/api/auth/nonce");
    expect(nonce.status).toBe(200);
    expect(nonce.body.data.domain).toBe(own);

    // The domain of the old default (localhost:3000) is refused: this server does not listen there.
    const stale = message(nonce.body.data.nonce, "localhost:3000");
    const refused = await http(base, "/api/auth/wallet", {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, cookie: nonce.nonceCookie },
      body: JSON.stringify({ message: stale, signature: await account.signMessage({ message: stale }) }),
    });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe(`Sign-in refused: domain must be one of localhost:${port}, ${own}`);

    const m = message(nonce.body.data.nonce, own);
    const ok = await http(base, "/api/auth/wallet", {
      method: "POST",
      headers: { "content-type": "application/json", origin: base, cookie: nonce.nonceCookie },
      body: JSON.stringify({ message: m, signature: await account.signMessage({ message: m }) }),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.wallet).toBe(account.address);
    const cookie = ok.setCookie!;

    // A cookie-authenticated write from the page's origin passes; from the old default origin it is refused.
    const foreign = await http(base, "/api/reclaim", {
      method: "POST",
      headers: { cookie, origin: "http://localhost:3000" },
    });
    expect(foreign.status).toBe(403);
    const reclaim = await http(base, "/api/reclaim", { method: "POST", headers: { cookie, origin: base } });
    expect(reclaim.status).toBe(200);

    // Opened at localhost:<port>, the page is told to sign for that.
    const local = await http(`http://localhost:${port}`, "/api/auth/nonce").catch(() => null);
    if (local) expect(local.body.data.domain).toBe(`localhost:${port}`); // where localhost resolves to 127.0.0.1
  });
});

describe("the nonce's domain (inject)", () => {
  it("is the Host when accepted, else the first accepted domain; a message for it signs in", async () => {
    t = await createTestApp({ now: NOW });
    const nonceAt = async (host: string) =>
      (await call(t!.app, { method: "GET", url: "/api/auth/nonce", headers: { host } })).body.data;
    expect((await nonceAt("127.0.0.1:3000")).domain).toBe("127.0.0.1:3000");
    expect((await nonceAt("localhost:3000")).domain).toBe("localhost:3000");
    expect((await nonceAt("evil.example")).domain).toBe("localhost:3000");

    const { nonce, domain, cookie } = await injectedNonce(t.app, "127.0.0.1:3000");
    const m = message(nonce, domain);
    const res = await call(t.app, {
      method: "POST",
      url: "/api/auth/wallet",
      payload: { message: m, signature: await account.signMessage({ message: m }) },
      headers: { cookie },
    });
    expect(res.status).toBe(200);
  });

  it("follows PUBLIC_URL: its host is accepted and its origin may write", async () => {
    t = await createTestApp({ now: NOW, env: { PUBLIC_URL: "https://play.example.com" } });
    const { nonce, domain, cookie: nonceCookie } = await injectedNonce(t.app, "play.example.com");
    expect(domain).toBe("play.example.com");
    const m = message(nonce, domain, "https://play.example.com");
    const res = await call(t.app, {
      method: "POST",
      url: "/api/auth/wallet",
      payload: { message: m, signature: await account.signMessage({ message: m }) },
      headers: { cookie: nonceCookie },
    });
    expect(res.status).toBe(200);
    const cookie = `session=${res.cookies.find((c) => c.name === "session")!.value}`;
    const write = await call(t.app, {
      method: "POST",
      url: "/api/reclaim",
      headers: { cookie, origin: "https://play.example.com" },
    });
    expect(write.status).toBe(200);
  });

  it("uses SIWE_DOMAINS as given, and the older SIWE_DOMAIN as a list of one", async () => {
    t = await createTestApp({
      now: NOW,
      env: { SIWE_DOMAINS: "a.example,b.example:8443", APP_ORIGINS: "https://b.example:8443" },
    });
    const at = async (host: string) =>
      (await call(t!.app, { method: "GET", url: "/api/auth/nonce", headers: { host } })).body.data;
    expect((await at("b.example:8443")).domain).toBe("b.example:8443");
    expect((await at("localhost:3000")).domain).toBe("a.example");
    const { nonce, cookie } = await injectedNonce(t.app, "localhost:3000");
    const m = message(nonce, "localhost:3000");
    const res = await call(t.app, {
      method: "POST",
      url: "/api/auth/wallet",
      payload: { message: m, signature: await account.signMessage({ message: m }) },
      headers: { cookie },
    });
    expectError(res, 401, "UNAUTHENTICATED");
    await t.close();

    t = await createTestApp({ now: NOW, env: { SIWE_DOMAIN: "old.example" } });
    expect((await at("localhost:3000")).domain).toBe("old.example");
  });
});
