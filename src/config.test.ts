import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigError, DEV_DEFAULTS, loadConfig } from "./config.js";

type Env = Record<string, string | undefined>;

/** A secret made now: production refuses any written in this repository, this file included. */
const fresh = (bytes: number) => randomBytes(bytes).toString("hex");

/** A complete, valid production environment: nothing is left to a default. */
const PRODUCTION: Env = {
  NODE_ENV: "production",
  CHAMPIONS_SEASON_START_ISO: "2027-03-01T00:00:00.000Z", // Mon 2027-03-01
  CHAMPIONS_WEEK_ONE_START_ISO: "2027-03-09T00:00:00.000Z", // Tue 2027-03-09
  FINALIZE_SECRET: fresh(12),
  ADMIN_TOKEN: fresh(12),
  JWT_SECRET: fresh(20), // 40 bytes of hex
};

/** The ConfigError thrown by loadConfig(env); fails the test when it does not throw one. */
function configError(env: Env): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** Asserts loadConfig refuses env with a one-line message that starts with the variable's name. */
function expectRefused(env: Env, variable: string): string {
  const { message } = configError(env);
  expect(message).not.toMatch(/[\r\n]/);
  expect(message.startsWith(`${variable}: `)).toBe(true);
  return message;
}

describe("loadConfig defaults", () => {
  it("gives the documented defaults for an empty environment", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      env: "development",
      port: 3000,
      host: "127.0.0.1",
      databaseUrl: null,
      dataDir: "./data",
      redisUrl: null,
      seasonStart: new Date("2026-11-02T00:00:00.000Z"), // Mon
      weekOneStart: new Date("2026-11-10T00:00:00.000Z"), // Tue
      finalizeSecret: "dev-finalize-secret",
      adminToken: "dev-admin-token",
      jwtSecret: "dev-jwt-secret-change-me-0123456789abcdef",
      protocolIncentiveMicro: 0n,
      siweDomains: null,
      siweChainIds: [1, 8453],
      oidc: null,
      appOrigins: null,
      publicUrl: null,
      testClock: false,
      rateLimits: { readPerMin: 300, writePerMin: 60, authPerMin: 20, finalizePerMin: 10 },
      welcomeCredits: 1000,
      dailyCredits: 1000,
      spPerUsdc: 100,
      referralRewardSp: 500,
      logLevel: "info",
    });
  });

  it("reads TRUST_PROXY as off, true, or the proxies' addresses and CIDRs, and names a bad entry", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.1, 192.168.0.0/16,::1" }).trustProxy).toBe(
      "10.0.0.1, 192.168.0.0/16,::1",
    );
    expect(configError({ TRUST_PROXY: "10.0.0.1,lb.internal" }).message).toContain('"lb.internal"');
  });

  it("treats empty strings as unset", () => {
    const c = loadConfig({ PORT: "", DATABASE_URL: "", TEST_CLOCK: "", APP_ORIGINS: "", JWT_SECRET: "" });
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBeNull();
    expect(c.testClock).toBe(false);
    expect(c.jwtSecret).toBe(DEV_DEFAULTS.jwtSecret);
  });

  it("leaves the sign-in domains and app origins to the listened port when unset (src/auth/origins.ts)", () => {
    const c = loadConfig({ PORT: "8080" });
    expect(c.siweDomains).toBeNull();
    expect(c.appOrigins).toBeNull();
  });

  it("reads SIWE_DOMAINS as a list, the older SIWE_DOMAIN as a list of one, and PUBLIC_URL", () => {
    expect(
      loadConfig({ SIWE_DOMAINS: "App.Example.com, localhost:5173,app.example.com" }).siweDomains,
    ).toEqual(["app.example.com", "localhost:5173"]);
    expect(loadConfig({ SIWE_DOMAIN: "app.example.com:8443" }).siweDomains).toEqual(["app.example.com:8443"]);
    expect(loadConfig({ PUBLIC_URL: "https://play.example.com" }).publicUrl).toBe("https://play.example.com");
    expectRefused({ SIWE_DOMAINS: "a.example", SIWE_DOMAIN: "b.example" }, "SIWE_DOMAIN");
    expectRefused({ SIWE_DOMAINS: "a.example,https://b.example" }, "SIWE_DOMAINS");
    expectRefused({ SIWE_DOMAINS: "a.example,,b.example" }, "SIWE_DOMAINS");
    expectRefused({ PUBLIC_URL: "play.example.com" }, "PUBLIC_URL");
    expectRefused({ PUBLIC_URL: "ftp://play.example.com" }, "PUBLIC_URL");
  });

  it("is silent under NODE_ENV=test", () => {
    expect(loadConfig({ NODE_ENV: "test" }).logLevel).toBe("silent");
  });

  it("reads every variable when all are set and valid", () => {
    const c = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgresql://app@db.internal:5432/sp",
      DATA_DIR: "/var/lib/sp",
      REDIS_URL: "rediss://cache.internal:6380",
      CHAMPIONS_SEASON_START_ISO: "2027-03-01T12:30:00+02:00", // Mon 10:30 UTC
      CHAMPIONS_WEEK_ONE_START_ISO: "2027-03-09T00:00:00Z", // Tue
      PROTOCOL_INCENTIVE_USDC: "250.5",
      JWT_SECRET: "é".repeat(16), // 16 characters but 32 bytes: the minimum counts bytes
      SIWE_DOMAIN: "app.example.com",
      SIWE_CHAIN_IDS: "1, 10 ,8453",
      OIDC_ISSUER: "https://accounts.example.com",
      OIDC_AUDIENCE: "client-1",
      OIDC_JWKS_URL: "https://accounts.example.com/.well-known/jwks.json",
      APP_ORIGINS: "https://app.example.com, http://localhost:5173",
      TEST_CLOCK: "1",
      RATE_LIMIT_READ_PER_MIN: "1000",
      WELCOME_CREDITS: "0",
      LOG_LEVEL: "warn",
    });
    expect(c.port).toBe(8080);
    expect(c.host).toBe("0.0.0.0");
    expect(c.databaseUrl).toBe("postgresql://app@db.internal:5432/sp");
    expect(c.dataDir).toBe("/var/lib/sp");
    expect(c.redisUrl).toBe("rediss://cache.internal:6380");
    expect(c.seasonStart.toISOString()).toBe("2027-03-01T10:30:00.000Z");
    expect(c.weekOneStart.toISOString()).toBe("2027-03-09T00:00:00.000Z");
    expect(c.protocolIncentiveMicro).toBe(250_500_000n);
    expect(c.siweDomains).toEqual(["app.example.com"]);
    expect(c.siweChainIds).toEqual([1, 10, 8453]);
    expect(c.oidc).toEqual({
      issuer: "https://accounts.example.com",
      audience: "client-1",
      jwksUrl: "https://accounts.example.com/.well-known/jwks.json",
      authorizationUrl: null,
    });
    expect(c.appOrigins).toEqual(["https://app.example.com", "http://localhost:5173"]);
    expect(c.testClock).toBe(true);
    expect(c.rateLimits.readPerMin).toBe(1000);
    expect(c.welcomeCredits).toBe(0);
    expect(c.logLevel).toBe("warn");
  });
});

