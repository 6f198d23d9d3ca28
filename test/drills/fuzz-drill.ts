/**
 * Drill: the schema fuzz of every operation (test/fuzz-requests.ts) sent over HTTP to a real server process on
 * either engine, with every kind of auth (none, a wallet session, the admin token, the finalize secret). Seeded:
 * the same requests every run. Promised: no 5xx; every 4xx is the error envelope with its status.
 */
import fc from "fast-check";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { buildEventBody } from "../factories.js";
import { operationsOf, requestOf, urlOf } from "../fuzz-requests.js";
import { drillStorage, type Engine } from "./engines.js";
import { ADMIN_HEADERS, request, startServer, stopServer } from "./server-process.js";

export interface FuzzResult {
  engine: Engine;
  operations: number;
  requests: number;
  fiveXx: number;
  notEnvelope: number;
  ms: number;
}

/** Signs a test wallet in through /api/auth/nonce and /api/auth/wallet; returns its cookie header. */
async function walletSession(base: string): Promise<string> {
  const account = privateKeyToAccount(`0x${"1".padStart(64, "0")}`);
  const res = await fetch(`${base}/api/auth/nonce`);
  const nonce = ((await res.json()) as { data: { nonce: string } }).data.nonce;
  const binding = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("siwe_nonce="))!
    .split(";")[0]!;
  const message = createSiweMessage({
    address: account.address,
    chainId: 1,
    // The server's own host: sign-in refuses a message for another domain (SIWE's phishing guard).
    domain: new URL(base).host,
    nonce,
    uri: base,
    version: "1",
    issuedAt: new Date(),
  });
  const signedIn = await fetch(`${base}/api/auth/wallet`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: binding },
    body: JSON.stringify({ message, signature: await account.signMessage({ message }) }),
  });
  if (signedIn.status !== 200)
    throw new Error(`drill broken: sign-in ${signedIn.status} ${await signedIn.text()}`);
  return signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("session="))!
    .split(";")[0]!;
}

export async function fuzzDrill(engine: Engine, runsPerOperation = 30): Promise<FuzzResult> {
  const storage = await drillStorage(engine);
  const server = await startServer({ ...storage.env, TEST_CLOCK: "1", CHAIN_VERIFIER: "trust" });
  try {
    const startedAt = performance.now();
    const cookie = await walletSession(server.base);
    await request(server.base, "PUT", "/api/admin/events/ev-1", {
      headers: ADMIN_HEADERS,
      body: buildEventBody(),
    });
    const doc = (await request(server.base, "GET", "/docs/json")).body;
    const operations = operationsOf(doc).filter((op) => !op.path.startsWith("/docs"));
    const auth: Record<string, Record<string, string>> = {
      none: {},
      cookie: { cookie },
      admin: ADMIN_HEADERS,
      finalize: { "x-competition-finalize-secret": "dev-finalize-secret" },
    };
    let requests = 0;
    const fiveXx: string[] = [];
    const notEnvelope: string[] = [];
    for (const [i, op] of operations.entries()) {
      for (const r of fc.sample(requestOf(op), { seed: 2100 + i, numRuns: runsPerOperation })) {
        const url = urlOf(op, r);
        const res = await request(server.base, op.method, url, {
          headers: auth[r.auth]!,
          ...(r.body === undefined ? {} : { body: r.body }),
        });
        requests++;
        const what = `${op.method} ${url.slice(0, 200)} ${JSON.stringify(r.body)?.slice(0, 200)} → ${res.status}`;
        if (res.status >= 500 || res.status === 0) fiveXx.push(`${what} ${JSON.stringify(res.body)}`);
        else if (
          res.status >= 400 &&
          !(
            res.body?.success === false &&
            res.body.status === res.status &&
            typeof res.body.code === "string"
          )
        ) {
          notEnvelope.push(what);
        }
      }
    }
    if (server.child.exitCode !== null)
      throw new Error(`drill broken: the server exited:\n${server.output()}`);
    if (fiveXx.length > 0 || notEnvelope.length > 0) {
      throw new Error(
        `drill broken: ${fiveXx.length} 5xx, ${notEnvelope.length} 4xx outside the envelope, e.g. ${[...fiveXx, ...notEnvelope].slice(0, 3).join("; ")}`,
      );
    }
    return {
      engine,
      operations: operations.length,
      requests,
      fiveXx: 0,
      notEnvelope: 0,
      ms: Math.round(performance.now() - startedAt),
    };
  } finally {
    await stopServer(server);
    await storage.drop();
  }
}
