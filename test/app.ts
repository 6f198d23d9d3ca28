/**
 * A real app on a fresh test database (PGlite or PostgreSQL, per TEST_DB), with a pinned clock and helpers to
 * drive it through HTTP exactly as a client would (fastify.inject). Every response it sends is checked against
 * its OpenAPI document (test/response-contract.ts): `call` fails on a response that breaks it, `close` on any
 * other (a direct inject, a browser's request).
 */
import type { FastifyInstance, InjectOptions } from "fastify";
import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { type AppDeps, buildApp } from "../src/app.js";
import { AdjustableClock } from "../src/clock.js";
import { type Config, loadConfig } from "../src/config.js";
import type { Database } from "../src/db/client.js";
import { createTestDatabase, releaseTestDatabase } from "./db.js";
import { checkResponsesAgainstDocument, takeViolations } from "./response-contract.js";

export const ADMIN = { authorization: "Bearer test-admin-token" };
export const FINALIZE = { "x-competition-finalize-secret": "test-finalize-secret" };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: AdjustableClock;
  config: Config;
  close(): Promise<void>;
}

/**
 * Test configuration: season starts Mon 2026-11-02, week 1 starts Tue 2026-11-10 (an 8-day opening week). The
 * rank cache is on unless the test project sets TEST_RANK_CACHE=off (vitest.config.ts).
 */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    RANK_CACHE: process.env.TEST_RANK_CACHE ?? "on",
    NODE_ENV: "test",
    CHAMPIONS_SEASON_START_ISO: "2026-11-02T00:00:00.000Z",
    CHAMPIONS_WEEK_ONE_START_ISO: "2026-11-10T00:00:00.000Z",
    FINALIZE_SECRET: "test-finalize-secret",
    ADMIN_TOKEN: "test-admin-token",
    JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
    TEST_CLOCK: "1",
    // Tests fire many requests from one address; the rate-limit tests set their own small limits.
    RATE_LIMIT_READ_PER_MIN: "1000000",
    RATE_LIMIT_WRITE_PER_MIN: "1000000",
    RATE_LIMIT_AUTH_PER_MIN: "1000000",
    RATE_LIMIT_FINALIZE_PER_MIN: "1000000",
    ...overrides,
  });
}

export async function createTestApp(
  opts: {
    env?: Record<string, string>;
    now?: Date;
    database?: Database;
    /** The demo chain's routes (`npm run demo`), built on the app's clock. */
    demo?: (clock: AdjustableClock) => AppDeps["demo"];
  } = {},
): Promise<TestApp> {
  const config = testConfig(opts.env);
  const database = opts.database ?? (await createTestDatabase());
  const clock = new AdjustableClock(opts.now ?? new Date("2026-11-20T12:00:00.000Z"));
  const app = await buildApp({ config, database, clock, demo: opts.demo?.(clock) });
  checkResponsesAgainstDocument(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    config,
    close: async () => {
      await app.close();
      if (!opts.database) await releaseTestDatabase(database);
      failOnViolations(app);
    },
  };
}

/** Throws when a response of `app` broke its OpenAPI document. */
function failOnViolations(app: FastifyInstance): void {
  const violations = takeViolations(app);
  if (violations.length > 0)
    throw new Error(`responses break the OpenAPI document:\n${violations.join("\n")}`);
}

/** Injects a request and returns status, parsed JSON body and headers; fails when the response breaks the document. */
export async function call(app: FastifyInstance, opts: InjectOptions) {
  const res = await app.inject(opts);
  failOnViolations(app);
  let body: any = null;
  try {
    body = res.json();
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers, cookies: res.cookies };
}

/**
 * A fresh nonce and an EIP-4361 message for `privateKey`'s account as a well-behaved client of this app writes it
 * (`over` changes fields, e.g. a foreign `uri`), with its signature: the body of POST /api/auth/wallet, and the
 * cookie header that binds the nonce to this client (the `siwe_nonce` cookie GET /api/auth/nonce set).
 */
export async function signedSiwe(
  t: TestApp,
  privateKey: `0x${string}`,
  over: { uri?: string; issuedAt?: Date; edit?: (message: string) => string } = {},
): Promise<{ body: { message: string; signature: `0x${string}` }; cookie: string }> {
  const account = privateKeyToAccount(privateKey);
  // Signs for the domain the server names, as the page does.
  const issued = await call(t.app, { method: "GET", url: "/api/auth/nonce" });
  const { nonce, domain } = issued.body.data as { nonce: string; domain: string };
  const binding = issued.cookies.find((c) => c.name === "siwe_nonce");
  if (!binding) throw new Error("GET /api/auth/nonce set no siwe_nonce cookie");
  const built = createSiweMessage({
    address: account.address,
    chainId: 1,
    domain,
    nonce,
    uri: over.uri ?? `http://${domain}`,
    version: "1",
    issuedAt: over.issuedAt ?? t.clock.now(),
  });
  // `edit`: the text as signed, changed where viem would refuse to write it (a malformed line).
  const message = over.edit ? over.edit(built) : built;
  return {
    body: { message, signature: await account.signMessage({ message }) },
    cookie: `siwe_nonce=${binding.value}`,
  };
}

/** Signs in a wallet through /api/auth/nonce + /api/auth/wallet; returns the session cookie header. */
export async function signIn(
  t: TestApp,
  privateKey: `0x${string}`,
  opts: { referralCode?: string } = {},
): Promise<{ cookie: string; userId: string; wallet: string }> {
  const { body, cookie } = await signedSiwe(t, privateKey);
  const res = await call(t.app, {
    method: "POST",
    url: "/api/auth/wallet",
    payload: { ...body, ...opts },
    headers: { cookie },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  const session = res.cookies.find((c) => c.name === "session");
  return {
    cookie: `session=${session!.value}`,
    userId: res.body.data.user.id,
    wallet: privateKeyToAccount(privateKey).address,
  };
}

/** A deterministic test private key for index i (never a real wallet). */
export function testKey(i: number): `0x${string}` {
  return `0x${(i + 1).toString(16).padStart(64, "0")}`;
}