describe("loadConfig refuses a bad variable with one line naming it", () => {
  it.each([
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ PORT: "abc" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PORT: "65536" }, "PORT"],
    [{ PORT: "-1" }, "PORT"],
    [{ PORT: "80.5" }, "PORT"],
    [{ PORT: "1e3" }, "PORT"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ DATABASE_URL: "not a url" }, "DATABASE_URL"],
    [{ REDIS_URL: "http://cache:6379" }, "REDIS_URL"],
    [{ RATE_LIMIT_WRITE_PER_MIN: "0" }, "RATE_LIMIT_WRITE_PER_MIN"],
    [{ DAILY_CREDITS: "ten" }, "DAILY_CREDITS"],
  ])("%j", (env, variable) => {
    expectRefused(env, variable);
  });

  it("accepts the edges of PORT", () => {
    expect(loadConfig({ PORT: "0" }).port).toBe(0);
    expect(loadConfig({ PORT: "65535" }).port).toBe(65535);
  });

  it.each([
    ["2026-11-09T00:00:00.000Z", "a Monday"], // Mon 2026-11-09
    ["2026-11-10T00:00:01.000Z", "Tuesday 00:00:01"], // Tue 2026-11-10, one second late
    ["2026-11-10T00:00:00.001Z", "Tuesday 00:00:00.001"],
    ["2026-11-10T00:00:00.000+01:00", "Tuesday midnight in +01:00 (Mon 23:00 UTC)"],
    ["2026-10-27T00:00:00.000Z", "a Tuesday before the season start (Mon 2026-11-02)"],
  ])("CHAMPIONS_WEEK_ONE_START_ISO=%s (%s)", (weekOne) => {
    expectRefused(
      { CHAMPIONS_SEASON_START_ISO: "2026-11-02T00:00:00.000Z", CHAMPIONS_WEEK_ONE_START_ISO: weekOne },
      "CHAMPIONS_WEEK_ONE_START_ISO",
    );
  });

  it("refuses a week one that starts exactly at the season start", () => {
    // Tue 2026-11-10 for both: week 0 would be empty
    expectRefused(
      {
        CHAMPIONS_SEASON_START_ISO: "2026-11-10T00:00:00.000Z",
        CHAMPIONS_WEEK_ONE_START_ISO: "2026-11-10T00:00:00.000Z",
      },
      "CHAMPIONS_WEEK_ONE_START_ISO",
    );
  });

  it("accepts a week one one week after a Tuesday season start", () => {
    const c = loadConfig({
      CHAMPIONS_SEASON_START_ISO: "2026-11-03T00:00:00.000Z", // Tue
      CHAMPIONS_WEEK_ONE_START_ISO: "2026-11-10T00:00:00.000Z", // Tue
    });
    expect(c.weekOneStart.toISOString()).toBe("2026-11-10T00:00:00.000Z");
  });

  it.each([
    "2026-11-10", // no time
    "2026-11-10T00:00:00", // no time zone
    "10/11/2026",
    "next tuesday",
    "1762732800000", // epoch millis
    "2026-11-10T00:00:00.000ZZ",
    "2026-13-10T00:00:00.000Z", // month 13
    "2026-02-31T00:00:00.000Z", // 31 February: Date rolls it over to Tue 2026-03-03
    "2026-11-31T00:00:00.000Z", // 31 November: Date rolls it over to Tue 2026-12-01
  ])("CHAMPIONS_WEEK_ONE_START_ISO=%j is not an ISO instant", (raw) => {
    // Season from Mon 2026-01-05, so a rolled-over date (2026-02-31 → Tue 2026-03-03) would otherwise pass.
    expectRefused(
      { CHAMPIONS_SEASON_START_ISO: "2026-01-05T00:00:00.000Z", CHAMPIONS_WEEK_ONE_START_ISO: raw },
      "CHAMPIONS_WEEK_ONE_START_ISO",
    );
  });

  it("names CHAMPIONS_SEASON_START_ISO when that one is not ISO", () => {
    expectRefused({ CHAMPIONS_SEASON_START_ISO: "2 Nov 2026" }, "CHAMPIONS_SEASON_START_ISO");
  });

  it.each(["-1", "1.1234567", "abc", "1e3", " 1", "1,5", "1234567890123456"])(
    "PROTOCOL_INCENTIVE_USDC=%j",
    (raw) => {
      expectRefused({ PROTOCOL_INCENTIVE_USDC: raw }, "PROTOCOL_INCENTIVE_USDC");
    },
  );

  it("reads PROTOCOL_INCENTIVE_USDC exactly, up to 6 decimals", () => {
    expect(loadConfig({ PROTOCOL_INCENTIVE_USDC: "1.123456" }).protocolIncentiveMicro).toBe(1_123_456n);
    expect(loadConfig({ PROTOCOL_INCENTIVE_USDC: "0.1" }).protocolIncentiveMicro).toBe(100_000n);
  });

  it("refuses a JWT_SECRET shorter than 32 bytes and accepts 32", () => {
    const message = expectRefused({ JWT_SECRET: "x".repeat(31) }, "JWT_SECRET");
    expect(message).toContain("32 bytes");
    expect(message).not.toContain("x".repeat(31)); // a secret is never echoed
    expect(loadConfig({ JWT_SECRET: "x".repeat(32) }).jwtSecret).toBe("x".repeat(32));
  });

  // Beyond 2,147,483,647 a chain id does not fit the chain_id columns: the first v2 bet's insert failed (a 500).
  it.each([["1,x"], ["1,,8453"], ["0"], ["1;8453"], ["-1"], ["1.5"], ["1,3000000000"], ["9999999999999999"]])(
    "SIWE_CHAIN_IDS=%j",
    (raw) => {
      expectRefused({ SIWE_CHAIN_IDS: raw }, "SIWE_CHAIN_IDS");
    },
  );

  it("takes the largest chain id a chain_id column holds, and no larger CHAIN_ID", () => {
    expect(loadConfig({ SIWE_CHAIN_IDS: "1,2147483647" }).siweChainIds).toEqual([1, 2147483647]);
    expectRefused({ CHAIN_ID: "2147483648" }, "CHAIN_ID");
  });

  // Before: accepted here, then the start failed inside Fastify after the database was migrated, with a message
  // naming no variable ("default level:verbose must be included in custom levels", "invalid range on address").
  it.each([
    ["LOG_LEVEL", "verbose"],
    ["TRUST_PROXY", "10.0.0.0/99"],
    ["TRUST_PROXY", "...."],
    ["TRUST_PROXY", "10.0.0.1/8/8"],
    ["TRUST_PROXY", "::1/129"],
  ])("%s=%j", (name, raw) => {
    expectRefused({ [name]: raw }, name);
  });

  it.each([["https://app.example.com"], ["localhost:3000/path"], ["app example.com"]])(
    "SIWE_DOMAIN=%j",
    (raw) => {
      expectRefused({ SIWE_DOMAIN: raw }, "SIWE_DOMAIN");
    },
  );

  it.each([
    [{ OIDC_ISSUER: "https://accounts.example.com" }, ["OIDC_AUDIENCE", "OIDC_JWKS_URL"]],
    [{ OIDC_AUDIENCE: "client-1" }, ["OIDC_ISSUER", "OIDC_JWKS_URL"]],
    [
      { OIDC_ISSUER: "https://accounts.example.com", OIDC_JWKS_URL: "https://accounts.example.com/jwks" },
      ["OIDC_AUDIENCE"],
    ],
  ])("OIDC partially set: %j", (env, missing) => {
    const { message } = configError(env);
    expect(message).not.toMatch(/[\r\n]/);
    for (const name of missing) expect(message).toContain(name);
  });

  it("reads OIDC_AUTHORIZATION_URL with identity login, and refuses it alone or when not http(s)", () => {
    const oidc = {
      OIDC_ISSUER: "https://a.example",
      OIDC_AUDIENCE: "c",
      OIDC_JWKS_URL: "https://a.example/jwks",
    };
    expect(loadConfig({ ...oidc, OIDC_AUTHORIZATION_URL: "https://a.example/authorize" }).oidc).toEqual({
      issuer: "https://a.example",
      audience: "c",
      jwksUrl: "https://a.example/jwks",
      authorizationUrl: "https://a.example/authorize",
    });
    expectRefused({ OIDC_AUTHORIZATION_URL: "https://a.example/authorize" }, "OIDC_AUTHORIZATION_URL");
    expectRefused({ ...oidc, OIDC_AUTHORIZATION_URL: "javascript:alert(1)" }, "OIDC_AUTHORIZATION_URL");
  });

  it("refuses an OIDC_JWKS_URL that is not http(s)", () => {
    expectRefused(
      { OIDC_ISSUER: "https://a.example", OIDC_AUDIENCE: "c", OIDC_JWKS_URL: "ftp://a.example/jwks" },
      "OIDC_JWKS_URL",
    );
  });

  it.each([
    ["https://app.example.com/path"],
    ["https://app.example.com/"],
    ["https://app.example.com,https://other.example.com/login"],
    ["app.example.com"],
    ["https://app.example.com?x=1"],
  ])("APP_ORIGINS=%j", (raw) => {
    expectRefused({ APP_ORIGINS: raw }, "APP_ORIGINS");
  });

  it("refuses TEST_CLOCK=1 in production", () => {
    expectRefused({ ...PRODUCTION, TEST_CLOCK: "1" }, "TEST_CLOCK");
  });

  it("keeps the message on one line even when the value has a line break", () => {
    expectRefused({ PORT: "30\n00" }, "PORT");
    expectRefused({ CHAMPIONS_SEASON_START_ISO: "2026-11-02\nT00:00:00Z" }, "CHAMPIONS_SEASON_START_ISO");
    expectRefused({ PROTOCOL_INCENTIVE_USDC: "1\r\n2" }, "PROTOCOL_INCENTIVE_USDC");
    expectRefused({ SIWE_CHAIN_IDS: "1\n8453" }, "SIWE_CHAIN_IDS");
    expectRefused({ APP_ORIGINS: "https://a\n.example" }, "APP_ORIGINS");
  });
});

