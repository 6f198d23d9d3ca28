/**
 * A local OIDC identity provider for tests: an RS256 key pair whose public JWK (with a kid) is served as a JWKS
 * from a loopback HTTP server, and a function that signs ID tokens with it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";

export const OIDC_ISSUER = "https://id.test.example";
export const OIDC_AUDIENCE = "sp-competition-test";

export interface TestIssuer {
  /** OIDC_ISSUER, OIDC_AUDIENCE and OIDC_JWKS_URL for createTestApp({env}). */
  env: { OIDC_ISSUER: string; OIDC_AUDIENCE: string; OIDC_JWKS_URL: string };
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

export async function startTestIssuer(): Promise<TestIssuer> {
  const kid = "test-key-1";
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" };
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === "/jwks") {
      fetches++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: [jwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { OIDC_ISSUER, OIDC_AUDIENCE, OIDC_JWKS_URL: `http://127.0.0.1:${port}/jwks` },
    kid,
    privateKey,
    fetches: () => fetches,
    token: async (sub, now, claims = {}, opts = {}) => {
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT({ iss: OIDC_ISSUER, aud: OIDC_AUDIENCE, sub, iat, exp: iat + 3600, ...claims })
        .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? kid })
        .sign(opts.key ?? privateKey);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
