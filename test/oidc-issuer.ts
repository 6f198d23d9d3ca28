/**
 * A local OIDC identity provider for tests: an RS256 key pair whose public JWK (with a kid) is served as a JWKS
 * from a loopback HTTP server, a function that signs ID tokens with it, and an authorization endpoint for the
 * browser (`GET /authorize`, the implicit flow with `response_type=id_token`): it signs the player in as
 * `signInAs` at once (no login form) and redirects to `redirect_uri#id_token=…&state=…`.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";

export const OIDC_ISSUER = "https://id.test.example";
export const OIDC_AUDIENCE = "sp-competition-test";

export interface TestIssuer {
  /** OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URL and OIDC_AUTHORIZATION_URL for createTestApp({env}). */
  env: { OIDC_ISSUER: string; OIDC_AUDIENCE: string; OIDC_JWKS_URL: string; OIDC_AUTHORIZATION_URL: string };
  /** Who `/authorize` signs in (change it between sign-ins). */
  signInAs: { sub: string; name: string };
  /** The authorization requests received, as their query parameters. */
  authorizations: Record<string, string>[];
  kid: string;
  privateKey: CryptoKey;
  /** How many times the JWKS was fetched. */
  fetches(): number;
  /**
   * Signs an RS256 ID token for `sub`: iss, aud, iat = now, exp = now + 1 h unless `claims` overrides them;
   * `opts` signs with another key or names another kid.
   */
  token(
    sub: string,
    now: Date,
    claims?: JWTPayload,
    opts?: { key?: CryptoKey; kid?: string },
  ): Promise<string>;
  close(): Promise<void>;
}

function parseUrl(raw: string | undefined): URL | null {
  try {
    return raw ? new URL(raw) : null;
  } catch {
    return null;
  }
}

/** `now` dates the ID tokens `/authorize` issues (the app under test may run on a pinned clock). */
export async function startTestIssuer(opts: { now?: () => Date } = {}): Promise<TestIssuer> {
  const kid = "test-key-1";
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  let fetches = 0;
  const token: TestIssuer["token"] = async (sub, now, claims = {}, o = {}) => {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ iss: OIDC_ISSUER, aud: OIDC_AUDIENCE, sub, iat, exp: iat + 3600, ...claims })
      .setProtectedHeader({ alg: "RS256", kid: o.kid ?? kid })
      .sign(o.key ?? privateKey);
  };
  const issuer = {
    signInAs: { sub: "identity-player-1", name: "Identity Player" },
    authorizations: [] as Record<string, string>[],
  };
  const authorize = async (query: URLSearchParams, res: ServerResponse) => {
    const q = Object.fromEntries(query);
    issuer.authorizations.push(q);
    const redirect = parseUrl(q.redirect_uri);
    const problem =
      q.response_type !== "id_token"
        ? "response_type must be id_token"
        : q.client_id !== OIDC_AUDIENCE
          ? "unknown client_id"
          : !q.scope?.split(" ").includes("openid")
            ? "scope must include openid"
            : !redirect || !["http:", "https:"].includes(redirect.protocol)
              ? "redirect_uri must be an http(s) URL"
              : !q.nonce || !q.state
                ? "state and nonce are required"
                : null;
    if (problem || !redirect) {
      res.writeHead(400, { "content-type": "text/plain" }).end(problem ?? "bad request");
      return;
    }
    const idToken = await token(issuer.signInAs.sub, opts.now?.() ?? new Date(), {
      name: issuer.signInAs.name,
      nonce: q.nonce,
    });
    redirect.hash = new URLSearchParams({ id_token: idToken, state: q.state! }).toString();
    res.writeHead(302, { location: redirect.toString() }).end();
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://issuer.invalid");
    if (url.pathname === "/jwks") {
      fetches++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    if (url.pathname === "/authorize" && req.method === "GET") {
      authorize(url.searchParams, res).catch(() => res.writeHead(500).end());
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: {
      OIDC_ISSUER,
      OIDC_AUDIENCE,
      OIDC_JWKS_URL: `http://127.0.0.1:${port}/jwks`,
      OIDC_AUTHORIZATION_URL: `http://127.0.0.1:${port}/authorize`,
    },
    get signInAs() {
      return issuer.signInAs;
    },
    set signInAs(who) {
      issuer.signInAs = who;
    },
    authorizations: issuer.authorizations,
    kid,
    privateKey,
    fetches: () => fetches,
    token,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