describe("loadConfig under NODE_ENV=production", () => {
  it("accepts a full valid set", () => {
    const c = loadConfig(PRODUCTION);
    expect(c.env).toBe("production");
    expect(c.seasonStart.toISOString()).toBe("2027-03-01T00:00:00.000Z");
    expect(c.weekOneStart.toISOString()).toBe("2027-03-09T00:00:00.000Z");
    expect(c.finalizeSecret).toBe(PRODUCTION.FINALIZE_SECRET);
    expect(c.adminToken).toBe(PRODUCTION.ADMIN_TOKEN);
    expect(c.jwtSecret).toBe(PRODUCTION.JWT_SECRET);
    expect(c.testClock).toBe(false);
    expect(c.logLevel).toBe("info");
  });

  it.each([
    "FINALIZE_SECRET",
    "ADMIN_TOKEN",
    "JWT_SECRET",
    "CHAMPIONS_SEASON_START_ISO",
    "CHAMPIONS_WEEK_ONE_START_ISO",
  ])("refuses a missing %s", (name) => {
    const message = expectRefused({ ...PRODUCTION, [name]: undefined }, name);
    expect(message).toContain("required in production");
    expectRefused({ ...PRODUCTION, [name]: "" }, name);
  });

  it.each([
    ["FINALIZE_SECRET", DEV_DEFAULTS.finalizeSecret],
    ["ADMIN_TOKEN", DEV_DEFAULTS.adminToken],
    ["JWT_SECRET", DEV_DEFAULTS.jwtSecret],
  ])("refuses the development default of %s", (name, value) => {
    const message = expectRefused({ ...PRODUCTION, [name]: value }, name);
    expect(message).not.toContain(value);
  });

  it.each([
    // The test app's values (test/app.ts): public text, like everything in the repository.
    ["FINALIZE_SECRET", "test-finalize-secret"],
    ["ADMIN_TOKEN", "test-admin-token"],
    ["JWT_SECRET", "test-jwt-secret-0123456789abcdef0123456789"],
  ])(
    "refuses a %s written in this repository, naming a file that holds it and not the value",
    (name, value) => {
      const message = expectRefused({ ...PRODUCTION, [name]: value }, name);
      const file =
        /^\w+: is written in this repository \(([^)]+)\): anyone can read it; refused in production$/.exec(
          message,
        )?.[1];
      expect(file).toBeDefined();
      expect(readFileSync(new URL(`../${file}`, import.meta.url), "utf8")).toContain(value);
      expect(message).not.toContain(value);
      // Development takes it.
      expect(() => loadConfig({ [name]: value })).not.toThrow();
    },
  );

  it("refuses a METRICS_TOKEN written in this repository in production, and takes a fresh one", () => {
    const written = "test-metrics-token-0123456789"; // written here, so public
    expectRefused({ ...PRODUCTION, METRICS_TOKEN: written }, "METRICS_TOKEN");
    expect(loadConfig({ METRICS_TOKEN: written }).metricsToken).toBe(written);
    const token = fresh(16);
    expect(loadConfig({ ...PRODUCTION, METRICS_TOKEN: token }).metricsToken).toBe(token);
  });

  it("still requires JWT_SECRET to be at least 32 bytes", () => {
    expectRefused({ ...PRODUCTION, JWT_SECRET: "short-but-not-the-default" }, "JWT_SECRET");
  });
});
